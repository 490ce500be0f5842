extension ContainmentState {
    // MARK: SPEC §12 — input, the hit test and the responder chain

    /// One step of the responder chain: a view, or a controller.
    enum Responder: Hashable {
        case view(ViewID)
        case controller(ControllerID)
    }

    /// `input(W, point, kind)` by the system: the hit test finds the view, the chain from it finds the first
    /// controller that handles the kind, which receives `inputReceived`; `inputDelivered` says where it went. A
    /// popover that the point misses swallows it and is dismissed; the built-in menu, the bars' controls and a page
    /// container's swipe react to their own input (SPEC §15).
    mutating func input(
        _ id: WindowID,
        at point: Point,
        kind: String,
        direction: SwipeDirection? = nil,
        by party: Party
    ) throws(ContainmentError) {
        try checkSystem(party, doing: "send input to window \(id)")
        let window = try window(id)
        guard point.isValid, Self.isValidLabel(kind) else {
            throw ContainmentError(.malformed, deferred: "An input needs a finite point and a kind; got \(point).")
        }
        let hit = hitTest(window, at: point)
        // A tap on a bar control is its container's (SPEC §15), the first controller on its chain.
        let control = kind == "tap" ? barControlOwner(hit.view) : nil
        let (chain, handler) =
            control.map { ([$0], $0) } ?? walk(from: hit.view.map { .view($0) }, handling: kind)
        emit(.inputDelivered(handler, window: id, point: point, kind: kind, view: hit.view, chain: chain))
        if let handler, let view = hit.view {
            let origin = absoluteFrame(of: .root(handler))
            let local = Point(x: point.x - origin.x, y: point.y - origin.y)
            emit(.inputReceived(handler, kind: kind, point: local, view: view))
            if controllers[handler]?.kind == .menu { try menuReceived(kind, on: view, in: handler) }
            if let control { try barControlTapped(view, in: control) }
            if kind == "swipe", controllers[handler]?.kind == .page {
                switch direction {
                case .left?: try turnPage(handler, forward: true, by: .controller(handler))
                case .right?: try turnPage(handler, forward: false, by: .controller(handler))
                default: break
                }
            }
        }
        // A tap beside a split's portrait overlay hides it (SPEC §15), handled or not.
        if control == nil, kind == "tap", let view = hit.view { hideSplitOverlays(outside: view) }
        if let popover = hit.missedPopover { try dismiss(popover, animated: false, by: .system) }
    }

    /// `action(from C, name, payload)` by C: the chain from C finds the first controller that handles `name`, which
    /// receives `actionReceived`; `actionDelivered` says where it went.
    mutating func action(
        from id: ControllerID,
        name: String,
        payload: [UInt8],
        by party: Party
    ) throws(ContainmentError) {
        _ = try controller(id)
        try checkSender(id, party, name: name, sending: "an action")
        let (chain, handler) = walk(from: .controller(id), handling: name)
        emit(.actionDelivered(handler, from: id, name: name, chain: chain))
        if let handler { emit(.actionReceived(handler, name: name, from: id, payload: payload)) }
    }

    /// Whether `id` handles an input kind or action name: its `handles`, for the built-in menu `threeFingerTap`
    /// and `tap` (seed 004), for a page container `swipe` (SPEC §15).
    public func handles(_ id: ControllerID, _ name: String) -> Bool {
        guard let record = controllers[id] else { return false }
        if record.kind == .menu, name == "threeFingerTap" || name == "tap" { return true }
        if record.kind == .page, name == "swipe" { return true }
        return record.properties.handles.contains(name)
    }

    /// The responder chain from `start` (SPEC §12): the controllers walked until one handles `name` (it last), and
    /// that one.
    func walk(from start: Responder?, handling name: String) -> (chain: [ControllerID], handler: ControllerID?) {
        var chain: [ControllerID] = []
        var current = start
        while let responder = current {
            if case .controller(let id) = responder {
                chain.append(id)
                if handles(id, name) { return (chain, id) }
            }
            current = next(after: responder)
        }
        return (chain, nil)
    }

    /// A view → its owner when it is that owner's root view, else its superview; a controller → its root view's
    /// superview, or, when it is presented, the controller it is presented on (`presentingViewController`); a
    /// window's root → the window, which ends the chain.
    func next(after responder: Responder) -> Responder? {
        switch responder {
        case .view(let view):
            if view.isRoot { return .controller(view.owner) }
            return views[view]?.superview.map { .view($0) }
        case .controller(let id):
            if let superview = views[.root(id)]?.superview { return .view(superview) }
            return controllers[id]?.presenting.map { .controller($0) }
        }
    }

    /// The view an input at `point` of window `id` would hit (SPEC §12), if any: the hit test, for a client that
    /// wants to know before it sends the input.
    public func view(hitIn id: WindowID, at point: Point) -> ViewID? {
        windows[id].flatMap { hitTest($0, at: point).view }
    }

    /// What a point of a window hits: the deepest visible view containing it — presentations standing on the window
    /// first, top-most first, then the window's root view — and the popover it missed, if it missed one. A point
    /// outside a presentation reaches what lies behind it only for the `over…` styles (SPEC §12).
    func hitTest(_ window: Window, at point: Point) -> (view: ViewID?, missedPopover: ControllerID?) {
        let standing = presentations.keys.filter { self.window(placing: $0)?.id == window.id }
            .map { (id: $0, depth: presentationDepth($0), serial: controllers[$0]?.serial ?? 0) }
            .sorted { ($0.depth, $0.serial) > ($1.depth, $1.serial) }
        for entry in standing {
            if let hit = hitTest(.root(entry.id), at: point) { return (hit, nil) }
            guard let presentation = presentations[entry.id] else { continue }
            if presentation.style == .popover { return (nil, entry.id) }
            if presentation.swallowsTouchesOutside { return (nil, nil) }
        }
        return (hitTest(.root(window.root), at: point), nil)
    }

    /// The deepest visible view of `view`'s tree containing `point` (in `view`'s superview's coordinates, or the
    /// window's for a top view): a view is searched only when the point is inside it, its subviews front-most first;
    /// a hidden view, or one with alpha below 0.01, is skipped with its subtree.
    func hitTest(_ view: ViewID, at point: Point) -> ViewID? {
        guard let record = views[view], !record.hidden, record.alpha >= 0.01, record.frame.contains(point) else {
            return nil
        }
        let local = Point(x: point.x - record.frame.x, y: point.y - record.frame.y)
        for subview in record.subviews.reversed() {
            if let hit = hitTest(subview, at: local) { return hit }
        }
        return view
    }

    /// Seed 004: a three-finger tap shows the menu view; while it is shown, a tap on item I selects child I and
    /// hides it, and a tap anywhere else hides it.
    mutating func menuReceived(_ kind: String, on view: ViewID, in id: ControllerID) throws(ContainmentError) {
        guard let record = controllers[id] else { return }
        let party = Party.controller(id)
        switch kind {
        // A gesture's switches are instant: the next input finds the menu as this one left it.
        case "threeFingerTap" where !record.menuVisible:
            try setMenuVisible(id, true, animated: false, by: party)
        case "tap" where record.menuVisible:
            if view.owner == id, let name = view.name, name.hasPrefix("item-"), let index = Int(name.dropFirst(5)),
                record.children.indices.contains(index)
            {
                try select(id, .index(index), by: party)
            }
            try setMenuVisible(id, false, animated: false, by: party)
        default:
            break
        }
    }
}
