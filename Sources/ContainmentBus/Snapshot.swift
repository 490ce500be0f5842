import ContainmentModel

extension WireSnapshot {
    /// The whole state after event `seq`, with each controller's host and the hosts' status.
    public init(
        state: ContainmentState,
        seq: UInt64,
        hosts: [Containment_V1_HostState],
        hostOf: (ControllerID) -> String
    ) {
        self.init()
        self.seq = seq
        controllers = state.controllers.values.sorted { $0.serial < $1.serial }.map { controller in
            Containment_V1_ControllerState(
                controller,
                host: hostOf(controller.id),
                view: state.views[controller.rootView],
                constraints: state.layouts[controller.id]?.entries.filter { !$0.isContainers } ?? []
            )
        }
        windows = state.windows.values.sorted { $0.id < $1.id }.map(Containment_V1_WindowState.init)
        self.hosts = hosts.sorted { $0.name < $1.name }
        views = state.views.values.sorted { $0.id.description < $1.id.description }.map { view in
            .with {
                $0.id = view.id.description
                $0.frame = Containment_V1_Rect(view.frame)
                $0.alpha = view.alpha
                $0.hidden = view.hidden
                if let superview = view.superview { $0.superview = superview.description }
                $0.subviews = view.subviews.map(\.description)
            }
        }
        transitions = state.transitions.map { transition in
            .with {
                $0.parent = transition.parent.rawValue
                $0.from = transition.from.rawValue
                $0.to = transition.to.rawValue
                $0.duration = transition.duration
            }
        }
    }
}

extension Containment_V1_ControllerState {
    public init(_ controller: Controller, host: String, view: View?, constraints: [Layout.Entry] = []) {
        self.init()
        id = controller.id.rawValue
        kind = controller.kind.rawValue
        self.host = host
        if let parent = controller.parent { self.parent = parent.rawValue }
        children = controller.children.map(\.rawValue)
        appearance = controller.appearance.rawValue
        viewLoaded = view != nil
        if let view { frame = Containment_V1_Rect(view.frame) }
        if let presenting = controller.presenting { self.presenting = presenting.rawValue }
        if let presented = controller.presented { self.presented = presented.rawValue }
        properties = Containment_V1_Properties(controller.properties)
        if let selected = controller.selected { self.selected = selected.rawValue }
        menuVisible = controller.menuVisible
        if case .willMove(let parent) = controller.move {
            moving = true
            if let parent { movingTo = parent.rawValue }
        }
        self.constraints = constraints.map { entry in
            .with {
                $0.id = entry.id
                $0.expression = entry.constraint.description
            }
        }
    }
}

extension Containment_V1_WindowState {
    /// A window as snapshots and checkpoints carry it.
    public init(_ window: Window) {
        self.init()
        id = window.id.rawValue
        root = window.root.rawValue
        size = Containment_V1_Size(window.size)
        orientation = window.orientation.rawValue
    }

    /// The window it describes (an empty orientation: the one a window of its size starts in).
    public func model() throws(ContainmentError) -> Window {
        Window(
            restoring: WindowID(id),
            size: size.model,
            root: ControllerID(root),
            orientation: orientation.isEmpty ? nil : try Orientation.named(orientation, as: "orientation")
        )
    }
}

extension Containment_V1_ControllerState {
    /// The controller it describes, in model types.
    public func model() throws(ContainmentError) -> ControllerState {
        func optionalID(_ present: Bool, _ text: String, _ field: String) throws(ContainmentError) -> ControllerID? {
            present ? try controllerID(text, field: field) : nil
        }
        guard let appearance = AppearanceState(rawValue: appearance) else {
            throw .malformed(
                "appearance \"\(appearance)\" is not one of disappeared, appearing, appeared, disappearing."
            )
        }
        var children: [ControllerID] = []
        for child in self.children { children.append(try controllerID(child, field: "children")) }
        var constraints: [Layout.Entry] = []
        for wire in self.constraints {
            constraints.append(Layout.Entry(id: wire.id, constraint: try LayoutConstraint(parsing: wire.expression)))
        }
        return ControllerState(
            id: try controllerID(id, field: "id"),
            kind: Kind(kind),
            host: host,
            parent: try optionalID(hasParent, parent, "parent"),
            children: children,
            appearance: appearance,
            viewLoaded: viewLoaded,
            frame: hasFrame ? frame.model : nil,
            presenting: try optionalID(hasPresenting, presenting, "presenting"),
            presented: try optionalID(hasPresented, presented, "presented"),
            properties: try properties.model(),
            selected: try optionalID(hasSelected, selected, "selected"),
            menuVisible: menuVisible,
            constraints: constraints,
            move: moving ? .willMove(to: try optionalID(hasMovingTo, movingTo, "moving_to")) : .settled
        )
    }
}

extension Containment_V1_ViewState {
    /// The view it describes, in model types.
    public func model() throws(ContainmentError) -> ViewState {
        var subviews: [ViewID] = []
        for subview in self.subviews { subviews.append(try viewID(subview, field: "subviews")) }
        return ViewState(
            id: try viewID(id, field: "id"),
            frame: frame.model,
            alpha: alpha,
            hidden: hidden,
            superview: hasSuperview ? try viewID(superview, field: "superview") : nil,
            subviews: subviews
        )
    }
}

extension WireSnapshot {
    /// Its controllers and views, in model types.
    public func model() throws(ContainmentError) -> TreeSnapshot {
        var controllers: [ControllerState] = []
        controllers.reserveCapacity(self.controllers.count)
        for controller in self.controllers { controllers.append(try controller.model()) }
        var views: [ViewID: ViewState] = [:]
        views.reserveCapacity(self.views.count)
        for view in self.views {
            let state = try view.model()
            views[state.id] = state
        }
        return TreeSnapshot(
            seq: seq,
            controllers: controllers,
            views: views,
            hosts: hosts.map { HostStatus(name: $0.name, pid: $0.pid, up: $0.up) }
        )
    }
}
