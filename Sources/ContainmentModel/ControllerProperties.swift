/// How a presented controller covers its presenter (SPEC §7).
public enum ModalPresentationStyle: String, Hashable, Sendable, CaseIterable {
    case fullScreen, pageSheet, formSheet, currentContext, overFullScreen, overCurrentContext, popover
}

/// How a presented controller animates in (SPEC §7).
public enum ModalTransitionStyle: String, Hashable, Sendable, CaseIterable {
    case coverVertical, flipHorizontal, crossDissolve, partialCurl
}

/// How a page container turns pages (SPEC §8).
public enum PageTransitionStyle: String, Hashable, Sendable, CaseIterable {
    case scroll, pageCurl
}

/// Where a page-curl container's spine is (SPEC §8).
public enum SpineLocation: String, Hashable, Sendable, CaseIterable {
    case none, min, mid, max
}

/// How a split container shows its primary column (SPEC §8).
public enum SplitDisplayMode: String, Hashable, Sendable, CaseIterable {
    case allVisible, primaryHidden, primaryOverlay
}

/// The settable properties of a controller, with SPEC §1's defaults.
///
/// The flags and styles the rules read are stored inline; the rest — titles, the page data source, the split
/// fraction — is rarely set, so it lives in an immutable shared box: a controller with the defaults there stores one
/// reference to the same box, which keeps a controller small and cheap to copy.
public struct ControllerProperties: Hashable, Sendable {
    public var automaticallyForwardsAppearance = true
    public var automaticallyForwardsSizeTransitions = true
    public var definesPresentationContext = false
    public var providesPresentationContextTransitionStyle = false
    public var modalPresentationStyle = ModalPresentationStyle.fullScreen
    public var modalTransitionStyle = ModalTransitionStyle.coverVertical
    // Page containers (SPEC §8)
    public var pageTransitionStyle = PageTransitionStyle.pageCurl
    public var spineLocation = SpineLocation.min
    public var doubleSided = false
    // Split containers (SPEC §8)
    public var splitDisplayMode = SplitDisplayMode.allVisible
    /// The properties that are rarely set, shared while they are the defaults.
    private var rare = RareBox.defaults

    public init() {}

    public var title: String? {
        get { rare.value.title }
        set { rare = rare.with { $0.title = newValue } }
    }
    /// Container item metadata: the tab bar item (SPEC §13).
    public var tabItem: TabItem {
        get { rare.value.tabItem }
        set { rare = rare.with { $0.tabItem = newValue } }
    }
    /// Container item metadata: the navigation item (SPEC §13).
    public var navigationItem: NavigationItem {
        get { rare.value.navigationItem }
        set { rare = rare.with { $0.navigationItem = newValue } }
    }
    /// The data source: the book, in order; `next` and `previous` turn through it.
    public var pageSequence: [ControllerID] {
        get { rare.value.pageSequence }
        set { rare = rare.with { $0.pageSequence = newValue } }
    }
    /// Another controller serving as the data source: its `pageSequence` is the book.
    public var pageDataSource: ControllerID? {
        get { rare.value.pageDataSource }
        set { rare = rare.with { $0.pageDataSource = newValue } }
    }
    /// Its delegate (SPEC §11): a controller it may send messages to, whatever their relation.
    public var delegate: ControllerID? {
        get { rare.value.delegate }
        set { rare = rare.with { $0.delegate = newValue } }
    }
    /// The primary column's share of the width.
    public var splitFraction: Double {
        get { rare.value.splitFraction }
        set { rare = rare.with { $0.splitFraction = newValue } }
    }
    /// The items a navigation controller's toolbar shows while it is the top (SPEC §13).
    public var toolbarItems: [String] {
        get { rare.value.toolbarItems }
        set { rare = rare.with { $0.toolbarItems = newValue } }
    }
    /// The input kinds and action names it handles on the responder chain (SPEC §12).
    public var handles: [String] {
        get { rare.value.handles }
        set { rare = rare.with { $0.handles = newValue } }
    }
    /// The orientations it supports (SPEC §13); never empty.
    public var supportedOrientations: Set<Orientation> {
        get { rare.value.supportedOrientations }
        set { rare = rare.with { $0.supportedOrientations = newValue } }
    }
    /// The size it prefers when presented as a popover; `nil`: 320×480 (SPEC §13).
    public var preferredContentSize: Size? {
        get { rare.value.preferredContentSize }
        set { rare = rare.with { $0.preferredContentSize = newValue } }
    }
    /// Its own published state: what a custom container shows of itself (a carousel's selection, say), free-form
    /// text values by key, for `tree`, the inspector and every subscriber. Only it (or the system) sets it, whole,
    /// with `setProperties` naming `state`.
    public var state: [String: String] {
        get { rare.value.state }
        set { rare = rare.with { $0.state = newValue } }
    }
    /// Whether it is editing: `setEditing` changes it (SPEC §13).
    public var editing: Bool {
        get { rare.value.editing }
        set { rare = rare.with { $0.editing = newValue } }
    }

    /// The defaults with manual appearance forwarding (seed 000, listing 14-4).
    public static var manualAppearance: ControllerProperties {
        var properties = ControllerProperties()
        properties.automaticallyForwardsAppearance = false
        return properties
    }
}

/// The rarely set properties of a controller, with their defaults.
private struct RareProperties: Hashable, Sendable {
    var title: String?
    var tabItem = TabItem()
    var navigationItem = NavigationItem()
    var pageSequence: [ControllerID] = []
    var pageDataSource: ControllerID?
    var splitFraction = 0.4
    var delegate: ControllerID?
    var toolbarItems: [String] = []
    var handles: [String] = []
    var supportedOrientations = Orientation.defaultSupported
    var preferredContentSize: Size?
    var state: [String: String] = [:]
    var editing = false
}

/// An immutable box of ``RareProperties``: a change makes a new box, so boxes are shared freely.
private final class RareBox: Hashable, Sendable {
    let value: RareProperties

    init(_ value: RareProperties) { self.value = value }

    /// The one box of the defaults, which every controller created with them shares.
    static let defaults = RareBox(RareProperties())

    /// A box with `change` applied: this one when nothing changed, the shared defaults when that is what it gives
    /// (a decoded controller's properties set each one, mostly to its default), else a new one.
    func with(_ change: (inout RareProperties) -> Void) -> RareBox {
        var value = value
        change(&value)
        if value == self.value { return self }
        return value == Self.defaults.value ? Self.defaults : RareBox(value)
    }

    static func == (lhs: RareBox, rhs: RareBox) -> Bool { lhs === rhs || lhs.value == rhs.value }
    func hash(into hasher: inout Hasher) { hasher.combine(value) }
}

/// What a navigation controller's bar shows for a controller (SPEC §13): its title, the back button's title when it
/// is the previous one, and bar button items.
public struct NavigationItem: Hashable, Sendable {
    public var title: String?
    public var backTitle: String?
    public var leftItems: [String] = []
    public var rightItems: [String] = []

    public init(title: String? = nil, backTitle: String? = nil, leftItems: [String] = [], rightItems: [String] = []) {
        self.title = title
        self.backTitle = backTitle
        self.leftItems = leftItems
        self.rightItems = rightItems
    }
}

/// What a tab container's bar shows for a child (SPEC §13).
public struct TabItem: Hashable, Sendable {
    public var title: String?
    public var badge: String?

    public init(title: String? = nil, badge: String? = nil) {
        self.title = title
        self.badge = badge
    }
}

/// An interface orientation (SPEC §13).
public enum Orientation: String, Hashable, Sendable, CaseIterable, Comparable {
    case portrait, portraitUpsideDown, landscapeLeft, landscapeRight

    /// Every orientation but upside down, UIKit's default on a phone.
    public static let defaultSupported: Set<Orientation> = [.portrait, .landscapeLeft, .landscapeRight]

    public var isLandscape: Bool { self == .landscapeLeft || self == .landscapeRight }

    /// The orientation a window of `size` starts in: landscape (left) when wider than tall, else portrait.
    public static func initial(for size: Size) -> Orientation { size.width > size.height ? .landscapeLeft : .portrait }

    /// In declaration order.
    public static func < (lhs: Orientation, rhs: Orientation) -> Bool { lhs.rank < rhs.rank }

    private var rank: Int {
        switch self {
        case .portrait: 0
        case .portraitUpsideDown: 1
        case .landscapeLeft: 2
        case .landscapeRight: 3
        }
    }
}
