import Cassowary
import Foundation

// Runs scripts of solver operations read from standard input, one per line, and prints one line per operation: what
// scripts/solver-oracle.py compares with kiwisolver's run of the same script.
//
//   system                                   a fresh solver               → system
//   add KEY REL PRIORITY WEIGHT CONSTANT [VARIABLE COEFFICIENT]...
//                                            Σ c·v + CONSTANT REL 0       → add KEY ok|unsatisfiable VALUES
//   remove KEY                                                            → remove KEY ok VALUES
//   edit VARIABLE PRIORITY WEIGHT                                         → edit VARIABLE ok VALUES
//   suggest VARIABLE VALUE                                                → suggest VARIABLE ok VALUES
//
// REL is <=, == or >=; PRIORITY 1000 is required. VALUES are the values of variables 0 ..< the highest one named so
// far, in order. A line it cannot read ends the run with status 2.

struct Script {
    var solver = Solver()
    var handles: [String: ConstraintHandle] = [:]
    var variableCount = 0

    func values() -> String {
        (0..<variableCount).map { " \(solver.value(of: Variable($0)))" }.joined()
    }

    mutating func variable(_ word: Substring) -> Variable? {
        guard let id = Int(word), id >= 0 else { return nil }
        variableCount = max(variableCount, id + 1)
        return Variable(id)
    }

    /// The line's output, or nil if it cannot be read.
    mutating func run(_ line: String) -> String? {
        let words = line.split(separator: " ")
        guard let verb = words.first else { return "" }
        switch verb {
        case "system":
            self = Script()
            return "system"
        case "add" where words.count >= 6 && words.count % 2 == 0:
            guard let relation = Relation(rawValue: String(words[2])), let priority = Int(words[3]),
                let weight = Double(words[4]), let constant = Double(words[5])
            else { return nil }
            var terms: [Term] = []
            for index in stride(from: 6, to: words.count, by: 2) {
                guard let named = variable(words[index]), let coefficient = Double(words[index + 1]) else { return nil }
                terms.append(Term(named, coefficient))
            }
            let constraint = Constraint(
                Expression(terms, constant: constant),
                relation,
                strength: Strength(priority: priority, weight: weight)
            )
            do {
                handles[String(words[1])] = try solver.add(constraint)
                return "add \(words[1]) ok\(values())"
            } catch {
                return "add \(words[1]) \(error == .unsatisfiable ? "unsatisfiable" : "\(error)")\(values())"
            }
        case "remove" where words.count == 2:
            guard let handle = handles.removeValue(forKey: String(words[1])) else { return nil }
            do {
                try solver.remove(handle)
                return "remove \(words[1]) ok\(values())"
            } catch {
                return "remove \(words[1]) \(error)"
            }
        case "edit" where words.count == 4:
            guard let edited = variable(words[1]), let priority = Int(words[2]), let weight = Double(words[3]) else {
                return nil
            }
            do {
                try solver.addEditVariable(edited, strength: Strength(priority: priority, weight: weight))
                return "edit \(words[1]) ok\(values())"
            } catch {
                return "edit \(words[1]) \(error)"
            }
        case "suggest" where words.count == 3:
            guard let edited = variable(words[1]), let value = Double(words[2]) else { return nil }
            do {
                try solver.suggest(edited, value)
                return "suggest \(words[1]) ok\(values())"
            } catch {
                return "suggest \(words[1]) \(error)"
            }
        default:
            return nil
        }
    }
}

var script = Script()
var output = ""
while let line = readLine() {
    guard let result = script.run(line) else {
        print(output, terminator: "")
        FileHandle.standardError.write(Data("cassowary-script: cannot read: \(line)\n".utf8))
        exit(2)
    }
    output += result + "\n"
    if output.utf8.count > 1 << 16 {
        print(output, terminator: "")
        output = ""
    }
}
print(output, terminator: "")
