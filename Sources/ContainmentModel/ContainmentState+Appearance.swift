/// Which controllers start appearing or disappearing because views moved, in callback order.
struct VisibilityChange {
    var disappearing: [ControllerID] = []
    var appearing: [ControllerID] = []
}

/// The controllers being presented or dismissed by a command: their callbacks carry `beingPresented` or
/// `beingDismissed`.
struct PresentationMove {
    var controllers: Set<ControllerID>
    var presenting: Bool
}

/// The on-screen state of the controllers under some views before a view operation, and where its events start.
struct VisibilityScope {
    /// Each controller under the views, with whether it was on screen; one may be listed twice, with the same answer.
    let before: [(id: ControllerID, onScreen: Bool)]
    let eventMark: Int
}

extension ContainmentState {
    // MARK: Explicit calls (manual forwarding, seed 000 listing 14-5)

    mutating func beginAppearanceCommand(
        _ id: ControllerID,
        appearing: Bool,
        animated: Bool,
        by party: Party
    ) throws(ContainmentError) {
        let record = try controller(id)
        try checkAppearanceAuthority(record, by: party)
        guard record.appearance.begin(appearing: appearing) != nil else {
            throw ContainmentError(
                .unbalancedAppearance,
                deferred:
                    "beginAppearanceTransition(\(appearing)) on \(id) while it is \(record.appearance) is unbalanced."
            )
        }
        beginAppearance(appearanceTargets(of: id), appearing: appearing, animated: animated)
    }

    mutating func endAppearanceCommand(_ id: ControllerID, by party: Party) throws(ContainmentError) {
        let record = try controller(id)
        try checkAppearanceAuthority(record, by: party)
        guard record.appearance.end != nil else {
            throw ContainmentError(
                .unbalancedAppearance,
                deferred: "endAppearanceTransition on \(id) while it is \(record.appearance) is unbalanced."
            )
        }
        endAppearance(appearanceTargets(of: id), appearing: nil)
    }

    /// A controller's appearance is driven by its parent; a controller without one, by the system.
    private func checkAppearanceAuthority(_ record: Controller, by party: Party) throws(ContainmentError) {
        let allowed: Bool =
            if let parent = record.parent { party == .controller(parent) } else { party == .system }
        guard allowed else {
            let driver = record.parent.map { "its parent \($0)" } ?? "the system"
            throw ContainmentError(
                .unauthorized,
                deferred: "\(party) may not drive the appearance of \(record.id); only \(driver) may."
            )
        }
    }

    // MARK: Forwarding

    /// `id`, then — when it forwards appearance automatically — every child whose root view is inside its view
    /// tree, recursively: parent first, children in `children` order, depth first (SPEC §4).
    func appearanceTargets(of id: ControllerID) -> [ControllerID] {
        var targets: [ControllerID] = []
        func visit(_ current: ControllerID) {
            targets.append(current)
            guard let record = controllers[current], record.properties.automaticallyForwardsAppearance else { return }
            for child in record.children where isView(.root(child), inTreeOf: current) { visit(child) }
        }
        visit(id)
        return targets
    }

    /// The flags of a callback to `id`: the move flags are set only for a controller in the middle of a move.
    func appearanceFlags(
        _ id: ControllerID,
        animated: Bool,
        leaving: ControllerID?,
        presentation: PresentationMove? = nil
    ) -> AppearanceFlags {
        var flags = AppearanceFlags(animated: animated)
        if let presentation, presentation.controllers.contains(id) {
            if presentation.presenting { flags.beingPresented = true } else { flags.beingDismissed = true }
        }
        guard let record = controllers[id] else { return flags }
        if let parent = record.parent, record.move == .willMove(to: parent) { flags.movingToParent = true }
        if record.move == .willMove(to: nil) || leaving == id { flags.movingFromParent = true }
        return flags
    }

    /// Begins the transition for each controller in `ids` that the state machine allows; skips the others.
    mutating func beginAppearance(
        _ ids: [ControllerID],
        appearing: Bool,
        animated: Bool,
        leaving: ControllerID? = nil,
        presentation: PresentationMove? = nil
    ) {
        for id in ids {
            guard let next = controllers[id]?.appearance.begin(appearing: appearing) else { continue }
            let flags = appearanceFlags(id, animated: animated, leaving: leaving, presentation: presentation)
            updateController(id, .appearance) { $0.appearance = next }
            emit(appearing ? .viewWillAppear(id, flags) : .viewWillDisappear(id, flags))
        }
    }

    /// Ends the transition of each controller in `ids` that is in one (`appearing`: only in that direction).
    mutating func endAppearance(
        _ ids: [ControllerID],
        appearing: Bool?,
        animated: Bool = false,
        leaving: ControllerID? = nil,
        presentation: PresentationMove? = nil
    ) {
        for id in ids {
            guard let state = controllers[id]?.appearance, let next = state.end else { continue }
            if let appearing, appearing != (state == .appearing) { continue }
            let flags = appearanceFlags(id, animated: animated, leaving: leaving, presentation: presentation)
            updateController(id, .appearance) { $0.appearance = next }
            emit(next == .appeared ? .viewDidAppear(id, flags) : .viewDidDisappear(id, flags))
        }
    }

    // MARK: Appearance caused by view operations

    /// Records which controllers under `views` are on screen, before a view operation.
    func visibilityScope(under views: [ViewID]) -> VisibilityScope {
        var before: [(id: ControllerID, onScreen: Bool)] = []
        for view in views {
            for id in controllersWithRootViews(under: view) { before.append((id, isOnScreen(id))) }
        }
        return VisibilityScope(before: before, eventMark: journal.events.count)
    }

    /// After a view operation: the controllers whose on-screen state changed and whose appearance is driven
    /// automatically — without a parent (the system drives it), or with an auto-forwarding parent that did not
    /// change, or that changed and is itself driven. A manual parent must call begin/end itself.
    func visibilityChange(since scope: VisibilityScope) -> VisibilityChange {
        var changed: [ControllerID: Bool] = [:]
        for (id, wasOnScreen) in scope.before where isOnScreen(id) != wasOnScreen { changed[id] = !wasOnScreen }
        guard !changed.isEmpty else { return VisibilityChange() }
        var driven: [ControllerID: Bool] = [:]
        var appearing: Set<ControllerID> = []
        var disappearing: Set<ControllerID> = []
        for (id, appears) in changed where isDriven(id, changed: changed, known: &driven) {
            if appears { appearing.insert(id) } else { disappearing.insert(id) }
        }
        return VisibilityChange(disappearing: treeOrder(disappearing), appearing: treeOrder(appearing))
    }

    /// Whether the appearance of `id`, whose on-screen state changed (`changed`), is driven automatically: it has no
    /// parent, or an auto-forwarding parent that did not change or is itself driven. `known`: the answers so far.
    private func isDriven(
        _ id: ControllerID,
        changed: [ControllerID: Bool],
        known: inout [ControllerID: Bool]
    ) -> Bool {
        if let answer = known[id] { return answer }
        var result = false
        if changed[id] != nil, let record = controllers[id] {
            if let parent = record.parent, let parentRecord = controllers[parent] {
                result =
                    parentRecord.properties.automaticallyForwardsAppearance
                    && (changed[parent] == nil || isDriven(parent, changed: changed, known: &known))
            } else {
                result = true
            }
        }
        known[id] = result
        return result
    }

    /// Finishes a view operation: moves its structural events between the begin and end callbacks it causes, in swap
    /// order — outgoing will, incoming will, the structural events, outgoing did, incoming did.
    /// With `endsNow` false only the begin callbacks fire (a transition ends them when it completes).
    @discardableResult
    mutating func finishVisibility(
        _ scope: VisibilityScope,
        animated: Bool = false,
        leaving: ControllerID? = nil,
        endsNow: Bool = true
    ) -> VisibilityChange {
        let change = visibilityChange(since: scope)
        guard !change.disappearing.isEmpty || !change.appearing.isEmpty else { return change }
        let structural = Array(journal.events[scope.eventMark...])
        journal.events.removeSubrange(scope.eventMark...)
        beginAppearance(change.disappearing, appearing: false, animated: animated, leaving: leaving)
        beginAppearance(change.appearing, appearing: true, animated: animated, leaving: leaving)
        journal.events.append(contentsOf: structural)
        guard endsNow else { return change }
        endAppearance(change.disappearing, appearing: false, animated: animated, leaving: leaving)
        endAppearance(change.appearing, appearing: true, animated: animated, leaving: leaving)
        return change
    }
}
