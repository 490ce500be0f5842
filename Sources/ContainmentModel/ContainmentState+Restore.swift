/// Restoring a state from its stored fields (a supervisor's checkpoint): every field a rule reads is given back as it
/// was, so the restored state applies the next command exactly as the saved one would.
extension ContainmentState {
    /// The creation counter: the serial the next created controller gets.
    public var serialCounter: Int { nextSerial }

    /// A state holding exactly these controllers, views, windows, running transitions and presentations.
    public init(
        restoring controllers: [Controller],
        views: [View],
        windows: [Window],
        transitions: [RunningTransition],
        presentations: [ControllerID: Presentation],
        serialCounter: Int
    ) {
        self.init()
        self.controllers.reserveCapacity(controllers.count)
        // In creation order, as the table keeps them.
        for controller in controllers.sorted(by: { $0.serial < $1.serial }) {
            self.controllers[controller.id] = controller
        }
        self.views.reserveCapacity(views.count)
        for view in views { self.views[view.id] = view }
        for window in windows { self.windows[window.id] = window }
        self.transitions = transitions
        for (presented, presentation) in presentations { self.presentations[presented] = presentation }
        nextSerial = serialCounter
    }

    /// Gives `owner` back its constraints (SPEC §16), in the order they were added, each checked as its owner's command
    /// (a container's own as its container adds it), publishing nothing and moving nothing: the frames, which already
    /// hold them, stay (each view's stay weighs the same in any layout, so the solution is the one saved; solving after
    /// each could move a view there and back). A constraint the restored tree refuses is thrown.
    public mutating func restore(constraints entries: [Layout.Entry], of owner: ControllerID) throws(ContainmentError) {
        for entry in entries {
            clearJournal()
            do {
                if entry.isContainers {
                    try install(entry.constraint, id: entry.id, of: owner, applying: false)
                } else {
                    try constrain(owner, id: entry.id, entry.constraint, by: .controller(owner), applying: false)
                }
            } catch {
                rollBack()
                throw error
            }
            _ = commit()
        }
    }
}

extension Controller {
    /// A controller with every stored field given.
    public init(
        restoring id: ControllerID,
        kind: Kind,
        properties: ControllerProperties,
        serial: Int,
        parent: ControllerID?,
        children: [ControllerID],
        presenting: ControllerID?,
        presented: ControllerID?,
        appearance: AppearanceState,
        move: MoveState,
        selected: ControllerID?,
        menuVisible: Bool,
        subviewNames: [String]
    ) {
        self.init(
            fields: Fields(
                id: id,
                kind: kind,
                properties: properties,
                parent: parent,
                children: children,
                presenting: presenting,
                presented: presented,
                appearance: appearance,
                move: move,
                selected: selected,
                menuVisible: menuVisible,
                subviewNames: subviewNames,
                serial: serial
            )
        )
    }
}

extension View {
    /// A view with every stored field given.
    public init(
        restoring id: ViewID,
        frame: Rect,
        alpha: Double,
        hidden: Bool,
        superview: ViewID?,
        subviews: [ViewID],
        frameSetBy: Party?
    ) {
        self.init(
            fields: Fields(
                id: id,
                frame: frame,
                alpha: alpha,
                hidden: hidden,
                superview: superview,
                subviews: subviews,
                frameSetBy: frameSetBy
            )
        )
    }
}

extension Window {
    /// A window of this size with this root.
    /// `orientation` `nil`: the one a window of that size starts in.
    public init(restoring id: WindowID, size: Size, root: ControllerID, orientation: Orientation? = nil) {
        self.init(id: id, size: size, root: root, orientation: orientation)
    }
}
