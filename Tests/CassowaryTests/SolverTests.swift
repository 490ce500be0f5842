import Cassowary
import Testing

private let x = Variable(0)
private let y = Variable(1)
private let z = Variable(2)

private func v(_ variable: Variable) -> Expression { Expression(variable) }
private func c(_ value: Double) -> Expression { Expression(constant: value) }

@Suite struct SolverTests {
    @Test func aRequiredEqualityHolds() throws {
        var solver = Solver()
        try solver.add(Constraint(v(x), .equal, c(10)))
        #expect(solver.value(of: x) == 10)
    }

    /// Issue 43's container: `child.width == 0.5 * container.width`, `child.centerX == container.centerX`, the
    /// container's width given by an edit (its parent's frame); a resize moves the child.
    @Test func aChildIsCenteredAtHalfItsContainersWidthAndFollowsAResize() throws {
        let containerWidth = Variable(0)
        let childLeft = Variable(1)
        let childWidth = Variable(2)
        var solver = Solver()
        try solver.addEditVariable(containerWidth, strength: Strength(priority: 999))
        try solver.suggest(containerWidth, 400)
        try solver.add(Constraint(v(childWidth), .equal, v(containerWidth) * 0.5))
        // centerX = left + width / 2; the container's centerX in its own coordinates is width / 2.
        try solver.add(Constraint(v(childLeft) + v(childWidth) * 0.5, .equal, v(containerWidth) * 0.5))
        #expect(solver.value(of: childWidth) == 200)
        #expect(solver.value(of: childLeft) == 100)
        try solver.suggest(containerWidth, 1000)
        #expect(solver.value(of: childWidth) == 500)
        #expect(solver.value(of: childLeft) == 250)
    }

    /// A higher priority wins wholly, however much a lower one weighs: x == 10 at priority 2 beats x == 20 at priority
    /// 1 weighing a billion (a sum of weights, as kiwi keeps them, would give 20).
    @Test func aHigherPriorityHoldsWhollyBeforeALowerOne() throws {
        var solver = Solver()
        try solver.add(Constraint(v(x), .equal, c(20), strength: Strength(priority: 1, weight: 1e9)))
        try solver.add(Constraint(v(x), .equal, c(10), strength: Strength(priority: 2, weight: 1)))
        #expect(solver.value(of: x) == 10)
        // Within one priority, the weights decide.
        try solver.add(Constraint(v(y), .equal, c(1), strength: Strength(priority: 5, weight: 2)))
        try solver.add(Constraint(v(y), .equal, c(2), strength: Strength(priority: 5, weight: 3)))
        #expect(solver.value(of: y) == 2)
    }

    @Test func aConflictingRequiredConstraintIsRefusedAndNamesWhatItConflictsWith() throws {
        var solver = Solver()
        let first = try solver.add(Constraint(v(x) + v(y), .equal, c(10)))
        let unrelated = try solver.add(Constraint(v(z), .greaterOrEqual, c(3)))
        let second = try solver.add(Constraint(v(x) - v(y), .equal, c(2)))
        let before = solver.values
        let conflicting = Constraint(v(x), .lessOrEqual, c(5))
        #expect(throws: SolverError.unsatisfiable) { try solver.add(conflicting) }
        #expect(solver.values == before)
        #expect(solver.conflicts(with: conflicting) == [first, second])
        _ = unrelated
        // A constraint that can hold has no conflicts.
        #expect(solver.conflicts(with: Constraint(v(x), .lessOrEqual, c(6))) == nil)
        // One that cannot hold on its own conflicts with nothing else.
        #expect(solver.conflicts(with: Constraint(c(0), .equal, c(1))) == [])
        #expect(throws: SolverError.unsatisfiable) { try solver.add(Constraint(c(0), .equal, c(1))) }
    }

    @Test func inequalitiesHoldAndConflict() throws {
        var solver = Solver()
        let low = try solver.add(Constraint(v(x), .greaterOrEqual, c(10)))
        try solver.add(Constraint(v(x), .equal, c(0), strength: Strength(priority: 1)))
        #expect(solver.value(of: x) == 10)
        #expect(throws: SolverError.unsatisfiable) { try solver.add(Constraint(v(x), .lessOrEqual, c(5))) }
        #expect(solver.conflicts(with: Constraint(v(x), .lessOrEqual, c(5))) == [low])
        try solver.remove(low)
        #expect(solver.value(of: x) == 0)
        #expect(throws: SolverError.unknownConstraint(low)) { try solver.remove(low) }
    }

    @Test func removingARequiredConstraintLetsAWeakerOneHold() throws {
        var solver = Solver()
        let required = try solver.add(Constraint(v(x), .equal, c(10)))
        try solver.add(Constraint(v(x), .equal, c(20), strength: Strength(priority: 1)))
        #expect(solver.value(of: x) == 10)
        try solver.remove(required)
        #expect(solver.value(of: x) == 20)
        #expect(solver.constraintCount == 1)
    }

    @Test func anEditFollowsItsSuggestionsWithinTheRequiredConstraints() throws {
        var solver = Solver()
        try solver.add(Constraint(v(x), .lessOrEqual, c(100)))
        try solver.add(Constraint(v(y), .equal, v(x) * 2))
        try solver.addEditVariable(x, strength: Strength(priority: 750))
        try solver.suggest(x, 150)
        #expect(solver.value(of: x) == 100)
        #expect(solver.value(of: y) == 200)
        try solver.suggest(x, 50)
        #expect(solver.value(of: x) == 50)
        #expect(solver.value(of: y) == 100)
        #expect(throws: SolverError.duplicateEditVariable(x)) {
            try solver.addEditVariable(x, strength: Strength(priority: 1))
        }
        #expect(throws: SolverError.requiredEditVariable(z)) { try solver.addEditVariable(z, strength: .required) }
        #expect(throws: SolverError.unknownEditVariable(z)) { try solver.suggest(z, 1) }
        try solver.removeEditVariable(x)
        #expect(!solver.hasEditVariable(x))
    }

    @Test func aCopyIsASnapshot() throws {
        var solver = Solver()
        try solver.add(Constraint(v(x), .equal, c(1), strength: Strength(priority: 1)))
        let snapshot = solver
        try solver.add(Constraint(v(x), .equal, c(2)))
        #expect(snapshot.value(of: x) == 1)
        #expect(solver.value(of: x) == 2)
    }
}
