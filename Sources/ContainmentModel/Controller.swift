/// Where a controller stands in a containment move (SPEC §2): `willMove(toParent:)` received, not yet settled.
public enum MoveState: Hashable, Sendable {
    /// No move under way.
    case settled
    /// `willMove(toParent:)` was received with this parent (`nil`: about to leave its parent).
    case willMove(to: ControllerID?)
}

/// One node of the tree (SPEC §1).
///
/// Its fields live in a shared box, copied on write: reading a controller out of the state costs one reference count,
/// and the state changes the box in place when it holds the only reference.
public struct Controller: Hashable, Sendable {
    /// The stored fields of a controller; the journaled updates of the state change these.
    struct Fields: Hashable, Sendable {
        let id: ControllerID
        let kind: Kind
        var properties: ControllerProperties
        var parent: ControllerID?
        var children: [ControllerID] = []
        var presenting: ControllerID?
        var presented: ControllerID?
        var appearance = AppearanceState.disappeared
        var move = MoveState.settled
        var selected: ControllerID?
        var menuVisible = false
        var subviewNames: [String] = []
        let serial: Int
    }

    private var box: Box<Fields>

    init(id: ControllerID, kind: Kind, properties: ControllerProperties, serial: Int) {
        box = Box(Fields(id: id, kind: kind, properties: properties, serial: serial))
    }

    /// A controller with these fields (a restored checkpoint).
    init(fields: Fields) { box = Box(fields) }

    /// Applies `change` to the fields: in place when this is the box's only reference, in a new box when the box is
    /// shared (copy-on-write).
    mutating func modify(_ change: (inout Fields) -> Void) {
        if !isKnownUniquelyReferenced(&box) { box = Box(box.value) }
        change(&box.value)
    }

    /// The stored fields.
    var fields: Fields { box.value }

    public var id: ControllerID { box.value.id }
    public var kind: Kind { box.value.kind }
    public var properties: ControllerProperties {
        get { box.value.properties }
        set { modify { $0.properties = newValue } }
    }
    public internal(set) var parent: ControllerID? {
        get { box.value.parent }
        set { modify { $0.parent = newValue } }
    }
    public internal(set) var children: [ControllerID] {
        get { box.value.children }
        set { modify { $0.children = newValue } }
    }
    public internal(set) var presenting: ControllerID? {
        get { box.value.presenting }
        set { modify { $0.presenting = newValue } }
    }
    public internal(set) var presented: ControllerID? {
        get { box.value.presented }
        set { modify { $0.presented = newValue } }
    }
    public internal(set) var appearance: AppearanceState {
        get { box.value.appearance }
        set { modify { $0.appearance = newValue } }
    }
    public internal(set) var move: MoveState {
        get { box.value.move }
        set { modify { $0.move = newValue } }
    }
    /// A tab or menu container's selected child (a navigation controller's top is its last child).
    public internal(set) var selected: ControllerID? {
        get { box.value.selected }
        set { modify { $0.selected = newValue } }
    }
    /// Whether a menu container shows its menu view.
    public internal(set) var menuVisible: Bool {
        get { box.value.menuVisible }
        set { modify { $0.menuVisible = newValue } }
    }
    /// The names of the subviews it created (its root view is not listed), in creation order.
    public internal(set) var subviewNames: [String] {
        get { box.value.subviewNames }
        set { modify { $0.subviewNames = newValue } }
    }
    /// Creation order: it orders parentless controllers in the tree order of callbacks.
    public var serial: Int { box.value.serial }

    public var rootView: ViewID { .root(id) }
}

/// A view (SPEC §1). It exists only while its owner's views are loaded.
///
/// Like a ``Controller``, its fields live in a box copied on write.
public struct View: Hashable, Sendable {
    /// The stored fields of a view; the journaled updates of the state change these.
    struct Fields: Hashable, Sendable {
        let id: ViewID
        var frame = Rect.zero
        var alpha = 1.0
        var hidden = false
        var superview: ViewID?
        var subviews: [ViewID] = []
        var frameSetBy: Party?
    }

    private var box: Box<Fields>

    init(id: ViewID) { box = Box(Fields(id: id)) }

    /// A view with these fields (a restored checkpoint).
    init(fields: Fields) { box = Box(fields) }

    /// Applies `change` to the fields: in place when this is the box's only reference, in a new box when the box is
    /// shared (copy-on-write).
    mutating func modify(_ change: (inout Fields) -> Void) {
        if !isKnownUniquelyReferenced(&box) { box = Box(box.value) }
        change(&box.value)
    }

    /// The stored fields.
    var fields: Fields { box.value }

    public var id: ViewID { box.value.id }
    public internal(set) var frame: Rect {
        get { box.value.frame }
        set { modify { $0.frame = newValue } }
    }
    public internal(set) var alpha: Double {
        get { box.value.alpha }
        set { modify { $0.alpha = newValue } }
    }
    public internal(set) var hidden: Bool {
        get { box.value.hidden }
        set { modify { $0.hidden = newValue } }
    }
    public internal(set) var superview: ViewID? {
        get { box.value.superview }
        set { modify { $0.superview = newValue } }
    }
    public internal(set) var subviews: [ViewID] {
        get { box.value.subviews }
        set { modify { $0.subviews = newValue } }
    }
    /// Who set the frame last (`nil`: never set since the view loaded).
    public internal(set) var frameSetBy: Party? {
        get { box.value.frameSetBy }
        set { modify { $0.frameSetBy = newValue } }
    }
}

/// A box of a value, copied on write by the value type that holds it (``Controller``, ``View``).
///
/// `@unchecked Sendable` is safe: `value` is written only by `Controller.modify` and `View.modify` (`fileprivate(set)`:
/// the compiler holds every other code to reading it), and only after
/// `isKnownUniquelyReferenced` found the box held by that one value alone, so no other copy, on any thread, can
/// read it while it changes (the copy-on-write rule of the standard library's collections). A shared box is never
/// written. For the same reason no two accesses to `value` can overlap, so the run-time exclusivity check (a tenth of
/// the model's instructions) is left out.
final class Box<Value: Hashable & Sendable>: Hashable, @unchecked Sendable {
    @exclusivity(unchecked) fileprivate(set) var value: Value

    init(_ value: Value) { self.value = value }

    static func == (lhs: Box, rhs: Box) -> Bool { lhs === rhs || lhs.value == rhs.value }
    func hash(into hasher: inout Hasher) { hasher.combine(value) }
}

/// A named display with a size; its root controller fills it (SPEC §1).
public struct Window: Hashable, Sendable {
    public let id: WindowID
    public internal(set) var size: Size
    public internal(set) var root: ControllerID
    /// How the device is held (SPEC §13): `rotate` changes it.
    public internal(set) var orientation: Orientation

    init(id: WindowID, size: Size, root: ControllerID, orientation: Orientation? = nil) {
        self.id = id
        self.size = size
        self.root = root
        self.orientation = orientation ?? Orientation.initial(for: size)
    }
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
    /// What the container that began it does when it completes (an animated switch, SPEC §13).
    public let end: TransitionEnd

    public init(
        parent: ControllerID,
        from: ControllerID,
        to: ControllerID,
        duration: Double,
        appearing: [ControllerID] = [],
        end: TransitionEnd = .plain
    ) {
        self.parent = parent
        self.from = from
        self.to = to
        self.duration = duration
        self.appearing = appearing
        self.end = end
    }
}

/// The rest of a standard container's animated switch, done when its timed transition completes (SPEC §13).
public enum TransitionEnd: Hashable, Sendable {
    /// A transition of its own (SPEC §5): nothing more.
    case plain
    /// A navigation controller's push, pop or new stack: the controllers that arrived get `didMove`, the ones that
    /// left leave (`didMove(toParent: nil)`), then `navigationDidShow` of the shown one, saying who asked (SPEC §15).
    case navigation(shown: ControllerID, arrived: [ControllerID], left: [ControllerID], requestedBy: Party)
    /// A page container's page turn: the page that left leaves, the one that arrived settles, then `pagesChanged`,
    /// saying who asked.
    case pages(
        arrived: [ControllerID],
        left: [ControllerID],
        pages: [ControllerID],
        direction: PageDirection,
        requestedBy: Party
    )
    /// A menu's menu view shown or hidden: it settles (hidden at the end when hiding), then `menuVisibilityChanged`.
    case menu(visible: Bool)
    /// An animated presentation (`to` presented on `parent`, its context): at completion the presented controllers'
    /// did-appear, then the covered ones' did-disappear (`disappearing`), then `presented`.
    case presentation(disappearing: [ControllerID])
    /// An animated dismissal of `from`, the lowest of its chain, from `parent`, its context: at completion the links
    /// go, its did-disappear (`disappearing`), the context's did-appear, then `dismissed`.
    case dismissal(disappearing: [ControllerID])
}

/// A presented controller's presentation (SPEC §7): who asked, which controller's context it covers, how.
///
/// Its fields are kept in one shared, immutable box: a `Presentation?` of one word is copied inline, where one of
/// seven words went through the runtime's generic witnesses at every lookup (docs/BENCH.md, the model).
public struct Presentation: Hashable, Sendable {
    private final class Fields: Sendable {
        let presenter: ControllerID
        let context: ControllerID
        let style: ModalPresentationStyle
        let transitionStyle: ModalTransitionStyle
        let hidesContext: Bool
        let anchor: ViewID?

        init(
            presenter: ControllerID,
            context: ControllerID,
            style: ModalPresentationStyle,
            transitionStyle: ModalTransitionStyle,
            hidesContext: Bool,
            anchor: ViewID?
        ) {
            self.presenter = presenter
            self.context = context
            self.style = style
            self.transitionStyle = transitionStyle
            self.hidesContext = hidesContext
            self.anchor = anchor
        }
    }

    private let fields: Fields

    /// The controller that asked to present.
    public var presenter: ControllerID { fields.presenter }
    /// The context controller: `presented.presenting`, the one whose `presented` it is.
    public var context: ControllerID { fields.context }
    public var style: ModalPresentationStyle { fields.style }
    public var transitionStyle: ModalTransitionStyle { fields.transitionStyle }
    /// Whether it takes the context's subtree off screen (full screen, current context, a sheet that fell back).
    public var hidesContext: Bool { fields.hidesContext }
    /// A popover's anchor: the view of the presenter's tree it stands beside (SPEC §13); `nil` for other styles.
    public var anchor: ViewID? { fields.anchor }

    public static func == (lhs: Presentation, rhs: Presentation) -> Bool {
        lhs.fields === rhs.fields
            || (lhs.presenter == rhs.presenter && lhs.context == rhs.context && lhs.style == rhs.style
                && lhs.transitionStyle == rhs.transitionStyle && lhs.hidesContext == rhs.hidesContext
                && lhs.anchor == rhs.anchor)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(presenter)
        hasher.combine(context)
        hasher.combine(style)
        hasher.combine(transitionStyle)
        hasher.combine(hidesContext)
        hasher.combine(anchor)
    }

    /// Whether it covers the whole window, whatever its context: full screen (over or not), or a sheet that fell back
    /// to full screen. The top-most such presented controller decides the window's orientation (SPEC §13).
    public var coversWindow: Bool {
        switch style {
        case .fullScreen, .overFullScreen: true
        case .pageSheet, .formSheet: hidesContext
        case .currentContext, .overCurrentContext, .popover: false
        }
    }

    /// Whether a point outside it reaches nothing behind it (SPEC §12, seed 002: no presentation style lets the
    /// content it covers take touches): full screen, current context, a form or page sheet (in its sheet form too:
    /// the dimmed area takes no touches) and a popover (which the point also dismisses). Only the `over…` styles
    /// pass such a point to what lies behind.
    public var swallowsTouchesOutside: Bool {
        switch style {
        case .fullScreen, .currentContext, .pageSheet, .formSheet, .popover: true
        case .overFullScreen, .overCurrentContext: false
        }
    }

    public init(
        presenter: ControllerID,
        context: ControllerID,
        style: ModalPresentationStyle,
        transitionStyle: ModalTransitionStyle,
        hidesContext: Bool,
        anchor: ViewID? = nil
    ) {
        fields = Fields(
            presenter: presenter,
            context: context,
            style: style,
            transitionStyle: transitionStyle,
            hidesContext: hidesContext,
            anchor: anchor
        )
    }
}
