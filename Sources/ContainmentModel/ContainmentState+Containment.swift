extension ContainmentState {
    // MARK: SPEC §2

    mutating func addChild(_ childID: ControllerID, to parentID: ControllerID, by party: Party) throws(ContainmentError)
    {
        _ = try controller(parentID)
        let child = try controller(childID)
        guard party == .controller(parentID) else {
            throw ContainmentError(
                .unauthorized,
                deferred: "\(party) may not add children to \(parentID); only \(parentID) may."
            )
        }
        guard childID != parentID else {
            throw ContainmentError(.selfChild, deferred: "\(parentID) cannot be added as a child of itself.")
        }
        guard !isAncestor(childID, of: parentID) else {
            throw ContainmentError(
                .cycle,
                deferred: "\(childID) is an ancestor of \(parentID); adding it as a child makes a cycle."
            )
        }
        guard !isBelow(parentID, presentationsOf: childID) else {
            throw ContainmentError(
                .cycle,
                deferred:
                    "\(parentID) is presented over \(childID)'s subtree; adding \(childID) under it makes a presentation loop."
            )
        }
        if let presenter = child.presenting {
            throw ContainmentError(
                .presentedHasParent,
                deferred: "\(childID) is presented by \(presenter) and cannot be added as a child of \(parentID)."
            )
        }
        if let window = window(rootedAt: childID) {
            throw ContainmentError(
                .hierarchyInconsistency,
                deferred: "\(childID) is the root of window \(window.id) and cannot be added as a child of \(parentID)."
            )
        }
        let oldParent = child.parent
        if oldParent != parentID, isMoreController(childID), parentID != childID.moreTab,
            parentID != childID.moreTab.map({ ControllerID.more(of: $0) })
        {
            try checkNotMoreController(childID, verb: "add it to \(parentID)")
        }
        if oldParent != parentID, !kindProtocols.isEmpty, let parent = controllers[parentID] {
            try checkChildProtocol(child, of: parent)
        }
        // The local copy ends here, so the state holds the only reference and changes the controller in place.
        _ = consume child
        if oldParent == parentID { return }
        try checkNotTransitioning(childID, action: "moved to \(parentID)")
        if let oldParent {
            detachFromParent(childID, oldParent)
            leftContainer(childID, oldParent)
        }
        updateController(childID, .parent, .move) {
            $0.parent = parentID
            $0.move = .willMove(to: parentID)
        }
        appendChild(childID, to: parentID)
        emit(.willMoveToParent(childID, parent: parentID))
        emit(.childAdded(childID, parent: parentID))
    }

    mutating func willMove(
        _ childID: ControllerID,
        toParent target: ControllerID?,
        by party: Party
    ) throws(ContainmentError) {
        let child = try controller(childID)
        if let target { _ = try controller(target) }
        guard let parent = child.parent, party == .controller(parent), target == nil || target == parent else {
            let asked = target.map { "\($0)" } ?? "nil"
            throw ContainmentError(
                .notAChild,
                deferred: "\(childID) is not a child of \(party.controller.map { "\($0)" } ?? "\(party)")"
                    + (target == nil ? "" : " (willMove(toParent: \(asked)))") + "."
            )
        }
        guard child.move != .willMove(to: target) else {
            throw ContainmentError(
                .outOfOrder,
                deferred: "\(childID) already received willMove(toParent: \(target.map { "\($0)" } ?? "nil"))."
            )
        }
        _ = consume child
        updateController(childID, .move) { $0.move = .willMove(to: target) }
        emit(.willMoveToParent(childID, parent: target))
    }

    mutating func didMove(
        _ childID: ControllerID,
        toParent parentID: ControllerID,
        by party: Party
    ) throws(ContainmentError) {
        let child = try controller(childID)
        _ = try controller(parentID)
        guard party == .controller(parentID) else {
            throw ContainmentError(
                .unauthorized,
                deferred: "\(party) may not call didMove(toParent: \(parentID)) on \(childID); only \(parentID) may."
            )
        }
        guard child.parent == parentID else {
            throw ContainmentError(.notAChild, deferred: "\(childID) is not a child of \(parentID).")
        }
        guard child.move == .willMove(to: parentID) else {
            throw ContainmentError(
                .outOfOrder,
                deferred:
                    "\(childID) has not received willMove(toParent: \(parentID)) since it was added; didMove is out of order."
            )
        }
        _ = consume child
        updateController(childID, .move) { $0.move = .settled }
        emit(.didMoveToParent(childID, parent: parentID))
    }

    mutating func removeFromParent(_ childID: ControllerID, by party: Party) throws(ContainmentError) {
        let child = try controller(childID)
        guard let parent = child.parent else { return }
        try checkNotMoreController(childID, verb: "remove it from \(parent)")
        guard party == .controller(parent) || party == .controller(childID) else {
            throw ContainmentError(
                .unauthorized,
                deferred: "\(party) may not remove \(childID) from \(parent); only \(parent) or \(childID) may."
            )
        }
        _ = consume child
        try checkNotTransitioning(childID, action: "removed from \(parent)")
        detachFromParent(childID, parent)
        leftContainer(childID, parent)
    }

    /// A child that left a tab or menu container by itself (`removeFromParent`, or added elsewhere), not through the
    /// container's own verbs: the selected one leaves the container with no selection (`selectionChanged` to none;
    /// `select` picks again), and a shown menu drops its item.
    private mutating func leftContainer(_ childID: ControllerID, _ parentID: ControllerID) {
        // A bar shows the stack or the children as they are now (SPEC §15), after the selection.
        defer { syncBarControls(parentID) }
        guard let kind = controllers[parentID]?.kind, kind == .tab || kind == .menu else { return }
        if controllers[parentID]?.selected == childID {
            updateController(parentID, .selected) { $0.selected = nil }
            emitSwitch(
                .selectionChanged(parentID, selected: nil, index: nil, requestedBy: .controller(parentID)),
                animated: false
            )
        }
        // Only items go (the menu has a child fewer): removing its own views from its own menu view cannot fail.
        if kind == .menu { try? syncMenuItems(parentID) }
    }

    /// `removeFromParent` itself: the root view detached (with disappearance callbacks when on screen), then
    /// `childRemoved` and `didMove(toParent: nil)`.
    mutating func detachFromParent(_ childID: ControllerID, _ parentID: ControllerID) {
        detachWithAppearance(.root(childID), leaving: childID)
        removeChild(childID, from: parentID)
        updateController(childID, .parent, .move) {
            $0.parent = nil
            $0.move = .settled
        }
        emit(.childRemoved(childID, parent: parentID))
        emit(.didMoveToParent(childID, parent: nil))
    }

    /// Rejects a command that would move `id` while a transition runs with it; `action` is written only then.
    func checkNotTransitioning(
        _ id: ControllerID,
        action: @autoclosure () -> String
    ) throws(ContainmentError) {
        if let running = transitions.first(where: { $0.from == id || $0.to == id }) {
            let action = action()
            throw ContainmentError(
                .transitionInProgress,
                deferred: "\(id) is in a running transition from \(running.from) to \(running.to) in \(running.parent)"
                    + " and cannot be \(action)."
            )
        }
    }
}

extension ContainmentState {
    /// True when `id` stands, through parents and presentations, on `candidate`: walking up from `id` — to the
    /// parent, or from a presented controller to its context — reaches `candidate`.
    func isBelow(_ id: ControllerID, presentationsOf candidate: ControllerID) -> Bool {
        var current: ControllerID? = id
        var steps = 0
        while let step = current, steps <= controllers.count {
            if step == candidate { return true }
            let record = controllers[step]
            current = record?.parent ?? record?.presenting
            steps += 1
        }
        return false
    }
}
