/// Where a controller stands in a containment move (SPEC §2): `willMove(toParent:)` received, not yet settled.
public enum MoveState: Hashable, Sendable {
    /// No move under way.
    case settled
    /// `willMove(toParent:)` was received with this parent (`nil`: about to leave its parent).
    case willMove(to: ControllerID?)
}

/// One node of the tree (SPEC §1).
public struct Controller: Hashable, Sendable {
    public let id: ControllerID
    public let kind: Kind
    public var properties: ControllerProperties
    public internal(set) var parent: ControllerID?
    public internal(set) var children: [ControllerID] = []
    public internal(set) var presenting: ControllerID?
    public internal(set) var presented: ControllerID?
    public internal(set) var appearance = AppearanceState.disappeared
    public internal(set) var move = MoveState.settled
    /// A tab or menu container's selected child (a navigation controller's top is its last child).
    public internal(set) var selected: ControllerID?
    /// Whether a menu container shows its menu view.
    public internal(set) var menuVisible = false
    /// The names of the subviews it created (its root view is not listed), in creation order.
    public internal(set) var subviewNames: [String] = []
    /// Creation order: it orders parentless controllers in the tree order of callbacks.
    public let serial: Int

    init(id: ControllerID, kind: Kind, properties: ControllerProperties, serial: Int) {
        self.id = id
        self.kind = kind
        self.properties = properties
        self.serial = serial
    }

    public var rootView: ViewID { .root(id) }
}

/// A view (SPEC §1). It exists only while its owner's views are loaded.
public struct View: Hashable, Sendable {
    public let id: ViewID
    public internal(set) var frame = Rect.zero
    public internal(set) var alpha = 1.0
    public internal(set) var hidden = false
    public internal(set) var superview: ViewID?
    public internal(set) var subviews: [ViewID] = []
    /// Who set the frame last (`nil`: never set since the view loaded).
    public internal(set) var frameSetBy: Party?

    init(id: ViewID) { self.id = id }
}

/// A named display with a size; its root controller fills it (SPEC §1).
public struct Window: Hashable, Sendable {
    public let id: WindowID
    public internal(set) var size: Size
    public internal(set) var root: ControllerID
}

/// A `transition(from:to:)` that began and has not completed (SPEC §5).
public struct RunningTransition: Hashable, Sendable {
    public let parent: ControllerID
    public let from: ControllerID
    public let to: ControllerID
    public let duration: Double
    /// The controllers that began appearing when the new view went in (its subtree, and presentations standing on
    /// it): the completion ends exactly these.
    public let appearing: [ControllerID]

    public init(
        parent: ControllerID,
        from: ControllerID,
        to: ControllerID,
        duration: Double,
        appearing: [ControllerID] = []
    ) {
        self.parent = parent
        self.from = from
        self.to = to
        self.duration = duration
        self.appearing = appearing
    }
}

/// A presented controller's presentation (SPEC §7): who asked, which controller's context it covers, how.
public struct Presentation: Hashable, Sendable {
    /// The controller that asked to present.
    public let presenter: ControllerID
    /// The context controller: `presented.presenting`, the one whose `presented` it is.
    public let context: ControllerID
    public let style: ModalPresentationStyle
    public let transitionStyle: ModalTransitionStyle
    /// Whether it takes the context's subtree off screen (full screen, current context, a sheet that fell back).
    public let hidesContext: Bool

    public init(
        presenter: ControllerID,
        context: ControllerID,
        style: ModalPresentationStyle,
        transitionStyle: ModalTransitionStyle,
        hidesContext: Bool
    ) {
        self.presenter = presenter
        self.context = context
        self.style = style
        self.transitionStyle = transitionStyle
        self.hidesContext = hidesContext
    }
}
