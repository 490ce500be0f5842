/// One controller as the supervisor reports it: where it stands in the tree, its appearance, its root view's frame and
/// its properties. A host's behavior gets it on `restored`; `ControllerRef.state()` and snapshots return it.
public struct ControllerState: Hashable, Sendable {
    public var id: ControllerID
    public var kind: Kind
    /// The host that runs it; empty for a supervisor that runs no host.
    public var host: String
    public var parent: ControllerID?
    public var children: [ControllerID]
    public var appearance: AppearanceState
    public var viewLoaded: Bool
    /// Its root view's frame, once the view is loaded.
    public var frame: Rect?
    public var presenting: ControllerID?
    public var presented: ControllerID?
    public var properties: ControllerProperties
    /// A tab's or menu's selected child.
    public var selected: ControllerID?
    /// A menu's menu view shown.
    public var menuVisible: Bool
    /// The constraints it owns (SPEC §16), in the order they were added.
    public var constraints: [Layout.Entry]
    /// Where it stands in a containment move (SPEC §2): `.willMove(to: P)` once `willMove(toParent: P)` came and
    /// until its parent calls `didMove` — a child its container's code has not finished embedding — `.willMove(to:
    /// nil)` on its way out, `.settled` otherwise.
    public var move: MoveState

    public init(
        id: ControllerID,
        kind: Kind,
        host: String = "",
        parent: ControllerID? = nil,
        children: [ControllerID] = [],
        appearance: AppearanceState = .disappeared,
        viewLoaded: Bool = false,
        frame: Rect? = nil,
        presenting: ControllerID? = nil,
        presented: ControllerID? = nil,
        properties: ControllerProperties = ControllerProperties(),
        selected: ControllerID? = nil,
        menuVisible: Bool = false,
        constraints: [Layout.Entry] = [],
        move: MoveState = .settled
    ) {
        self.id = id
        self.kind = kind
        self.host = host
        self.parent = parent
        self.children = children
        self.appearance = appearance
        self.viewLoaded = viewLoaded
        self.frame = frame
        self.presenting = presenting
        self.presented = presented
        self.properties = properties
        self.selected = selected
        self.menuVisible = menuVisible
        self.constraints = constraints
        self.move = move
    }
}

/// One view of the hierarchy (SPEC §3): its frame in its superview, and where it stands.
public struct ViewState: Hashable, Sendable {
    public var id: ViewID
    public var frame: Rect
    public var alpha: Double
    public var hidden: Bool
    public var superview: ViewID?
    public var subviews: [ViewID]

    public init(
        id: ViewID,
        frame: Rect,
        alpha: Double = 1,
        hidden: Bool = false,
        superview: ViewID? = nil,
        subviews: [ViewID] = []
    ) {
        self.id = id
        self.frame = frame
        self.alpha = alpha
        self.hidden = hidden
        self.superview = superview
        self.subviews = subviews
    }
}

/// A host process as the supervisor sees it.
public struct HostStatus: Hashable, Sendable {
    public var name: String
    /// Its process id, as it said in its `Hello`.
    public var pid: Int32
    /// Registered and beating.
    public var up: Bool

    public init(name: String, pid: Int32, up: Bool) {
        self.name = name
        self.pid = pid
        self.up = up
    }
}

/// The whole tree after event `seq`: every controller in creation order, every loaded view, and the hosts.
public struct TreeSnapshot: Hashable, Sendable {
    /// The seq of the last event it includes.
    public var seq: UInt64
    public var controllers: [ControllerState]
    public var views: [ViewID: ViewState]
    /// Every host that registered, by name.
    public var hosts: [HostStatus]

    public init(seq: UInt64, controllers: [ControllerState], views: [ViewID: ViewState], hosts: [HostStatus] = []) {
        self.seq = seq
        self.controllers = controllers
        self.views = views
        self.hosts = hosts
    }

    /// The controller with this id, if it is in the tree.
    public func controller(_ id: ControllerID) -> ControllerState? {
        controllers.first { $0.id == id }
    }

    /// The children of `parent` whose root view is in the view hierarchy (embedded, SPEC §3), in children order.
    public func embeddedChildren(of parent: ControllerID) -> [ControllerID] {
        (controller(parent)?.children ?? []).filter { views[.root($0)]?.superview != nil }
    }
}
