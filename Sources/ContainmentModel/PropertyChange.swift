/// One property `setProperties` changes (SPEC §13): its new value.
public enum PropertyChange: Hashable, Sendable {
    case title(String?)
    case navigationItem(NavigationItem)
    case tabItem(TabItem)
    case toolbarItems([String])
    case delegate(ControllerID?)
    case handles([String])
    case supportedOrientations(Set<Orientation>)
    case preferredContentSize(Size?)
    case definesPresentationContext(Bool)
    case providesPresentationContextTransitionStyle(Bool)
    case modalPresentationStyle(ModalPresentationStyle)
    case modalTransitionStyle(ModalTransitionStyle)

    /// Every name, in the order SPEC §13 lists them: what `propertiesChanged` reports and the wire names.
    public static let names = [
        "title", "navigationItem", "tabItem", "toolbarItems", "delegate", "handles", "supportedOrientations",
        "preferredContentSize", "definesPresentationContext", "providesPresentationContextTransitionStyle",
        "modalPresentationStyle", "modalTransitionStyle",
    ]

    /// The property's name.
    public var name: String {
        switch self {
        case .title: "title"
        case .navigationItem: "navigationItem"
        case .tabItem: "tabItem"
        case .toolbarItems: "toolbarItems"
        case .delegate: "delegate"
        case .handles: "handles"
        case .supportedOrientations: "supportedOrientations"
        case .preferredContentSize: "preferredContentSize"
        case .definesPresentationContext: "definesPresentationContext"
        case .providesPresentationContextTransitionStyle: "providesPresentationContextTransitionStyle"
        case .modalPresentationStyle: "modalPresentationStyle"
        case .modalTransitionStyle: "modalTransitionStyle"
        }
    }

    /// The change named `name`, with the value `properties` holds for it.
    public init?(named name: String, from properties: ControllerProperties) {
        switch name {
        case "title": self = .title(properties.title)
        case "navigationItem": self = .navigationItem(properties.navigationItem)
        case "tabItem": self = .tabItem(properties.tabItem)
        case "toolbarItems": self = .toolbarItems(properties.toolbarItems)
        case "delegate": self = .delegate(properties.delegate)
        case "handles": self = .handles(properties.handles)
        case "supportedOrientations": self = .supportedOrientations(properties.supportedOrientations)
        case "preferredContentSize": self = .preferredContentSize(properties.preferredContentSize)
        case "definesPresentationContext": self = .definesPresentationContext(properties.definesPresentationContext)
        case "providesPresentationContextTransitionStyle":
            self = .providesPresentationContextTransitionStyle(properties.providesPresentationContextTransitionStyle)
        case "modalPresentationStyle": self = .modalPresentationStyle(properties.modalPresentationStyle)
        case "modalTransitionStyle": self = .modalTransitionStyle(properties.modalTransitionStyle)
        default: return nil
        }
    }

    /// Sets the value in `properties`.
    public func apply(to properties: inout ControllerProperties) {
        switch self {
        case .title(let value): properties.title = value
        case .navigationItem(let value): properties.navigationItem = value
        case .tabItem(let value): properties.tabItem = value
        case .toolbarItems(let value): properties.toolbarItems = value
        case .delegate(let value): properties.delegate = value
        case .handles(let value): properties.handles = value
        case .supportedOrientations(let value): properties.supportedOrientations = value
        case .preferredContentSize(let value): properties.preferredContentSize = value
        case .definesPresentationContext(let value): properties.definesPresentationContext = value
        case .providesPresentationContextTransitionStyle(let value):
            properties.providesPresentationContextTransitionStyle = value
        case .modalPresentationStyle(let value): properties.modalPresentationStyle = value
        case .modalTransitionStyle(let value): properties.modalTransitionStyle = value
        }
    }

    /// Why the value cannot be set, if it cannot: no orientation at all, a size that is negative, not finite or beyond
    /// 1e9 points.
    var problem: String? {
        switch self {
        case .supportedOrientations(let value) where value.isEmpty:
            "A controller supports at least one orientation."
        case .preferredContentSize(let size?) where !size.isValid:
            "A preferred content size is from 0 to 1e9 points, not \(size)."
        default:
            nil
        }
    }
}
