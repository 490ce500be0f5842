import ContainmentModel

/// SPEC §16 judged from events alone: no root view constrained by anyone but its parent, and no constraint outliving
/// the view it names in its owner's tree.
extension InvariantChecker {
    mutating func followConstraint(_ event: Event) -> [String] {
        switch event {
        case .constraintAdded(let owner, let id, let expression):
            guard let constraint = try? LayoutConstraint(parsing: expression) else {
                return ["\(event): its expression does not read"]
            }
            var problems: [String] = []
            if constraints[owner]?[id] != nil { problems.append("\(event): \(owner) already had a constraint \(id)") }
            for view in constraint.views where view.isRoot && view.owner != owner && parent[view.owner] != owner {
                problems.append("\(event): it constrains \(view.owner)'s root view, whose parent is not \(owner)")
            }
            for view in constraint.views where !view.isRoot && view.owner != owner {
                problems.append("\(event): it names \(view), inside \(view.owner)'s views")
            }
            if constraint.views.allSatisfy({ $0 == .root(owner) }) {
                problems.append("\(event): it constrains \(owner)'s own root view, which its parent places")
            }
            constraints[owner, default: [:]][id] = constraint.views
            return problems
        case .constraintRemoved(let owner, let id):
            guard constraints[owner]?.removeValue(forKey: id) != nil else {
                return ["\(event): \(owner) had no constraint \(id)"]
            }
            return []
        default:
            return []
        }
    }

    /// A view leaving `superview`'s owner's tree: none of that owner's constraints may still name it.
    func constraintsOutlived(_ view: ViewID, leaving superview: ViewID, _ event: Event) -> [String] {
        let naming = (constraints[superview.owner] ?? [:]).filter { $0.value.contains(view) }.keys.sorted()
        return naming.isEmpty ? [] : ["\(event): constraints \(naming) of \(superview.owner) still name it"]
    }
}
