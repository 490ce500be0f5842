import ContainmentModel

/// Checks a state's structure and an event stream's history independently of the model's own code paths.
public struct InvariantChecker: Sendable {
    /// Shadow of the tree built from events alone.
    var parent: [ControllerID: ControllerID] = [:]
    var windowRoots: [WindowID: ControllerID] = [:]
    var appearance: [ControllerID: AppearanceState] = [:]
    var loaded: Set<ControllerID> = []
    /// Context → presented, from `presented` / `dismissed` events.
    var presentedOn: [ControllerID: ControllerID] = [:]
    /// Presented → its presenter and context, from the same events.
    var presentationOf: [ControllerID: Presentation] = [:]
    /// Properties as `propertiesChanged` last gave them (the ones set at creation come from `follow`'s caller).
    var changedProperties: [ControllerID: ControllerProperties] = [:]
    /// Each window's orientation, from `windowAttached` (the one its size suggests, kept on a new root) and
    /// `orientationChanged`.
    var orientations: [WindowID: Orientation] = [:]
    /// Each controller's kind, from `controllerCreated`.
    var kinds: [ControllerID: Kind] = [:]
    /// Each view's subviews in order, folded from `viewInserted` (at its index) and `viewRemoved` as
    /// docs/PROTOCOL.md tells a mirror to.
    var subviews: [ViewID: [ViewID]] = [:]
    /// The same, view → superview: the responder chain and the placement of presentations climb it.
    var superviewOf: [ViewID: ViewID] = [:]
    /// Each owner's live constraints and the views each names, from `constraintAdded` / `constraintRemoved` (SPEC §16).
    var constraints: [ControllerID: [String: [ViewID]]] = [:]

    /// Follows one accepted command's events; returns what broke.
    public init() {}

    /// `properties` answers a controller's properties as they were before the command (events do not carry the ones
    /// a controller is created with); `presentation`, a presentation as it is after the command (an animated one
    /// begins with `transitionBegan` and its links, and says `presented` only when it completes).
    public mutating func follow(
        _ events: [Event],
        properties: (ControllerID) -> ControllerProperties? = { _ in nil },
        presentation: (ControllerID) -> Presentation? = { _ in nil }
    ) -> [String] {
        var problems: [String] = []
        func propertiesOf(_ id: ControllerID) -> ControllerProperties? { changedProperties[id] ?? properties(id) }
        func delegateOf(_ id: ControllerID) -> ControllerID? { propertiesOf(id)?.delegate }
        // A window sets its new root's frame just before the `windowAttached` event of the same command.
        var attaching: [WindowID: ControllerID] = [:]
        for case .windowAttached(let id, let window, _) in events { attaching[window] = id }
        // The loads and layouts under way, innermost last: each pair nests within a command, and what a controller's
        // code answers (SPEC §15) stands inside its own pair.
        var loading: [ControllerID] = []
        var layingOut: [ControllerID] = []
        for event in events {
            switch event {
            case .controllerCreated(let id, let kind):
                appearance[id] = .disappeared
                kinds[id] = kind
            case .controllerDestroyed(let id):
                if let left = constraints[id], !left.isEmpty {
                    problems.append("\(event): its constraints \(left.keys.sorted()) outlived it")
                }
                appearance[id] = nil
                changedProperties[id] = nil
                loaded.remove(id)
                forgetViews(of: id)
            case .childAdded(let id, let newParent):
                if parent[id] != nil { problems.append("\(event): added while it still has a parent") }
                parent[id] = newParent
            case .childRemoved(let id, let oldParent):
                if parent[id] != oldParent { problems.append("\(event): removed from a parent it did not have") }
                parent[id] = nil
            case .windowAttached(let id, let window, let size):
                windowRoots[window] = id
                if orientations[window] == nil { orientations[window] = Orientation.initial(for: size) }
            case .loadView(let id):
                if loaded.contains(id) { problems.append("\(event): loaded twice") }
                loaded.insert(id)
                loading.append(id)
            case .viewDidLoad(let id):
                if loading.popLast() != id { problems.append("\(event): not the load under way") }
            case .viewWillLayoutSubviews(let id):
                layingOut.append(id)
            case .viewDidLayoutSubviews(let id):
                if layingOut.popLast() != id { problems.append("\(event): not the layout under way") }
            case .answerTimedOut(let id, let question):
                let placed: Bool =
                    switch question {
                    case .loadView: loading.last == id
                    case .viewWillLayoutSubviews: layingOut.last == id
                    case .pageAfter, .pageBefore:
                        kinds.contains { $0.value == .page && propertiesOf($0.key)?.pageDataSource == id }
                    }
                if !placed { problems.append("\(event): no such question was under way") }
            case .viewDidUnload(let id):
                if let left = constraints[id], !left.isEmpty {
                    problems.append("\(event): its constraints \(left.keys.sorted()) outlived its views")
                }
                loaded.remove(id)
                forgetViews(of: id)
            case .viewInserted(let view, let superview, let index):
                var siblings = subviews[superview, default: []]
                siblings.removeAll { $0 == view }
                if index > siblings.count {
                    problems.append("\(event): index beyond the \(siblings.count) other subviews")
                } else {
                    siblings.insert(view, at: index)
                }
                subviews[superview] = siblings
                superviewOf[view] = superview
            case .constraintAdded, .constraintRemoved:
                problems += followConstraint(event)
            case .viewRemoved(let view, let superview):
                problems += constraintsOutlived(view, leaving: superview, event)
                if subviews[superview]?.contains(view) != true { problems.append("\(event): it was not there") }
                subviews[superview]?.removeAll { $0 == view }
                if superviewOf[view] == superview { superviewOf[view] = nil }
            case .presented(let id, let presentation):
                if let other = presentedOn[presentation.context] {
                    problems.append("\(event): \(presentation.context) already presents \(other)")
                }
                presentedOn[presentation.context] = id
                presentationOf[id] = presentation
            case .dismissed(let id, let presentation):
                if presentedOn[presentation.context] != id { problems.append("\(event): it was not presented there") }
                presentedOn[presentation.context] = nil
                presentationOf[id] = nil
            case .messageSent(let from, let to, let name, let bytes):
                // SPEC §11: only along a relation or to the delegate, and received at once, whole.
                let related =
                    parent[from] == to || parent[to] == from || delegateOf(from) == to
                    || presentationOf[from].map { $0.presenter == to || $0.context == to } == true
                    || presentationOf[to].map { $0.presenter == from || $0.context == from } == true
                if !related { problems.append("\(event): \(from) and \(to) are not related") }
                guard case .messageReceived(to, from, name, let payload)? = Self.event(after: event, in: events),
                    payload.count == bytes
                else {
                    problems.append("\(event): not followed by its messageReceived")
                    break
                }
            case .propertiesChanged(let id, _, let properties):
                changedProperties[id] = properties
            case .transitionBegan(let parent, let from, let to) where from == parent:
                // An animated presentation on its context: presented from now on, `presented` at its completion.
                if let begun = presentation(to) { presentationOf[to] = begun }
            case .inputDelivered(let handler, _, _, let kind, let view, let chain):
                // SPEC §12: the chain starts at the hit view's owner, each next one its view's superview's owner or
                // the one it is presented on, and ends at the handler, which handles the kind.
                let control = kind == "tap" ? view.flatMap(controlContainer) : nil
                if let view, control == nil, chain.first != view.owner {
                    problems.append("\(event): the chain does not start at \(view.owner)")
                }
                if let problem = touchThrough(event) { problems.append(problem) }
                if let control, let view {
                    // SPEC §15: a tap on a bar's control is its container's, the first controller on its chain; §16: a
                    // tap on a row of a More list is its tab container's.
                    if handler != control || chain != [control] {
                        problems.append("\(event): a tap on \(view) is \(control)'s alone")
                    }
                } else {
                    problems += chainProblems(
                        event,
                        chain: chain,
                        handler: handler,
                        name: kind,
                        propertiesOf: propertiesOf
                    )
                }
            case .navigationWillShow(let container, _, let requester),
                .selectionChanged(let container, _, _, let requester):
                // SPEC §15: asked by the container, a controller of its subtree or the system.
                if case .controller(let asker) = requester, !isInSubtree(asker, of: container) {
                    problems.append("\(event): \(asker) is not in \(container)'s subtree")
                }
            case .delegateCallback(let delegate, let container, let callback, let child, _):
                // SPEC §15: right after its container's event, to the container's delegate.
                let told: (ControllerID, EventKind, ControllerID?)? =
                    switch Self.event(before: event, in: events) {
                    case .navigationWillShow(let c, let shown, _)?: (c, .navigationWillShow, shown)
                    case .navigationDidShow(let c, let shown, _)?: (c, .navigationDidShow, shown)
                    case .selectionChanged(let c, let selected, _, _)?: (c, .selectionChanged, selected)
                    default: nil
                    }
                if told?.0 != container || told?.1 != callback || told?.2 != child {
                    problems.append("\(event): not right after \(container)'s \(callback.name)")
                }
                if delegateOf(container) != delegate { problems.append("\(event): \(delegate) is not its delegate") }
            case .actionDelivered(let handler, let from, let name, let chain):
                // A tap on a navigation bar's item sends its action from the container, up the chain from the top
                // controller (SPEC §15).
                let barItem: Bool =
                    if case .inputReceived(from, "tap", _, let view)? = Self.event(before: event, in: events),
                        let item = view.name, item.hasPrefix("left-") || item.hasPrefix("right-")
                    {
                        true
                    } else {
                        false
                    }
                if barItem ? chain.first.flatMap({ parent[$0] }) != from : chain.first != from {
                    problems.append("\(event): the chain does not start at \(from)")
                }
                problems += chainProblems(event, chain: chain, handler: handler, name: name, propertiesOf: propertiesOf)
            case .orientationChanged(_, let window, let orientation):
                // SPEC §13: a rotation never reaches an orientation the controller that decides does not support.
                orientations[window] = orientation
                if let decider = orientationDecider(of: window),
                    propertiesOf(decider)?.supportedOrientations.contains(orientation) == false
                {
                    problems.append("\(event): \(decider) decides and does not support it")
                }
            case .setEditing(let id, let editing, _):
                if Self.event(after: event, in: events) != .editingChanged(id, editing: editing) {
                    problems.append("\(event): not followed by its editingChanged")
                }
            case .frameChanged(let view, _, let by) where view.isRoot:
                let owner = view.owner
                let allowed: Bool =
                    if let parent = parent[owner] {
                        by == .controller(parent)
                    } else if case .window(let window) = by {
                        windowRoots[window] == owner || attaching[window] == owner
                    } else {
                        by == .system
                    }
                if !allowed { problems.append("\(event): root frame set by an unauthorised party") }
            case .viewWillAppear(let id, _), .viewWillDisappear(let id, _), .viewDidAppear(let id, _),
                .viewDidDisappear(let id, _):
                let state = appearance[id] ?? .disappeared
                let next: AppearanceState? =
                    switch event {
                    case .viewWillAppear: state.begin(appearing: true)
                    case .viewWillDisappear: state.begin(appearing: false)
                    case .viewDidAppear: state == .appearing ? .appeared : nil
                    default: state == .disappearing ? .disappeared : nil
                    }
                if let next { appearance[id] = next } else { problems.append("\(event) while \(state)") }
            default:
                break
            }
        }
        if !loading.isEmpty || !layingOut.isEmpty {
            problems.append("loads \(loading) or layouts \(layingOut) left unfinished by the command")
        }
        return problems
    }

    /// Structural invariants of a state, and agreement with the shadow.
    public func check(_ state: ContainmentState, autoOnly: Bool) -> [String] {
        var problems: [String] = []
        // The subview order a mirror folds from the events is the state's, for every loaded view.
        for (id, view) in state.views where (subviews[id] ?? []) != view.subviews {
            problems.append("\(id)'s subviews are \(view.subviews); the events give \(subviews[id] ?? [])")
        }
        // The table keeps the controllers in creation order (the tree order of parentless ones relies on it).
        let serials = state.controllers.values.map(\.serial)
        if serials != serials.sorted() { problems.append("the controllers are not in creation order: \(serials)") }
        for (id, controller) in state.controllers {
            // Acyclic: walking up ends within the controller count.
            var steps = 0
            var current = controller.parent
            while let up = current, steps <= state.controllers.count {
                current = state.controllers[up]?.parent
                steps += 1
            }
            if steps > state.controllers.count { problems.append("cycle through \(id)") }
            if let parent = controller.parent {
                if state.controllers[parent]?.children.contains(id) != true {
                    problems.append("\(id) names parent \(parent), which does not list it")
                }
                // Every child's root view is in its parent's tree or nowhere — or, a tab reached through More, in
                // its tab container's own More navigation (SPEC §16).
                if let superview = state.views[.root(id)]?.superview, superview.owner != parent,
                    superview != .root(.more(of: parent)) || state.controllers[parent]?.kind != .tab
                {
                    problems.append("\(id)'s root view is in \(superview), not in its parent \(parent)'s views")
                }
            } else if state.window(rootedAt: id) == nil, state.views[.root(id)]?.superview != nil {
                problems.append("\(id) has no parent but its root view has a superview")
            }
            for child in controller.children where state.controllers[child]?.parent != id {
                problems.append("\(id) lists child \(child), whose parent is not \(id)")
            }
            if Set(controller.children).count != controller.children.count {
                problems.append("\(id) lists a child twice")
            }
            // A tab or menu container's selection is one of its children, or none.
            if let selected = controller.selected, !controller.children.contains(selected) {
                problems.append("\(id) has \(selected) selected, which is not its child")
            }
            if parent[id] != controller.parent {
                problems.append("events say \(id)'s parent is \(parent[id].map { "\($0)" } ?? "nil")")
            }
            if appearance[id] != controller.appearance {
                problems.append(
                    "events say \(id) is \(appearance[id].map { "\($0)" } ?? "-"), state says \(controller.appearance)"
                )
            }
            if loaded.contains(id) != state.isViewLoaded(id) {
                problems.append("events disagree on whether \(id) is loaded")
            }
            if autoOnly, state.transitions.isEmpty {
                let expected: AppearanceState = state.isOnScreen(id) ? .appeared : .disappeared
                if controller.appearance != expected {
                    problems.append("\(id) is \(controller.appearance) but on screen is \(state.isOnScreen(id))")
                }
            }
        }
        for (viewID, view) in state.views {
            if state.controllers[viewID.owner] == nil { problems.append("view \(viewID) outlives its owner") }
            if let superview = view.superview, state.views[superview]?.subviews.contains(viewID) != true {
                problems.append("\(viewID)'s superview \(superview) does not list it")
            }
            for subview in view.subviews where state.views[subview]?.superview != viewID {
                problems.append("\(viewID) lists \(subview), whose superview is not \(viewID)")
            }
            if Set(view.subviews).count != view.subviews.count {
                problems.append("\(viewID) lists a subview twice: \(view.subviews)")
            }
            if state.isView(viewID, inside: viewID) { problems.append("view cycle through \(viewID)") }
        }
        return problems
    }
}

extension InvariantChecker {
    /// The controller deciding a window's orientation, from the shadow alone: the presented controller covering the
    /// window with the most presentations under it, else the window's root.
    func orientationDecider(of window: WindowID) -> ControllerID? {
        guard let root = windowRoots[window] else { return nil }
        var best: (id: ControllerID, depth: Int) = (root, 0)
        for (presented, presentation) in presentationOf where presentation.coversWindow {
            guard let (placed, depth) = placement(of: presented), placed == window else { continue }
            if depth > best.depth || (depth == best.depth && presented < best.id) { best = (presented, depth) }
        }
        return best.id
    }

    /// SPEC §12 (seed 002): a point that reaches a presentation which takes the touches outside it — full screen,
    /// current context, a form or page sheet (in its sheet form too), a popover — hits nothing behind it. So a view
    /// hit on a window lies in a presentation at least as high (as many presentations up) as the highest such one
    /// standing on that window. (Among presentations equally high the model's order is their creation's, which the
    /// events do not give: those are not judged.)
    func touchThrough(_ event: Event) -> String? {
        guard case .inputDelivered(_, let window, _, _, let view?, _) = event,
            let (hitWindow, hitDepth) = placement(of: view.owner), hitWindow == window
        else { return nil }
        let swallowing: Set<ModalPresentationStyle> = [.fullScreen, .currentContext, .pageSheet, .formSheet, .popover]
        var highest: (id: ControllerID, depth: Int)?
        for (presented, presentation) in presentationOf where swallowing.contains(presentation.style) {
            guard let (placed, depth) = placement(of: presented), placed == window, depth > highest?.depth ?? 0 else {
                continue
            }
            highest = (presented, depth)
        }
        guard let highest, hitDepth < highest.depth else { return nil }
        return "\(event): \(view) lies behind \(highest.id), whose presentation takes every touch outside it"
    }

    /// The window a controller's root view is placed in, through the views and the presentations it stands on, and
    /// how many presentations that takes.
    func placement(of id: ControllerID) -> (WindowID, Int)? {
        var depth = 0
        var current = id
        for _ in 0...presentationOf.count {
            // A tree topped by a named view that is in no superview (`c/a`, never added) is in no window.
            let topView = topView(of: .root(current))
            guard topView.isRoot else { return nil }
            let top = topView.owner
            if let window = windowRoots.first(where: { $0.value == top })?.key { return (window, depth) }
            guard let presentation = presentationOf[top] else { return nil }
            depth += 1
            current = presentation.context
        }
        return nil
    }

    /// The top of the view tree holding `view`, by the folded subviews.
    func topView(of view: ViewID) -> ViewID {
        var current = view
        var seen: Set<ViewID> = [view]
        while let superview = superviewOf[current],
            seen.insert(superview).inserted
        {
            current = superview
        }
        return current
    }
}

extension InvariantChecker {
    /// A controller's views are gone (unloaded, or it was destroyed): they hold no subviews and stand in no
    /// superview.
    mutating func forgetViews(of id: ControllerID) {
        for view in subviews.keys where view.owner == id { subviews[view] = nil }
        for (view, superview) in superviewOf where view.owner == id || superview.owner == id {
            superviewOf[view] = nil
        }
    }

    /// The event before `event` (its first occurrence) in `events`.
    static func event(before event: Event, in events: [Event]) -> Event? {
        guard let index = events.firstIndex(of: event), index > 0 else { return nil }
        return events[index - 1]
    }

    /// Whether `id` is `ancestor` or below it, by the shadow's parent links.
    func isInSubtree(_ id: ControllerID, of ancestor: ControllerID) -> Bool {
        var current: ControllerID? = id
        var steps = 0
        while let node = current, steps <= parent.count {
            if node == ancestor { return true }
            current = parent[node]
            steps += 1
        }
        return false
    }

    /// Whether `view` is a control in a navigation or tab container's bar, or a split's showPrimary button (SPEC §15),
    /// by the shadow.
    func isBarControl(_ view: ViewID) -> Bool {
        if view.name == "showPrimary", kinds[view.owner] == .split, superviewOf[view] == .root(view.owner) {
            return true
        }
        guard let name = view.name, kinds[view.owner] == .navigation || kinds[view.owner] == .tab,
            superviewOf[view] == ViewID(owner: view.owner, name: "bar")
        else { return false }
        return name == "back" || name == "edit" || name.hasPrefix("left-") || name.hasPrefix("right-")
            || name.hasPrefix("item-")
    }

    /// The container a tap on `view` goes to alone, by the shadow: a bar control's (SPEC §15), or for a row of a More
    /// list, its tab container (§16).
    func controlContainer(_ view: ViewID) -> ControllerID? {
        if isBarControl(view) { return view.owner }
        guard let name = view.name, name.hasPrefix("row-"), let tab = view.owner.moreTab, kinds[tab] == .tab,
            view.owner == .moreList(of: tab), superviewOf[view] == .root(view.owner)
        else { return nil }
        return tab
    }

    /// The event that follows `event` (its first occurrence) in `events`.
    static func event(after event: Event, in events: [Event]) -> Event? {
        guard let index = events.firstIndex(of: event), index + 1 < events.count else { return nil }
        return events[index + 1]
    }

    /// What is wrong with a responder chain walked for `name`, by the shadow: a link that is not one, a handler that
    /// is not last or does not handle it, a controller that handles it walked past.
    func chainProblems(
        _ event: Event,
        chain: [ControllerID],
        handler: ControllerID?,
        name: String,
        propertiesOf: (ControllerID) -> ControllerProperties?
    ) -> [String] {
        var problems: [String] = []
        func handles(_ id: ControllerID) -> Bool {
            (kinds[id] == .menu && (name == "tap" || name == "threeFingerTap"))
                || (kinds[id] == .page && name == "swipe")
                || propertiesOf(id)?.handles.contains(name) == true
        }
        for (earlier, later) in zip(chain, chain.dropFirst()) {
            let superview = superviewOf[.root(earlier)]
            let linked = superview.map { $0.owner == later } ?? (presentationOf[earlier]?.context == later)
            if !linked { problems.append("\(event): \(later) does not follow \(earlier) on the chain") }
            if handles(earlier) { problems.append("\(event): \(earlier) handles it but was walked past") }
        }
        if let handler, handler != chain.last || !handles(handler) {
            problems.append("\(event): \(handler) is not the last of the chain or does not handle it")
        }
        return problems
    }
}
