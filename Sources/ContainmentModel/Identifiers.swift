/// The unique id of a controller (SPEC §1).
///
/// The state looks controllers and views up by id all the time, so an id hashes its text once, when it is made: the
/// state's tables (``IDTable``) use that number as it is, and hashing the id feeds only it to the hasher.
public struct ControllerID: TableKey, Comparable, Sendable, CustomStringConvertible, ExpressibleByStringLiteral {
    public let rawValue: String
    /// `rawValue.hashValue`, its lowest bit replaced by whether the text has a `/` (only a More controller's does,
    /// SPEC §16; every request's parties are asked): equal texts have equal hashes within a process, which is all a
    /// hash table needs, and the id stays three words.
    fileprivate let textHash: Int

    public init(_ rawValue: String) {
        self.rawValue = rawValue
        textHash = rawValue.hashValue & ~1 | (rawValue.utf8.contains(UInt8(ascii: "/")) ? 1 : 0)
    }

    /// Whether the text has a `/`.
    package var hasSlash: Bool { textHash & 1 == 1 }
    public init(stringLiteral value: String) { self.init(value) }

    public var description: String { rawValue }
    public static func < (lhs: ControllerID, rhs: ControllerID) -> Bool { lhs.rawValue < rhs.rawValue }

    public static func == (lhs: ControllerID, rhs: ControllerID) -> Bool {
        lhs.textHash == rhs.textHash && lhs.rawValue == rhs.rawValue
    }

    public func hash(into hasher: inout Hasher) { hasher.combine(textHash) }

    public var tableHash: Int { textHash }
}

extension ControllerID {
    /// The suffixes of a tab container's own More controllers (SPEC §16): its navigation `T/more` and the list
    /// `T/more-list` at the navigation's root. An app's ids have no `/`, so these never meet one of them.
    static let moreSuffixes = ["more", "more-list"]

    /// Tab container `tab`'s More navigation, `T/more`.
    public static func more(of tab: ControllerID) -> ControllerID { ControllerID("\(tab.rawValue)/more") }

    /// Tab container `tab`'s More list, `T/more-list`.
    public static func moreList(of tab: ControllerID) -> ControllerID { ControllerID("\(tab.rawValue)/more-list") }

    /// `T/more` or `T/more-list` for an app's id T; `nil` for any other text.
    init?(moreText text: String) {
        guard let slash = text.firstIndex(of: "/"), slash != text.startIndex,
            Self.moreSuffixes.contains(String(text[text.index(after: slash)...]))
        else { return nil }
        self.init(text)
    }

    /// The tab container whose More controller this is (`T` of `T/more` or `T/more-list`); `nil` for an app's id.
    public var moreTab: ControllerID? {
        // Asked of every request's parties: a byte scan, and a new id only for the rare id with a `/`.
        guard hasSlash, let slash = rawValue.firstIndex(of: "/") else { return nil }
        return ControllerID(String(rawValue[..<slash]))
    }
}

/// A view: a controller's root view, or a named subview it owns.
///
/// The owner is part of the id, so "a view belongs to exactly one controller" (SPEC §3, R4) holds by
/// construction. Written `C` for the root view of `C` and `C/NAME` for a named subview.
public struct ViewID: TableKey, Sendable, CustomStringConvertible {
    public let owner: ControllerID
    /// The name's text and hash; `nil` for the root view. A reference keeps the id four words: an optional of five
    /// words is copied and destroyed through the runtime's generic witnesses, ~60 instructions more a copy
    /// (callgrind, docs/BENCH.md), and the rules copy `ViewID?`s all the time (`superview`, stacks' `popLast`).
    private let nameBox: ViewName?

    /// `nil` for the root view.
    public var name: String? { nameBox?.text }

    public init(owner: ControllerID, name: String? = nil) {
        self.owner = owner
        nameBox = name.map(ViewName.named)
    }

    /// The owner's text hash, mixed with the name's (hashed once, when the id was made).
    private var textHash: Int {
        guard let nameBox else { return owner.textHash }
        return (owner.textHash &* 31) ^ nameBox.hash
    }

    public static func == (lhs: ViewID, rhs: ViewID) -> Bool {
        guard lhs.owner == rhs.owner else { return false }
        if lhs.nameBox === rhs.nameBox { return true }
        return lhs.nameBox?.hash == rhs.nameBox?.hash && lhs.nameBox?.text == rhs.nameBox?.text
    }

    public func hash(into hasher: inout Hasher) { hasher.combine(textHash) }

    public var tableHash: Int { textHash }

    /// The root view of `controller`.
    public static func root(_ controller: ControllerID) -> ViewID { ViewID(owner: controller) }

    public var isRoot: Bool { nameBox == nil }

    /// Parses `C` or `C/NAME`, where C is an app's controller (no `/`) or a tab container's More controller
    /// (`T/more`, `T/more-list`: SPEC §16), so the text splits at its last `/` unless it names such a controller's
    /// root view; `nil` when the text is empty or has an empty part, or its owner is neither.
    public init?(parsing text: String) {
        if let system = ControllerID(moreText: text) {
            self.init(owner: system)
            return
        }
        guard let slash = text.lastIndex(of: "/") else {
            guard !text.isEmpty else { return nil }
            self.init(owner: ControllerID(text))
            return
        }
        let owner = String(text[..<slash])
        let name = String(text[text.index(after: slash)...])
        guard !name.isEmpty, !owner.isEmpty, !owner.contains("/") || ControllerID(moreText: owner) != nil else {
            return nil
        }
        self.init(owner: ControllerID(owner), name: name)
    }

    public var description: String {
        guard let name else { return owner.rawValue }
        return "\(owner.rawValue)/\(name)"
    }
}

/// A view's name and its hash, shared by every id that names it; the names the rules make most often (a container's
/// `bar`, `transition`, `menu`, `back`) are made once.
private final class ViewName: Sendable {
    let text: String
    let hash: Int

    private init(_ text: String) {
        self.text = text
        hash = text.hashValue
    }

    private static let bar = ViewName("bar")
    private static let transition = ViewName("transition")
    private static let menu = ViewName("menu")
    private static let back = ViewName("back")

    static func named(_ text: String) -> ViewName {
        switch text {
        case "bar": bar
        case "transition": transition
        case "menu": menu
        case "back": back
        default: ViewName(text)
        }
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
