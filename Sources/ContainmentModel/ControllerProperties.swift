/// How a presented controller covers its presenter (SPEC §7).
public enum ModalPresentationStyle: String, Hashable, Sendable, CaseIterable {
    case fullScreen, pageSheet, formSheet, currentContext, overFullScreen, overCurrentContext
}

/// How a presented controller animates in (SPEC §7).
public enum ModalTransitionStyle: String, Hashable, Sendable, CaseIterable {
    case coverVertical, flipHorizontal, crossDissolve, partialCurl
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

    public init() {}

    /// The defaults with manual appearance forwarding (seed 000, listing 14-4).
    public static var manualAppearance: ControllerProperties {
        var properties = ControllerProperties()
        properties.automaticallyForwardsAppearance = false
        return properties
    }
}
