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
    /// The controller's own published state, replaced whole (``ControllerProperties/state``).
    case state([String: String])

    /// Every name, in the order SPEC §13 lists them: what `propertiesChanged` reports and the wire names.
    public static let names = [
        "title", "navigationItem", "tabItem", "toolbarItems", "delegate", "handles", "supportedOrientations",
        "preferredContentSize", "definesPresentationContext", "providesPresentationContextTransitionStyle",
        "modalPresentationStyle", "modalTransitionStyle", "state",
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
        case .state: "state"
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
        case "state": self = .state(properties.state)
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
        case .state(let value): properties.state = value
        }
    }

    /// The most entries a controller's published state holds, and the longest key and value, in UTF-8 bytes.
    package static let stateLimits = (entries: 64, keyBytes: 128, valueBytes: 4_096)

    /// Why the value cannot be set, if it cannot: no orientation at all, a size that is negative, not finite or beyond
    /// 1e9 points, a published state beyond ``stateLimits`` or with an empty key.
    var problem: String? {
        switch self {
        case .state(let value):
            Self.stateProblem(value)
        case .supportedOrientations(let value) where value.isEmpty:
            "A controller supports at least one orientation."
        case .preferredContentSize(let size?) where !size.isValid:
            "A preferred content size is from 0 to 1e9 points, not \(size)."
        default:
            nil
        }
    }
}

extension PropertyChange {
    static func stateProblem(_ state: [String: String]) -> String? {
        let limits = stateLimits
        if state.count > limits.entries {
            return "A published state holds at most \(limits.entries) entries, not \(state.count)."
        }
        for (key, value) in state.sorted(by: { $0.key < $1.key }) {
            if key.isEmpty { return "A published state's key may not be empty." }
            if key.utf8.count > limits.keyBytes {
                return "A published state's key is at most \(limits.keyBytes) bytes; \(key.prefix(20))… is longer."
            }
            if value.utf8.count > limits.valueBytes {
                return
                    "A published state's value is at most \(limits.valueBytes) bytes; \(key)'s is \(value.utf8.count)."
            }
        }
        return nil
    }
}
