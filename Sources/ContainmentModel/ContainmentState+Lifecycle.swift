extension ContainmentState {
    // MARK: Controllers

    mutating func create(
        _ id: ControllerID,
        kind: Kind,
        properties: ControllerProperties,
        by party: Party
    ) throws(ContainmentError) {
        guard Self.isValidName(id.rawValue), Self.isValidName(kind.rawValue) else {
            throw ContainmentError(
                .malformed,
                deferred:
                    "\"\(id)\" of kind \"\(kind)\": ids and kinds are non-empty, without spaces, \"/\" or control characters."
            )
        }
        guard controllers[id] == nil else {
            throw ContainmentError(.duplicateID, deferred: "A controller \(id) already exists.")
        }
        if let problem = PropertyChange.stateProblem(properties.state) {
            throw ContainmentError(.malformed, deferred: "\(id): \(problem)")
        }
        if kind == .page, properties.pageTransitionStyle == .pageCurl, properties.spineLocation == .mid,
            !properties.doubleSided
        {
            throw ContainmentError(
                .spineMismatch,
                deferred: "A mid spine needs double-sided pages; \(id) is single-sided."
            )
        }
        setController(Controller(id: id, kind: kind, properties: properties, serial: takeSerial()), id)
        emit(.controllerCreated(id, kind: kind))
    }

    /// The name of a message, an input kind, an action or a verb: not empty, no control characters (spaces allowed).
    public static func isValidLabel(_ text: String) -> Bool {
        !text.isEmpty && !text.unicodeScalars.contains { $0.properties.generalCategory == .control }
    }

    /// Ids, kinds and window names: printable, no spaces, no `/` (it separates a view's owner from its name).
    public static func isValidName(_ text: String) -> Bool {
        !text.isEmpty && text.unicodeScalars.allSatisfy { $0.value > 0x20 && $0.value != 0x7F && $0 != "/" }
    }

    /// Only a controller that stands alone — no parent, children, window, presentation or transition — is destroyed.
    mutating func destroy(_ id: ControllerID, by party: Party) throws(ContainmentError) {
        let record = try controller(id)
        guard party == .system || party == .controller(id) else {
            throw ContainmentError(
                .unauthorized,
                deferred: "\(party) may not destroy \(id); only the system or \(id) may."
            )
        }
        var ties: [String] = []
        if let parent = record.parent { ties.append("is a child of \(parent)") }
        if !record.children.isEmpty { ties.append("has children") }
        if let window = window(rootedAt: id) { ties.append("is the root of window \(window.id)") }
        if record.presenting != nil || record.presented != nil { ties.append("takes part in a presentation") }
        if transitions.contains(where: { $0.parent == id }) { ties.append("runs a transition") }
        guard ties.isEmpty else {
            let reasons = ties
            throw ContainmentError(
                .hierarchyInconsistency,
                deferred: "\(id) cannot be destroyed: it \(reasons.joined(separator: ", "))."
            )
        }
        _ = consume record
        releaseViews(of: id)
        setController(nil, id)
        emit(.controllerDestroyed(id))
    }

    /// Drops every view `id` owns. Its root view must be detached and hold no child's root view.
    private mutating func releaseViews(of id: ControllerID) {
        if !layouts.isEmpty { dropLayout(of: id) }
        let names = controllers[id]?.subviewNames ?? []
        for name in names { setView(nil, ViewID(owner: id, name: name)) }
        setView(nil, .root(id))
        if !names.isEmpty { updateController(id, .subviewNames) { $0.subviewNames = [] } }
    }

    // MARK: Windows

    mutating func attachWindow(
        _ id: WindowID,
        root rootID: ControllerID,
        size: Size,
        by party: Party
    ) throws(ContainmentError) {
        try checkSystem(party, doing: "attach window \(id)")
        guard Self.isValidName(id.rawValue), size.isValid else {
            throw ContainmentError(
                .malformed,
                deferred: "Window \"\(id)\" of size \(size): a name and a size from 0 to 1e9 points are needed."
            )
        }
        let root = try controller(rootID)
        if let parent = root.parent {
            throw ContainmentError(
                .hierarchyInconsistency,
                deferred: "\(rootID) is a child of \(parent) and cannot be the root of window \(id)."
            )
        }
        if let other = window(rootedAt: rootID), other.id != id {
            throw ContainmentError(
                .hierarchyInconsistency,
                deferred: "\(rootID) is already the root of window \(other.id)."
            )
        }
        if let presenter = root.presenting {
            throw ContainmentError(
                .hierarchyInconsistency,
                deferred: "\(rootID) is presented by \(presenter) and cannot be the root of window \(id)."
            )
        }
        let old = windows[id]
        if old?.root == rootID {
            try resizeWindow(id, to: size, by: party)
            return
        }
        loadViewIfNeeded(rootID)
        changeFrame(.root(rootID), to: Rect(size: size), by: .window(id))
        let scope = visibilityScope(under: [.root(rootID)] + (old.map { [.root($0.root)] } ?? []))
        // A window given a new root keeps its orientation; a new window starts in the one its size suggests.
        setWindow(Window(id: id, size: size, root: rootID, orientation: old?.orientation), id)
        emit(.windowAttached(rootID, window: id, size: size))
        finishVisibility(scope)
    }

    /// A size transition (SPEC §6): `windowResized`, `viewWillTransition(to:)` down the tree where forwarded, then the
    /// root's frame and layout, top-down.
    mutating func resizeWindow(_ id: WindowID, to size: Size, by party: Party) throws(ContainmentError) {
        try checkSystem(party, doing: "resize window \(id)")
        guard size.isValid else {
            throw ContainmentError(
                .malformed,
                deferred: "Size \(size) is not finite, is beyond 1e9 points or is negative."
            )
        }
        let window = try window(id)
        guard window.size != size else { return }
        resize(window, to: size)
    }

    /// The size transition itself: the new size, `windowResized`, `viewWillTransition(to:)` down the tree, the root's
    /// frame and layout, the presentations' frames.
    mutating func resize(_ window: Window, to size: Size) {
        var window = window
        window.size = size
        setWindow(window, window.id)
        emit(.windowResized(window.root, window: window.id, size: size))
        forwardSizeTransition(window.root, size: size)
        changeFrame(.root(window.root), to: Rect(size: size), by: .window(window.id))
        reframePresentations(in: window)
    }

    /// `viewWillTransition(to:)` to `id`, then on to its children unless it turned automatic forwarding off.
    mutating func forwardSizeTransition(_ id: ControllerID, size: Size) {
        emit(.viewWillTransitionToSize(id, size: size))
        guard let record = controllers[id], record.properties.automaticallyForwardsSizeTransitions else { return }
        for child in record.children { forwardSizeTransition(child, size: size) }
    }

    /// Rejects a lifecycle command that the system did not issue; `what` is written only then.
    func checkSystem(
        _ party: Party,
        doing what: @autoclosure () -> String
    ) throws(ContainmentError) {
        guard party == .system else {
            let what = what()
            throw ContainmentError(.unauthorized, deferred: "\(party) may not \(what); only the system may.")
        }
    }

    // MARK: Memory (SPEC §6)

    /// Every target gets `didReceiveMemoryWarning`, in tree order; one that is not on screen releases its views
    /// (`viewDidUnload`) — a window's root keeps them, as does a controller in a running transition, and one that is
    /// only covered by a presentation (its views hold the context the presentation stands on).
    mutating func memoryWarning(_ targets: [ControllerID]?, by party: Party) throws(ContainmentError) {
        try checkSystem(party, doing: "send memory warnings")
        let ordered: [ControllerID]
        if let targets {
            for id in targets { _ = try controller(id) }
            ordered = treeOrder(Set(targets))
        } else {
            ordered = treeOrderOfAll()
        }
        // A warning each, and for some a `viewDidUnload`: room for both, so the buffer grows once.
        journal.events.reserveCapacity(journal.events.count + 2 * ordered.count)
        for id in ordered {
            emit(.didReceiveMemoryWarning(id))
            guard isViewLoaded(id), controllers[id]?.presenting == nil,
                !isPlaced(view: .root(id)),
                !isWindowRoot(id),
                !transitions.contains(where: { $0.parent == id || $0.from == id || $0.to == id })
            else { continue }
            unloadViews(of: id)
        }
    }

    /// Detaches the root view and every other controller's root view inside this controller's views — its
    /// children's, and in a More navigation (SPEC §16) the tab shown in it — then releases its views.
    ///
    /// Its root view is not placed, so neither is any of its views, nor a presentation standing on one: nothing is on
    /// screen before or after, so the detachments cause no appearance callbacks.
    private mutating func unloadViews(of id: ControllerID) {
        for child in controllers[id]?.children ?? [] where views[.root(child)]?.superview != nil {
            detachUnplaced(.root(child))
        }
        if let tab = id.moreTab, id == .more(of: tab), let shown = pushedInMore(tab) { detachUnplaced(.root(shown)) }
        detachUnplaced(.root(id))
        releaseViews(of: id)
        emit(.viewDidUnload(id))
    }

    /// Detaches a view that is not placed, which changes no controller's appearance.
    private mutating func detachUnplaced(_ viewID: ViewID) {
        assert(!isPlaced(view: viewID), "\(viewID) is placed")
        detachFromSuperview(viewID)
    }
}
