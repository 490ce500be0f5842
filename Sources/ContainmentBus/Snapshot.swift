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
                view: state.views[controller.rootView]
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
    public init(_ controller: Controller, host: String, view: View?) {
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
