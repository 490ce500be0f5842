import Cassowary
import Testing

/// A deterministic generator for the random systems (SplitMix64).
private struct SplitMix: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

@Suite struct ConflictTests {
    private static func holds(_ constraints: [Constraint]) -> Bool {
        var solver = Solver()
        do {
            for constraint in constraints { try solver.add(constraint) }
            return true
        } catch {
            return false
        }
    }

    /// On random systems of required constraints: each refused constraint's conflicts are a set that cannot hold with
    /// it, and from which none can be left out; the refusal leaves every value as it was.
    @Test func aRefusedConstraintsConflictsAreIrreducible() throws {
        var random = SplitMix(state: 43)
        var refusals = 0
        for _ in 0..<300 {
            var solver = Solver()
            let variables = (0..<Int.random(in: 2...6, using: &random)).map { Variable($0) }
            for _ in 0..<12 {
                let named = variables.shuffled(using: &random).prefix(Int.random(in: 1...2, using: &random))
                let terms = named.map { Term($0, [1, -1, 2, 0.5].randomElement(using: &random)!) }
                let relation = [Relation.equal, .lessOrEqual, .greaterOrEqual].randomElement(using: &random)!
                let constraint = Constraint(
                    Expression(terms, constant: Double(Int.random(in: -50...50, using: &random))),
                    relation
                )
                let before = solver.values
                do {
                    try solver.add(constraint)
                } catch {
                    refusals += 1
                    #expect(error == .unsatisfiable)
                    #expect(solver.values == before)
                    let conflicts = try #require(solver.conflicts(with: constraint))
                    let held = conflicts.compactMap { solver.constraint($0) }
                    #expect(!Self.holds(held + [constraint]))
                    for left in held.indices {
                        var fewer = held
                        fewer.remove(at: left)
                        #expect(Self.holds(fewer + [constraint]), "\(held[left]) could be left out of \(held)")
                    }
                }
            }
        }
        #expect(refusals > 100, "only \(refusals) refusals: the systems are too easy")
    }

    @Test func theSameOperationsGiveTheSameSolution() throws {
        func run() throws -> [Variable: Double] {
            var random = SplitMix(state: 7)
            var solver = Solver()
            for index in 0..<40 {
                let a = Variable(Int.random(in: 0..<10, using: &random))
                let b = Variable(Int.random(in: 0..<10, using: &random))
                let strength = Strength(priority: [1, 250, 750].randomElement(using: &random)!)
                try solver.add(
                    Constraint(
                        Expression(a) - Expression(b) * 2,
                        .equal,
                        Expression(constant: Double(index)),
                        strength: strength
                    )
                )
            }
            return solver.values
        }
        #expect(try run() == run())
    }
}
