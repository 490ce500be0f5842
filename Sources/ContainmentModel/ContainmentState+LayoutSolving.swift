import Cassowary

/// Layout by constraints (SPEC §16): the views' variables, solving, and the frames that follow.
extension ContainmentState {
    /// An anchor as an expression in `reference`'s coordinates: a view's origin is the sum of its own and its
    /// superviews' origins up to the reference; the reference's own origin is 0 (its bounds). `used` gets every view
    /// whose variables it reads.
    func expression(
        _ anchor: LayoutAnchor,
        in reference: ViewID,
        _ owner: ControllerID,
        _ layout: inout Layout,
        _ used: inout [ViewID]
    ) throws(ContainmentError) -> Expression {
        let view = anchor.view
        let size = try frameVariables(view, owner, &layout)
        used.append(view)
        var left = Expression()
        var top = Expression()
        if view != reference {
            for step in try chain(of: view, in: owner).prefix(while: { $0 != reference }) {
                let frame = try frameVariables(step, owner, &layout)
                used.append(step)
                left = left + Expression(frame.x)
                top = top + Expression(frame.y)
            }
        }
        let width = Expression(size.width)
        let height = Expression(size.height)
        switch anchor.attribute.resolved {
        case .left, .leading: return left
        case .right, .trailing: return left + width
        case .centerX: return left + width * 0.5
        case .width: return width
        case .top: return top
        case .bottom: return top + height
        case .centerY: return top + height * 0.5
        case .height: return height
        }
    }

    /// The view's variables, made the first time a constraint uses it: each with a stay at its frame, its size kept
    /// non-negative; the owner's root view's size pinned to its frame instead.
    private func frameVariables(
        _ view: ViewID,
        _ owner: ControllerID,
        _ layout: inout Layout
    ) throws(ContainmentError) -> Layout.Frame {
        if let frame = layout.frames[view] { return frame }
        let current = views[view]?.frame ?? .zero
        var frame = Layout.Frame(
            x: layout.makeVariable(),
            y: layout.makeVariable(),
            width: layout.makeVariable(),
            height: layout.makeVariable(),
            users: 0,
            bounds: [],
            pinned: nil,
            anchored: current
        )
        // The variables are new, stays are below required, and a new variable's bound or pin has a solution (the
        // variable takes it): the solver refuses none of this unless it lost track of its own state.
        do {
            if view == .root(owner) {
                frame.bounds = [
                    try layout.solver.add(
                        Constraint(Expression(frame.width), .equal, Expression(constant: current.width))
                    ),
                    try layout.solver.add(
                        Constraint(Expression(frame.height), .equal, Expression(constant: current.height))
                    ),
                ]
                frame.pinned = current.size
            } else {
                for (index, (variable, value)) in [
                    (frame.x, current.x), (frame.y, current.y), (frame.width, current.width),
                    (frame.height, current.height),
                ].enumerated() {
                    try layout.solver.addEditVariable(
                        variable,
                        strength: Strength(priority: Layout.stayPriority, weight: Layout.stayWeight(view, index))
                    )
                    try layout.solver.suggest(variable, value)
                }
                frame.bounds = [
                    try layout.solver.add(Constraint(Expression(frame.width), .greaterOrEqual, Expression())),
                    try layout.solver.add(Constraint(Expression(frame.height), .greaterOrEqual, Expression())),
                ]
            }
        } catch {
            throw .solver(error, owner)
        }
        layout.frames[view] = frame
        return frame
    }

    /// Takes a constraint out (`constraintRemoved`), and the variables of the views no other constraint uses.
    mutating func removeConstraint(_ id: String, of owner: ControllerID) {
        guard var layout = layouts[owner], let handle = layout.handles.removeValue(forKey: id) else { return }
        // The handle, the stays and the bounds are the layout's own, held until now: the solver refuses none of them
        // unless it lost track of its own state, and then the command is refused.
        do {
            try anchorStays(in: &layout)
            try layout.solver.remove(handle)
            layout.entries.removeAll { $0.id == id }
            for view in layout.uses.removeValue(forKey: id) ?? [] {
                guard var frame = layout.frames[view] else { continue }
                frame.users -= 1
                guard frame.users == 0 else {
                    layout.frames[view] = frame
                    continue
                }
                for bound in frame.bounds { try layout.solver.remove(bound) }
                if frame.pinned == nil {
                    for variable in [frame.x, frame.y, frame.width, frame.height] {
                        try layout.solver.removeEditVariable(variable)
                    }
                }
                layout.frames[view] = nil
            }
        } catch {
            journal.layoutFailure = .solver(error, owner)
            return
        }
        setLayout(layout.isEmpty ? nil : layout, owner)
        if !Layout.Entry.isContainers(id) { emit(.constraintRemoved(owner, id: id)) }
    }

    /// The constraints that use `view` leave with it (SPEC §16: a child's root view removed from its parent's tree),
    /// and the rest of that tree is solved again.
    mutating func removeConstraints(using view: ViewID) {
        guard let owner = views[view]?.superview?.owner, let layout = layouts[owner] else { return }
        let ids = layout.constraints(using: view)
        guard !ids.isEmpty else { return }
        for id in ids { removeConstraint(id, of: owner) }
        applyLayout(owner)
    }

    /// Every constraint of a controller whose views are released goes with them.
    mutating func dropLayout(of owner: ControllerID) {
        guard let layout = layouts[owner] else { return }
        setLayout(nil, owner)
        for entry in layout.entries where !entry.isContainers { emit(.constraintRemoved(owner, id: entry.id)) }
    }

    /// The owner lays out (SPEC §16: after `viewWillLayoutSubviews`): its root view's size pinned to its frame as it
    /// is now, then solved. A size its required constraints cannot hold with refuses the command.
    mutating func layoutByConstraints(_ owner: ControllerID) {
        guard var layout = layouts[owner] else { return }
        do {
            if try anchorStays(in: &layout) { setLayout(layout, owner) }
        } catch {
            journal.layoutFailure = .solver(error, owner)
            return
        }
        if let root = layout.frames[.root(owner)], let size = views[.root(owner)]?.frame.size, root.pinned != size {
            do {
                for bound in root.bounds { try layout.solver.remove(bound) }
            } catch {
                journal.layoutFailure = .solver(error, owner)
                return
            }
            var pins: [ConstraintHandle] = []
            for (variable, value) in [(root.width, size.width), (root.height, size.height)] {
                let pin = Constraint(Expression(variable), .equal, Expression(constant: value))
                do {
                    pins.append(try layout.solver.add(pin))
                } catch {
                    let names = (layout.solver.conflicts(with: pin, order: layout.canonicalHandles) ?? [])
                        .map { layout.describe($0) }
                    journal.layoutFailure = ContainmentError(
                        .unsatisfiableConstraints,
                        "\(owner)'s root view cannot be \(size): its required constraints "
                            + names.joined(separator: ", ") + " cannot hold with that size."
                    )
                    return
                }
            }
            layout.frames[.root(owner)]?.bounds = pins
            layout.frames[.root(owner)]?.pinned = size
            setLayout(layout, owner)
        }
        applyLayout(owner)
    }

    /// A view got a frame: if the constraints of the tree it is in place it, and the frame is not theirs, that layout
    /// is solved again before the command ends (``settleLayouts()``): its stays take the frame, and the constraints
    /// may move it back.
    mutating func frameChangedOutsideLayout(_ view: ViewID) {
        guard let owner = views[view]?.superview?.owner, let frame = layouts[owner]?.frames[view], frame.pinned == nil,
            views[view]?.frame != frame.anchored, !journal.unsettled.contains(owner)
        else { return }
        journal.unsettled.append(owner)
    }

    /// Solves again the layouts ``frameChangedOutsideLayout(_:)`` found unsettled, in the order found (a solve may
    /// unsettle another: a child's root view resized lays the child out).
    mutating func settleLayouts() {
        var index = 0
        while index < journal.unsettled.count {
            let owner = journal.unsettled[index]
            index += 1
            keepBarHeight(owner)
            guard var layout = layouts[owner] else { continue }
            do {
                if try anchorStays(in: &layout) { setLayout(layout, owner) }
            } catch {
                journal.layoutFailure = .solver(error, owner)
                break
            }
            applyLayout(owner)
            // A standard container's bar given a frame its constraints keep (a taller navigation bar stays at the top)
            // moved nothing by them, yet its content and controls follow it.
            containerViewsMoved(owner)
        }
        journal.unsettled = []
    }

    /// Gives the stays of every view whose frame changed since the layout last looked (set by a command, or by a
    /// container's own code) that frame: a value the constraints leave free keeps the frame it has now. Before every
    /// solve; returns whether any changed.
    @discardableResult
    func anchorStays(in layout: inout Layout) throws(SolverError) -> Bool {
        var changed = false
        for view in layout.order {
            guard var frame = layout.frames[view], frame.pinned == nil, let current = views[view]?.frame,
                current != frame.anchored
            else { continue }
            let old = frame.anchored
            for (variable, was, now) in [
                (frame.x, old.x, current.x), (frame.y, old.y, current.y), (frame.width, old.width, current.width),
                (frame.height, old.height, current.height),
            ] where was != now {
                try layout.solver.suggest(variable, now)
            }
            frame.anchored = current
            layout.frames[view] = frame
            changed = true
        }
        return changed
    }

    /// Gives each view the owner's constraints place the frame the solution says, in the order the views joined the
    /// layout: `frameChanged` by the owner for each that moves, and its stays follow.
    mutating func applyLayout(_ owner: ControllerID) {
        guard var layout = layouts[owner] else { return }
        var moved: [(ViewID, Rect)] = []
        for view in layout.order {
            guard let frame = layout.frames[view], frame.pinned == nil, let current = views[view]?.frame else {
                continue
            }
            let solved = Rect(
                x: Self.snap(layout.solver.value(of: frame.x)),
                y: Self.snap(layout.solver.value(of: frame.y)),
                width: Self.snap(layout.solver.value(of: frame.width)),
                height: Self.snap(layout.solver.value(of: frame.height))
            )
            guard solved != current else { continue }
            guard solved.isValid else {
                journal.layoutFailure = ContainmentError(
                    .unsatisfiableConstraints,
                    "The constraints of \(owner) put \(view) at \(solved), beyond ±1e9 points."
                )
                return
            }
            do {
                for (variable, value) in [
                    (frame.x, solved.x), (frame.y, solved.y), (frame.width, solved.width),
                    (frame.height, solved.height),
                ] {
                    try layout.solver.suggest(variable, value)
                }
            } catch {
                journal.layoutFailure = .solver(error, owner)
                return
            }
            layout.frames[view]?.anchored = solved
            moved.append((view, solved))
        }
        guard !moved.isEmpty else { return }
        setLayout(layout, owner)
        for (view, frame) in moved { changeFrame(view, to: frame, by: .controller(owner)) }
        if moved.contains(where: { $0.0.owner == owner && ($0.0.name == "bar" || $0.0.name == "transition") }) {
            containerViewsMoved(owner)
        }
    }

    /// A solution's value to a millionth of a point: rounding noise is no move.
    private static func snap(_ value: Double) -> Double {
        let snapped = (value * 1_000_000).rounded() / 1_000_000
        return snapped == 0 ? 0 : snapped
    }
}

extension Layout {
    /// A constraint of the solver as a refusal names it: a constraint's id and spelling, or a view's bound or pin.
    func describe(_ handle: ConstraintHandle) -> String {
        if let id = handles.first(where: { $0.value == handle })?.key, let constraint = constraint(id) {
            return "\(id) '\(constraint)'"
        }
        for (view, frame) in frames {
            guard let index = frame.bounds.firstIndex(of: handle) else { continue }
            let attribute = index == 0 ? "width" : "height"
            if let pinned = frame.pinned {
                return "\(view).\(attribute) == \((index == 0 ? pinned.width : pinned.height).compact) (its frame)"
            }
            return "\(view).\(attribute) >= 0"
        }
        return "\(handle)"
    }
}

extension ContainmentError {
    /// The solver refused what a layout held to be its own (a handle, a stay, a bound): a defect of this runtime, and
    /// the command that met it is refused rather than the process trapped.
    static func solver(_ error: SolverError, _ owner: ControllerID) -> ContainmentError {
        ContainmentError(.unsatisfiableConstraints, "The layout of \(owner) lost track of its solver (\(error)).")
    }
}
