import Cassowary

/// Layout by constraints (SPEC §16): who may constrain which view, and the constraints' commands.
extension ContainmentState {
    mutating func constrain(
        _ owner: ControllerID,
        id: String,
        _ constraint: LayoutConstraint,
        by party: Party,
        applying: Bool = true
    ) throws(ContainmentError) {
        _ = try controller(owner)
        try checkConstraintID(id, of: owner)
        if let problem = constraint.problem {
            throw ContainmentError(.malformed, deferred: "Constraint \(id) of \(owner) cannot hold: \(problem).")
        }
        try checkConstraintAuthority(owner, constraint.views, by: party)
        guard layouts[owner]?.handles[id] == nil else {
            throw ContainmentError(.duplicateID, deferred: "\(owner) already has a constraint \(id).")
        }
        for view in constraint.views { _ = try resolveView(view, creating: .controller(owner)) }
        // A standard container's own constraints join its code's first (SPEC §16), as a restored layout has them.
        if applying { pinContainerViews(owner) }
        try install(constraint, id: id, of: owner, applying: applying)
    }

    /// Adds a constraint the checks allowed (or a container's own, SPEC §16's standard containers) to its owner's
    /// layout, and solves (unless restoring, where the frames are the solution already): `constraintAdded` for a
    /// constraint of the owner's code, none for a container's own.
    mutating func install(
        _ constraint: LayoutConstraint,
        id: String,
        of owner: ControllerID,
        applying: Bool = true
    ) throws(ContainmentError) {
        let reference = try referenceView(of: constraint.views, in: owner)
        var layout = layouts[owner] ?? Layout()
        do {
            try anchorStays(in: &layout)
        } catch {
            throw .solver(error, owner)
        }
        var used: [ViewID] = []
        let lhs = try expression(constraint.first, in: reference, owner, &layout, &used)
        var rhs = Expression(constant: constraint.constant)
        if let second = constraint.second {
            rhs = try expression(second, in: reference, owner, &layout, &used) * constraint.multiplier + rhs
        }
        let solved = Cassowary.Constraint(
            lhs,
            Self.relation(constraint.relation),
            rhs,
            strength: constraint.isRequired ? .required : Strength(priority: constraint.priority)
        )
        let handle: ConstraintHandle
        do {
            handle = try layout.solver.add(solved)
        } catch {
            let conflicts = layout.solver.conflicts(with: solved, order: layout.canonicalHandles) ?? []
            let names = conflicts.map { layout.describe($0) }
            throw ContainmentError(
                .unsatisfiableConstraints,
                deferred: "Constraint \(id) '\(constraint)' of \(owner) cannot hold with "
                    + (names.isEmpty ? "any layout" : names.joined(separator: ", "))
                    + ": required constraints that conflict."
            )
        }
        let entry = Layout.Entry(id: id, constraint: constraint)
        layout.entries.append(entry)
        layout.handles[id] = handle
        var unique: [ViewID] = []
        for view in used where !unique.contains(view) { unique.append(view) }
        layout.uses[id] = unique
        for view in unique { layout.frames[view]?.users += 1 }
        setLayout(layout, owner)
        if !entry.isContainers { emit(.constraintAdded(owner, id: id, expression: constraint.description)) }
        if applying { applyLayout(owner) }
    }

    mutating func unconstrain(_ owner: ControllerID, id: String, by party: Party) throws(ContainmentError) {
        _ = try controller(owner)
        guard !Layout.Entry.isContainers(id) else {
            throw ContainmentError(
                .frameAuthority,
                deferred:
                    "Constraint \(id) is \(owner)'s own (SPEC §16: a container's bar and content): no code removes it."
            )
        }
        guard let constraint = layouts[owner]?.constraint(id) else {
            throw ContainmentError(.malformed, deferred: "\(owner) has no constraint \(id).")
        }
        try checkConstraintAuthority(owner, constraint.views, by: party)
        removeConstraint(id, of: owner)
        applyLayout(owner)
    }

    private func checkConstraintID(_ id: String, of owner: ControllerID) throws(ContainmentError) {
        guard !id.isEmpty, id.utf8.count <= 128, !id.contains(where: \.isWhitespace), !Layout.Entry.isContainers(id)
        else {
            throw ContainmentError(
                .malformed,
                deferred:
                    "A constraint of \(owner) needs an id of 1–128 bytes without spaces, not starting with '@' (a "
                    + "container's own)."
            )
        }
    }

    /// SPEC §16's authority: only the owner adds or removes its constraints; they name its own views and its
    /// children's root views (a view inside another controller's tree is `foreignView`); a controller's root view is
    /// constrained only by its parent (`frameAuthority`) — the owner's own root view is its constraints' frame of
    /// reference, which its parent places, so a constraint naming nothing else is `frameAuthority` too.
    private func checkConstraintAuthority(
        _ owner: ControllerID,
        _ named: [ViewID],
        by party: Party
    ) throws(ContainmentError) {
        for view in named where view.owner != owner {
            let other = try controller(view.owner)
            guard view.isRoot else {
                throw ContainmentError(
                    .foreignView,
                    deferred: "\(view) is in \(view.owner)'s views: constraints of \(owner) may name only its own "
                        + "views and its children's root views."
                )
            }
            guard other.parent == owner else {
                let placer = other.parent.map { "its parent \($0)" } ?? "its window or the system"
                throw ContainmentError(
                    .frameAuthority,
                    deferred: "Only \(placer) may constrain \(other.id)'s root view; \(owner) may not."
                )
            }
        }
        guard party == .controller(owner) else {
            let namesChild = named.contains { $0.isRoot && $0.owner != owner }
            throw ContainmentError(
                namesChild ? .frameAuthority : .foreignView,
                deferred: "\(party) may not change the constraints of \(owner): only \(owner) may"
                    + (namesChild ? ", the parent of the children whose root views they place." : ".")
            )
        }
        if named.allSatisfy({ $0 == .root(owner) }) {
            let placer = controllers[owner]?.parent.map { "its parent \($0)" } ?? "its window or the system"
            throw ContainmentError(
                .frameAuthority,
                deferred: "\(owner)'s root view is placed by \(placer): \(owner) may not constrain it, only relate "
                    + "its own views and its children's to it."
            )
        }
    }

    /// The view whose coordinates a constraint is solved in: its views' nearest common ancestor (for one view, its
    /// superview). Every view must be in the owner's view tree.
    private func referenceView(of named: [ViewID], in owner: ControllerID) throws(ContainmentError) -> ViewID {
        let chains = try named.map { (view) throws(ContainmentError) in try chain(of: view, in: owner) }
        guard chains.count == 2 else { return chains[0].count > 1 ? chains[0][1] : chains[0][0] }
        // Safe: both chains end at the owner's root view, so they share at least it.
        return chains[0].first { chains[1].contains($0) }!
    }

    /// The view and its superviews up to the owner's root view.
    func chain(of view: ViewID, in owner: ControllerID) throws(ContainmentError) -> [ViewID] {
        var chain = [view]
        var current = view
        while current != .root(owner) {
            guard let superview = views[current]?.superview else {
                throw ContainmentError(
                    .hierarchyInconsistency,
                    deferred: "\(view) is not in \(owner)'s view tree: add it there before constraining it."
                )
            }
            chain.append(superview)
            current = superview
        }
        return chain
    }

    private static func relation(_ relation: LayoutRelation) -> Relation {
        switch relation {
        case .equal: .equal
        case .lessOrEqual: .lessOrEqual
        case .greaterOrEqual: .greaterOrEqual
        }
    }
}
