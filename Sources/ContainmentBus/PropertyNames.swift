import ContainmentModel

/// A controller's properties as people write them — `ctl create` flags, topology keys — each optional, turned into
/// ``ControllerProperties`` by the one parser every reader shares (the wire's).
public struct PropertyNames: Sendable, Equatable {
    public var manualAppearance = false
    public var manualSizeTransitions = false
    public var definesPresentationContext: Bool?
    public var providesPresentationContextTransitionStyle: Bool?
    public var presentationStyle: String?
    public var transitionStyle: String?
    public var title: String?
    public var tabItem: String?
    public var navigationItem: String?
    public var pageStyle: String?
    public var spine: String?
    public var doubleSided: Bool?
    public var pages: [String] = []
    public var pageDataSource: String?
    public var splitFraction: Double?
    public var displayMode: String?
    public var delegate: String?
    public var backTitle: String?
    public var leftItems: [String] = []
    public var rightItems: [String] = []
    public var badge: String?
    public var toolbarItems: [String] = []
    public var handles: [String] = []
    public var orientations: [String] = []
    /// `[width, height]`.
    public var preferredContentSize: [Double]?

    public init() {}

    /// The properties, or `malformed` naming the value that is not one.
    public func properties() throws(ContainmentError) -> ControllerProperties {
        var wire = Containment_V1_Properties()
        if manualAppearance { wire.automaticallyForwardsAppearance = false }
        if manualSizeTransitions { wire.automaticallyForwardsSizeTransitions = false }
        if let definesPresentationContext { wire.definesPresentationContext = definesPresentationContext }
        if let providesPresentationContextTransitionStyle {
            wire.providesPresentationContextTransitionStyle = providesPresentationContextTransitionStyle
        }
        if let presentationStyle { wire.modalPresentationStyle = presentationStyle }
        if let transitionStyle { wire.modalTransitionStyle = transitionStyle }
        if let title { wire.title = title }
        if let tabItem { wire.tabItem = tabItem }
        if let navigationItem { wire.navigationItem = navigationItem }
        if let pageStyle { wire.pageTransitionStyle = pageStyle }
        if let spine { wire.spineLocation = spine }
        if let doubleSided { wire.doubleSided = doubleSided }
        wire.pageSequence = pages
        if let pageDataSource { wire.pageDataSource = pageDataSource }
        if let splitFraction { wire.splitFraction = splitFraction }
        if let displayMode { wire.splitDisplayMode = displayMode }
        if let delegate { wire.delegate = delegate }
        if let backTitle { wire.navigationBackTitle = backTitle }
        wire.navigationLeftItems = leftItems
        wire.navigationRightItems = rightItems
        if let badge { wire.tabBadge = badge }
        wire.toolbarItems = toolbarItems
        wire.handles = handles
        wire.supportedOrientations = orientations
        if let preferredContentSize {
            guard preferredContentSize.count == 2 else {
                throw .malformed("A preferred content size is [width, height], not \(preferredContentSize).")
            }
            wire.preferredContentSize = Containment_V1_Size(
                Size(width: preferredContentSize[0], height: preferredContentSize[1])
            )
        }
        return try wire.model()
    }
}
