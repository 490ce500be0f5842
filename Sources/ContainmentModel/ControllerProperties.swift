/// How a presented controller covers its presenter (SPEC §7).
public enum ModalPresentationStyle: String, Hashable, Sendable, CaseIterable {
    case fullScreen, pageSheet, formSheet, currentContext, overFullScreen, overCurrentContext
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
public struct ControllerProperties: Hashable, Sendable {
    public var automaticallyForwardsAppearance = true
    public var automaticallyForwardsSizeTransitions = true
    public var definesPresentationContext = false
    public var providesPresentationContextTransitionStyle = false
    public var modalPresentationStyle = ModalPresentationStyle.fullScreen
    public var modalTransitionStyle = ModalTransitionStyle.coverVertical
    public var title: String?
    /// Container item metadata: the tab bar item's title.
    public var tabItem: String?
    /// Container item metadata: the navigation item's title.
    public var navigationItem: String?
    // Page containers (SPEC §8)
    public var pageTransitionStyle = PageTransitionStyle.pageCurl
    public var spineLocation = SpineLocation.min
    public var doubleSided = false
    /// The data source: the book, in order; `next` and `previous` turn through it.
    public var pageSequence: [ControllerID] = []
    /// Another controller serving as the data source: its `pageSequence` is the book.
    public var pageDataSource: ControllerID?
    // Split containers (SPEC §8)
    /// The primary column's share of the width.
    public var splitFraction = 0.4
    public var splitDisplayMode = SplitDisplayMode.allVisible

    public init() {}

    /// The defaults with manual appearance forwarding (seed 000, listing 14-4).
    public static var manualAppearance: ControllerProperties {
        var properties = ControllerProperties()
        properties.automaticallyForwardsAppearance = false
        return properties
    }
}
