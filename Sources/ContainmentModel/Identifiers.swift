/// The unique id of a controller (SPEC §1).
///
/// The state looks controllers and views up by id all the time, so an id hashes its text once, when it is made: the
/// state's tables (``IDTable``) use that number as it is, and hashing the id feeds only it to the hasher.
public struct ControllerID: TableKey, Comparable, Sendable, CustomStringConvertible, ExpressibleByStringLiteral {
    public let rawValue: String
    /// `rawValue.hashValue`: equal texts have equal hashes within a process, which is all a hash table needs.
    fileprivate let textHash: Int

    public init(_ rawValue: String) {
        self.rawValue = rawValue
        textHash = rawValue.hashValue
    }
    public init(stringLiteral value: String) { self.init(value) }

    public var description: String { rawValue }
    public static func < (lhs: ControllerID, rhs: ControllerID) -> Bool { lhs.rawValue < rhs.rawValue }

    public static func == (lhs: ControllerID, rhs: ControllerID) -> Bool {
        lhs.textHash == rhs.textHash && lhs.rawValue == rhs.rawValue
    }

    public func hash(into hasher: inout Hasher) { hasher.combine(textHash) }

    public var tableHash: Int { textHash }
}

/// A view: a controller's root view, or a named subview it owns.
///
/// The owner is part of the id, so "a view belongs to exactly one controller" (SPEC §3, R4) holds by
/// construction. Written `C` for the root view of `C` and `C/NAME` for a named subview.
public struct ViewID: TableKey, Sendable, CustomStringConvertible {
    public let owner: ControllerID
    /// `nil` for the root view.
    public let name: String?

    public init(owner: ControllerID, name: String? = nil) {
        self.owner = owner
        self.name = name
    }

    /// The owner's text hash, mixed with the name's when there is one (hashed here: root views are the common case).
    private var textHash: Int {
        guard let name else { return owner.textHash }
        return (owner.textHash &* 31) ^ name.hashValue
    }

    public static func == (lhs: ViewID, rhs: ViewID) -> Bool { lhs.owner == rhs.owner && lhs.name == rhs.name }

    public func hash(into hasher: inout Hasher) { hasher.combine(textHash) }

    public var tableHash: Int { textHash }

    /// The root view of `controller`.
    public static func root(_ controller: ControllerID) -> ViewID { ViewID(owner: controller) }

    public var isRoot: Bool { name == nil }

    /// Parses `C` or `C/NAME`; `nil` when the text is empty, has an empty part or a second `/`.
    public init?(parsing text: String) {
        guard let slash = text.firstIndex(of: "/") else {
            guard !text.isEmpty else { return nil }
            self.init(owner: ControllerID(text))
            return
        }
        let owner = String(text[..<slash])
        let name = String(text[text.index(after: slash)...])
        guard !owner.isEmpty, !name.isEmpty, !name.contains("/") else { return nil }
        self.init(owner: ControllerID(owner), name: name)
    }

    public var description: String {
        guard let name else { return owner.rawValue }
        return "\(owner.rawValue)/\(name)"
    }
}

/// The name of a window (a display with a size).
public struct WindowID: Hashable, Comparable, Sendable, CustomStringConvertible, ExpressibleByStringLiteral {
    public let rawValue: String

    public init(_ rawValue: String) { self.rawValue = rawValue }
    public init(stringLiteral value: String) { self.rawValue = value }

    public var description: String { rawValue }
    public static func < (lhs: WindowID, rhs: WindowID) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// A controller's kind: one of the standard kinds or a custom kind registered by a host (SPEC §1).
public struct Kind: Hashable, Sendable, CustomStringConvertible, ExpressibleByStringLiteral {
    public let rawValue: String

    public init(_ rawValue: String) { self.rawValue = rawValue }
    public init(stringLiteral value: String) { self.rawValue = value }

    public static let content: Kind = "content"
    public static let navigation: Kind = "navigation"
    public static let tab: Kind = "tab"
    public static let page: Kind = "page"
    public static let split: Kind = "split"
    public static let menu: Kind = "menu"

    /// The kinds the runtime ships.
    public static let standard: [Kind] = [.content, .navigation, .tab, .page, .split, .menu]

    public var description: String { rawValue }
}
