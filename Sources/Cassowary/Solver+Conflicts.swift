/// Which constraints a refused one conflicts with.
extension Solver {
    /// The required constraints that `constraint` cannot hold with: a set of the solver's required constraints that,
    /// with it, have no solution, and from which none can be left out (an irreducible infeasible subset, found by a
    /// deletion filter over those linked to it through shared variables, oldest first). Empty when `constraint` cannot
    /// hold on its own (`0 == 1`); nil when it can hold with them all.
    ///
    /// `order` gives the order the candidates are tried in (and so which set is found when several are), instead of the
    /// order they were added; a constraint it leaves out comes after it, in that order. Each trial solves a fresh
    /// system, so this costs up to one solve per linked constraint: for the error path only.
    public func conflicts(with constraint: Constraint, order: [ConstraintHandle]? = nil) -> [ConstraintHandle]? {
        var linked: [ConstraintHandle] = []
        var variables = Set(constraint.variables)
        var rest = records.filter { $0.value.constraint.strength.isRequired }.keys.sorted()
        var grew = true
        while grew {
            grew = false
            rest.removeAll { handle in
                // Safe: `rest` holds handles of `records` only.
                let named = records[handle]!.constraint.variables
                guard named.contains(where: variables.contains) else { return false }
                linked.append(handle)
                variables.formUnion(named)
                grew = true
                return true
            }
        }
        linked.sort()
        if let order {
            let rank = Dictionary(order.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
            linked.sort { (rank[$0] ?? order.count + $0.rawValue) < (rank[$1] ?? order.count + $1.rawValue) }
        }
        func holds(_ handles: [ConstraintHandle]) -> Bool {
            var trial = Solver()
            do {
                // Safe: every handle given is one of `records`.
                for handle in handles { try trial.add(records[handle]!.constraint) }
                try trial.add(constraint)
                return true
            } catch {
                return false
            }
        }
        guard !holds(linked) else { return nil }
        var kept = linked
        for handle in linked {
            let without = kept.filter { $0 != handle }
            if !holds(without) { kept = without }
        }
        return kept
    }
}
