extension ContainmentState {
    // MARK: SPEC §5

    mutating func transition(
        in parentID: ControllerID,
        from fromID: ControllerID,
        to toID: ControllerID,
        duration: Double,
        frame: Rect?,
        end: TransitionEnd = .plain,
        by party: Party
    ) throws(ContainmentError) {
        let parent = try controller(parentID)
        let from = try controller(fromID)
        let to = try controller(toID)
        guard party == .controller(parentID) else {
            throw ContainmentError(
                .unauthorized,
                deferred: "\(party) may not run a transition in \(parentID); only \(parentID) may."
            )
        }
        guard duration.isFinite, duration >= 0, frame?.isValid ?? true else {
            throw ContainmentError(.malformed, deferred: "A transition needs a finite duration ≥ 0 and a valid frame.")
        }
        guard fromID != toID else {
            throw ContainmentError(
                .sameController,
                deferred: "A transition from \(fromID) to itself is not a transition."
            )
        }
        guard from.parent == parentID, to.parent == parentID else {
            throw ContainmentError(
                .noCommonParent,
                deferred: "Children view controllers \(fromID) and \(toID) must have a common parent view controller"
                    + " when calling transition (\(parentID))."
            )
        }
        try checkNotTransitioning(fromID, action: "transitioned")
        try checkNotTransitioning(toID, action: "transitioned")
        guard isView(.root(fromID), inTreeOf: parentID), views[.root(fromID)]?.superview != nil else {
            throw ContainmentError(
                .notInHierarchy,
                deferred: "The root view of \(fromID) is not in the view tree of \(parentID)."
            )
        }
        // The incoming view goes beside the outgoing one: not if that lies inside it (a tab shown in its container's
        // More navigation, SPEC §16, transitioned to that navigation).
        guard !isView(.root(fromID), inside: .root(toID)) else {
            throw ContainmentError(
                .hierarchyInconsistency,
                deferred: "The root view of \(fromID) lies inside \(toID)'s; \(toID) cannot take its place."
            )
        }
        beginSwitch(in: parent, [(fromID, toID, frame)], duration: duration, end: end, by: party)
        if duration == 0 { try completeTransition(in: parentID, from: fromID, to: toID, by: party) }
    }

    /// The start of a switch between children of `parent` (checked by the caller): each incoming view goes in beside
    /// the outgoing one it replaces (at its frame), the swap begins — outgoing will-disappear, then incoming
    /// will-appear — and a running transition, named by the first pair, waits for its completion. A page container
    /// turning two pages at once switches two pairs in one.
    mutating func beginSwitch(
        in parent: Controller,
        _ pairs: [(from: ControllerID, to: ControllerID, frame: Rect?)],
        duration: Double,
        end: TransitionEnd,
        by party: Party
    ) {
        guard let first = pairs.first else { return }
        let animated = duration > 0
        emit(.transitionBegan(parent.id, from: first.from, to: first.to))
        for pair in pairs {
            loadViewIfNeeded(pair.to)
            if let frame = pair.frame { changeFrame(.root(pair.to), to: frame, by: party) }
            detachWithAppearance(.root(pair.to), animated: animated)
        }
        for pair in pairs where parent.properties.automaticallyForwardsAppearance && isOnScreen(pair.from) {
            beginAppearance(appearanceTargets(of: pair.from), appearing: false, animated: animated)
        }
        let scope = visibilityScope(under: pairs.map { .root($0.to) })
        for pair in pairs {
            guard let superview = views[.root(pair.from)]?.superview else { continue }
            let index = (views[superview]?.subviews.firstIndex(of: .root(pair.from)) ?? -1) + 1
            attach(.root(pair.to), to: superview, at: index)
        }
        let change = finishVisibility(scope, animated: animated, endsNow: false)
        let running = RunningTransition(
            parent: parent.id,
            from: first.from,
            to: first.to,
            duration: duration,
            appearing: change.appearing,
            // Instant, it completes at once and the container finishes its switch itself.
            end: duration > 0 ? end : .plain
        )
        setTransitions(transitions + [running])
    }

    mutating func completeTransition(
        in parentID: ControllerID,
        from fromID: ControllerID,
        to toID: ControllerID,
        by party: Party
    ) throws(ContainmentError) {
        _ = try controller(parentID)
        guard party == .controller(parentID) else {
            throw ContainmentError(.unauthorized, deferred: "\(party) may not complete a transition in \(parentID).")
        }
        guard let running = transitions.first(where: { $0.parent == parentID && $0.from == fromID && $0.to == toID })
        else {
            throw ContainmentError(
                .outOfOrder,
                deferred: "No transition from \(fromID) to \(toID) is running in \(parentID); nothing to complete."
            )
        }
        let animated = running.duration > 0
        setTransitions(transitions.filter { $0 != running })
        switch running.end {
        case .presentation(let disappearing):
            let move = PresentationMove(controllers: [toID], presenting: true)
            endAppearance(running.appearing, appearing: true, animated: animated, presentation: move)
            endAppearance(disappearing, appearing: false, animated: animated)
            emit(.transitionCompleted(parentID, from: fromID, to: toID))
            if let presentation = presentations[toID] { emit(.presented(toID, presentation: presentation)) }
            return
        case .dismissal(let disappearing):
            let presentation = presentations[fromID]
            updateController(parentID, .presented) { $0.presented = nil }
            updateController(fromID, .presenting) { $0.presenting = nil }
            setPresentation(nil, fromID)
            let move = PresentationMove(controllers: [fromID], presenting: false)
            endAppearance(disappearing, appearing: false, animated: animated, presentation: move)
            endAppearance(running.appearing, appearing: true, animated: animated)
            emit(.transitionCompleted(parentID, from: fromID, to: toID))
            if let presentation { emit(.dismissed(fromID, presentation: presentation)) }
            return
        case .menu(let visible):
            try settleMenu(parentID, visible: visible)
            emit(.transitionCompleted(parentID, from: fromID, to: toID))
            emit(.menuVisibilityChanged(parentID, visible: visible))
            return
        case .plain, .navigation, .pages:
            break
        }
        // The old views go (a two-page turn's both); the swap completes: outgoing did-disappear, then incoming
        // did-appear.
        let outgoing: [ControllerID] =
            if case .pages(_, let left, _, _, _) = running.end, left.contains(fromID) { left } else { [fromID] }
        for id in outgoing { detachWithAppearance(.root(id), animated: animated) }
        endAppearance(running.appearing, appearing: true, animated: animated)
        emit(.transitionCompleted(parentID, from: fromID, to: toID))
        try finish(running.end, in: parentID, animated: animated)
    }

    /// A container's switch, once its transition completed: the pushed controller settles, the popped ones leave,
    /// the navigation controller says what it showed.
    mutating func finish(_ end: TransitionEnd, in id: ControllerID, animated: Bool) throws(ContainmentError) {
        switch end {
        case .navigation(let shown, let arrived, let left, let requester):
            for child in left { detachFromParent(child, id) }
            for child in arrived { try didMove(child, toParent: id, by: .controller(id)) }
            syncBarControls(id)
            emitSwitch(.navigationDidShow(id, shown: shown, requestedBy: requester), animated: animated)
        case .pages(let arrived, let left, let pages, let direction, let requester):
            for child in left { detachFromParent(child, id) }
            for child in arrived { try didMove(child, toParent: id, by: .controller(id)) }
            emit(.pagesChanged(id, pages: pages, direction: direction, requestedBy: requester))
        case .plain, .menu, .presentation, .dismissal:
            // A tab container's More tab waited for the switch (SPEC §16).
            if controllers[id]?.kind == .tab { syncMoreTab(id) }
        }
    }

    /// A container's own verb while one of its animated switches runs: `transitionInProgress` (SPEC §13).
    func checkNoSwitchRunning(in id: ControllerID) throws(ContainmentError) {
        guard let running = transitions.first(where: { $0.parent == id && $0.end != .plain }) else { return }
        throw ContainmentError(
            .transitionInProgress,
            deferred: "\(id) is still switching from \(running.from) to \(running.to); wait for it to complete."
        )
    }
}
