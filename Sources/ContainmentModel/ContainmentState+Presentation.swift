extension ContainmentState {
    // MARK: SPEC §7

    mutating func present(
        _ presentedID: ControllerID,
        on presenterID: ControllerID,
        style requestedStyle: ModalPresentationStyle?,
        transitionStyle requestedTransition: ModalTransitionStyle?,
        animated: Bool,
        anchor requestedAnchor: ViewID? = nil,
        by party: Party
    ) throws(ContainmentError) {
        _ = try controller(presenterID)
        let presented = try controller(presentedID)
        guard party == .controller(presenterID) else {
            throw ContainmentError(
                .unauthorized,
                deferred: "\(party) may not present on \(presenterID); only \(presenterID) may."
            )
        }
        guard presentedID != presenterID else {
            throw ContainmentError(
                .presentSelf,
                deferred: "Application tried to present modally \(presenterID) on itself."
            )
        }
        if let current = presented.presenting {
            throw ContainmentError(.alreadyPresented, deferred: "\(presentedID) is already presented by \(current).")
        }
        if let parent = presented.parent {
            throw ContainmentError(
                .presentedHasParent,
                deferred:
                    "\(presentedID) is a child of \(parent) and cannot be presented; remove it from its parent first."
            )
        }
        // A controller above the presenter is a window's root, presented already, or some container's child: the
        // checks here and above leave no way to present one on a controller below it.
        if let window = window(rootedAt: presentedID) {
            throw ContainmentError(
                .hierarchyInconsistency,
                deferred: "\(presentedID) is the root of window \(window.id) and cannot be presented."
            )
        }
        let style = requestedStyle ?? presented.properties.modalPresentationStyle
        let context = presentationContext(of: presenterID, style: style)
        if let showing = controllers[context]?.presented ?? presentedAbove(presenterID) {
            throw ContainmentError(
                .alreadyPresenting,
                deferred: "Attempt to present \(presentedID) on \(presenterID) which is already presenting \(showing)."
            )
        }
        guard isOnScreen(presenterID), let window = window(placing: context) else {
            throw ContainmentError(
                .presenterNotInWindow,
                deferred:
                    "Attempt to present \(presentedID) on \(presenterID) whose view is not in the window hierarchy."
            )
        }
        try checkNotTransitioning(context, action: "presented on")
        try checkNotTransitioning(presentedID, action: "presented")
        let contextRecord = try controller(context)
        let transitionStyle =
            contextRecord.properties.providesPresentationContextTransitionStyle
            ? contextRecord.properties.modalTransitionStyle
            : requestedTransition ?? presented.properties.modalTransitionStyle
        var anchor: ViewID?
        if style == .popover {
            // By default, and at most, the presenter's root view; else a view inside it.
            let view = requestedAnchor ?? .root(presenterID)
            guard views[view] != nil, view == .root(presenterID) || isView(view, inTreeOf: presenterID) else {
                throw ContainmentError(
                    .hierarchyInconsistency,
                    deferred: "A popover of \(presenterID) is anchored to a view of its tree; \(view) is not one."
                )
            }
            anchor = view
        }
        let (frame, hides) = presentationFrame(
            of: presentedID,
            style: style,
            context: context,
            anchor: anchor,
            window: window
        )
        let presentation = Presentation(
            presenter: presenterID,
            context: context,
            style: style,
            transitionStyle: transitionStyle,
            hidesContext: hides,
            anchor: anchor
        )
        loadViewIfNeeded(presentedID)
        changeFrame(.root(presentedID), to: frame, by: .system)
        let scope = visibilityScope(under: [.root(context), .root(presentedID)])
        updateController(presentedID, .presenting) { $0.presenting = context }
        updateController(context, .presented) { $0.presented = presentedID }
        setPresentation(presentation, presentedID)
        // Presentation order: presenter will-disappear, presented will-appear, presented did-appear, presenter
        // did-disappear; the presentation completes after that.
        let change = visibilityChange(since: scope)
        let move = PresentationMove(controllers: [presentedID], presenting: true)
        // Animated (SPEC §13): a timed transition; its completion gives the did callbacks and `presented`.
        if animated, animationDuration > 0 {
            emit(.transitionBegan(context, from: context, to: presentedID))
            beginAppearance(change.disappearing, appearing: false, animated: true)
            beginAppearance(change.appearing, appearing: true, animated: true, presentation: move)
            let running = RunningTransition(
                parent: context,
                from: context,
                to: presentedID,
                duration: animationDuration,
                appearing: change.appearing,
                end: .presentation(disappearing: change.disappearing)
            )
            setTransitions(transitions + [running])
            return
        }
        beginAppearance(change.disappearing, appearing: false, animated: animated)
        beginAppearance(change.appearing, appearing: true, animated: animated, presentation: move)
        endAppearance(change.appearing, appearing: true, animated: animated, presentation: move)
        endAppearance(change.disappearing, appearing: false, animated: animated)
        emit(.presented(presentedID, presentation: presentation))
    }

    mutating func dismiss(_ id: ControllerID, animated: Bool, by party: Party) throws(ContainmentError) {
        let record = try controller(id)
        let lowest: ControllerID
        if let presented = presentedAbove(id) ?? presentedBelow(id) {
            lowest = presented
        } else if record.presenting != nil {
            lowest = id
        } else {
            throw ContainmentError(
                .nothingToDismiss,
                deferred: "\(id) presents nothing and is not presented: nothing to dismiss."
            )
        }
        guard let bottom = presentations[lowest] else { return }
        let allowed: [Party] = [.system, .controller(id), .controller(bottom.presenter), .controller(bottom.context)]
        guard allowed.contains(party) else {
            throw ContainmentError(
                .unauthorized,
                deferred:
                    "\(party) may not dismiss \(lowest); only \(bottom.presenter), \(bottom.context), \(id) or the system may."
            )
        }
        var chain = [lowest]
        while let next = chain.last.flatMap({ controllers[$0]?.presented }) { chain.append(next) }
        for presented in chain { try checkNotTransitioning(presented, action: "dismissed") }
        try checkNotTransitioning(bottom.context, action: "uncovered")
        let scope = visibilityScope(under: [.root(bottom.context)])
        var dismissed: [(ControllerID, Presentation)] = []
        for presented in chain.reversed() {
            guard let presentation = presentations[presented] else { continue }
            updateController(presentation.context, .presented) { $0.presented = nil }
            updateController(presented, .presenting) { $0.presenting = nil }
            setPresentation(nil, presented)
            dismissed.append((presented, presentation))
        }
        let change = visibilityChange(since: scope)
        // The ones above the lowest disappear first, top-most first, without animation.
        var swapping = change.disappearing
        for (presented, _) in dismissed where presented != lowest {
            let layer = change.disappearing.filter { topView(of: .root($0)).owner == presented }
            swapping.removeAll { layer.contains($0) }
            let move = PresentationMove(controllers: [presented], presenting: false)
            beginAppearance(layer, appearing: false, animated: false, presentation: move)
            endAppearance(layer, appearing: false, animated: false, presentation: move)
        }
        // Then the swap of the lowest with the context.
        let move = PresentationMove(controllers: [lowest], presenting: false)
        // Animated (SPEC §13): the lowest stays presented, in its place, until a timed transition completes.
        if animated, animationDuration > 0, let presentation = dismissed.last, presentation.0 == lowest {
            for (presented, presentation) in dismissed.dropLast() {
                emit(.dismissed(presented, presentation: presentation))
            }
            updateController(bottom.context, .presented) { $0.presented = lowest }
            updateController(lowest, .presenting) { $0.presenting = bottom.context }
            setPresentation(bottom, lowest)
            emit(.transitionBegan(bottom.context, from: lowest, to: bottom.context))
            beginAppearance(swapping, appearing: false, animated: true, presentation: move)
            beginAppearance(change.appearing, appearing: true, animated: true)
            let running = RunningTransition(
                parent: bottom.context,
                from: lowest,
                to: bottom.context,
                duration: animationDuration,
                appearing: change.appearing,
                end: .dismissal(disappearing: swapping)
            )
            setTransitions(transitions + [running])
            return
        }
        beginAppearance(swapping, appearing: false, animated: animated, presentation: move)
        beginAppearance(change.appearing, appearing: true, animated: animated)
        endAppearance(swapping, appearing: false, animated: animated, presentation: move)
        endAppearance(change.appearing, appearing: true, animated: animated)
        for (presented, presentation) in dismissed { emit(.dismissed(presented, presentation: presentation)) }
    }

    // MARK: Context, frames, chains

    /// The context controller: for the current-context styles the first of the presenter and its ancestors that
    /// defines a presentation context; otherwise (or if none does) the top of the presenter's tree — the window's
    /// root, or the presented controller at the top of a chain.
    func presentationContext(of presenter: ControllerID, style: ModalPresentationStyle) -> ControllerID {
        let contextual = style == .currentContext || style == .overCurrentContext
        var current = presenter
        while true {
            guard let record = controllers[current] else { return current }
            if contextual, record.properties.definesPresentationContext { return current }
            guard let parent = record.parent else { return current }
            current = parent
        }
    }

    /// What `id` answers when asked for its presented controller: the one presented on it or on an ancestor.
    public func presentedAbove(_ id: ControllerID) -> ControllerID? {
        var current: ControllerID? = id
        while let candidate = current, let record = controllers[candidate] {
            if let presented = record.presented { return presented }
            current = record.parent
        }
        return nil
    }

    /// A controller presented on one of `id`'s descendants, the first in callback order.
    func presentedBelow(_ id: ControllerID) -> ControllerID? {
        guard let record = controllers[id] else { return nil }
        for child in record.children {
            if let presented = controllers[child]?.presented ?? presentedBelow(child) { return presented }
        }
        return nil
    }

    /// The system's frame for a presented root view (window coordinates) and whether it hides the context.
    func presentationFrame(
        of presented: ControllerID,
        style: ModalPresentationStyle,
        context: ControllerID,
        anchor: ViewID?,
        window: Window
    ) -> (Rect, Bool) {
        let size = window.size
        let full = Rect(size: size)
        switch style {
        case .popover:
            // SPEC §13: its preferred size beside the anchor inside the window; full screen on a narrow window (it
            // never hides its context).
            guard size.width > 768 else { return (full, false) }
            let preferred = controllers[presented]?.properties.preferredContentSize ?? Size(width: 320, height: 480)
            let around = anchor.map { absoluteFrame(of: $0) } ?? full
            return (PopoverPlacement.frame(of: preferred, beside: around, in: size), false)
        case .fullScreen: return (full, true)
        case .overFullScreen: return (full, false)
        case .currentContext: return (absoluteFrame(of: .root(context)), true)
        case .overCurrentContext: return (absoluteFrame(of: .root(context)), false)
        case .formSheet:
            guard size.width > 768 else { return (full, true) }
            return (Rect(x: (size.width - 540) / 2, y: (size.height - 620) / 2, width: 540, height: 620), false)
        case .pageSheet:
            guard size.width > 768 else { return (full, true) }
            return (Rect(x: (size.width - 768) / 2, y: 0, width: 768, height: size.height), false)
        }
    }

    /// A view's frame in window coordinates: its origin plus every superview's, up to the window or the presented
    /// root it lies in (whose frames are already in window coordinates).
    public func absoluteFrame(of view: ViewID) -> Rect {
        guard var frame = views[view]?.frame else { return .zero }
        var current = views[view]?.superview
        while let superview = current, let record = views[superview] {
            frame.x += record.frame.x
            frame.y += record.frame.y
            current = record.superview
        }
        return frame
    }

    /// After a window resize: each presented controller placed in it gets the frame its style gives.
    mutating func reframePresentations(in window: Window) {
        let placed = presentations.filter { self.window(placing: $0.key)?.id == window.id }
        for (presented, presentation) in placed.sorted(by: {
            (controllers[$0.key]?.serial ?? 0) < (controllers[$1.key]?.serial ?? 0)
        }) {
            let (frame, _) = presentationFrame(
                of: presented,
                style: presentation.style,
                context: presentation.context,
                anchor: presentation.anchor,
                window: window
            )
            changeFrame(.root(presented), to: frame, by: .system)
        }
    }
}

/// Where a popover goes (SPEC §13): below its anchor when it fits, else above, else beside it to the right, else to
/// the left; centred on the anchor along the other axis, and kept inside the window.
enum PopoverPlacement {
    static func frame(of size: Size, beside anchor: Rect, in window: Size) -> Rect {
        let width = min(size.width, window.width)
        let height = min(size.height, window.height)
        func clamp(_ value: Double, _ upper: Double) -> Double { max(0, min(value, upper)) }
        let centredX = clamp(anchor.x + anchor.width / 2 - width / 2, window.width - width)
        let centredY = clamp(anchor.y + anchor.height / 2 - height / 2, window.height - height)
        if anchor.y + anchor.height + height <= window.height {
            return Rect(x: centredX, y: anchor.y + anchor.height, width: width, height: height)
        }
        if anchor.y - height >= 0 { return Rect(x: centredX, y: anchor.y - height, width: width, height: height) }
        if anchor.x + anchor.width + width <= window.width {
            return Rect(x: anchor.x + anchor.width, y: centredY, width: width, height: height)
        }
        return Rect(x: clamp(anchor.x - width, window.width - width), y: centredY, width: width, height: height)
    }
}
