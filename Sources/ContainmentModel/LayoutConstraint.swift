/// An attribute of a view's frame a constraint names (SPEC §16): `leading` is `left`, `trailing` is `right`.
public enum LayoutAttribute: String, CaseIterable, Hashable, Sendable {
    case left, right, top, bottom, leading, trailing, width, height, centerX, centerY

    /// `leading` and `trailing` as the attributes they stand for.
    public var resolved: LayoutAttribute {
        switch self {
        case .leading: .left
        case .trailing: .right
        default: self
        }
    }

    /// Whether it measures along the x axis.
    public var isHorizontal: Bool {
        switch resolved {
        case .left, .right, .width, .centerX: true
        default: false
        }
    }
}

/// How a constraint compares its two sides.
public enum LayoutRelation: String, CaseIterable, Hashable, Sendable {
    case equal = "=="
    case lessOrEqual = "<="
    case greaterOrEqual = ">="
}

/// One side of a constraint: a view's attribute.
public struct LayoutAnchor: Hashable, Sendable, CustomStringConvertible {
    public var view: ViewID
    public var attribute: LayoutAttribute

    public init(_ view: ViewID, _ attribute: LayoutAttribute) {
        self.view = view
        self.attribute = attribute
    }

    public var description: String { "\(view).\(attribute.rawValue)" }
}

/// `first REL multiplier * second + constant @priority`, or `first REL constant @priority` (SPEC §16): a linear relation
/// between two attributes of views. Priority 1000 is required; below, a higher priority holds wholly before a lower.
public struct LayoutConstraint: Hashable, Sendable, CustomStringConvertible {
    public static let requiredPriority = 1_000

    public var first: LayoutAnchor
    public var relation: LayoutRelation
    public var second: LayoutAnchor?
    public var multiplier: Double
    public var constant: Double
    public var priority: Int

    public init(
        _ first: LayoutAnchor,
        _ relation: LayoutRelation,
        _ second: LayoutAnchor? = nil,
        multiplier: Double = 1,
        constant: Double = 0,
        priority: Int = requiredPriority
    ) {
        self.first = first
        self.relation = relation
        self.second = second
        // Without a second attribute there is nothing to multiply: kept as 1, as the spelling reads back.
        self.multiplier = second == nil ? 1 : multiplier
        self.constant = constant
        self.priority = priority
    }

    public var isRequired: Bool { priority >= Self.requiredPriority }

    /// The views it names, the first side's first.
    public var views: [ViewID] { [first.view] + (second.map { [$0.view] } ?? []) }

    /// Why it cannot be a constraint, or nil: a multiplier that is zero or not finite, a constant beyond the
    /// geometry's range, a priority outside 1–1000, or an axis mixed with the other (`a.left == b.top`).
    public var problem: String? {
        if !multiplier.isFinite || multiplier == 0 { return "its multiplier \(multiplier) is not a non-zero number" }
        if !constant.isGeometric { return "its constant \(constant) is not finite or lies beyond ±1e9 points" }
        if !(1...Self.requiredPriority).contains(priority) { return "its priority \(priority) is not within 1–1000" }
        if let second, second.attribute.isHorizontal != first.attribute.isHorizontal {
            return "it relates \(first.attribute.rawValue) to \(second.attribute.rawValue), across the axes"
        }
        return nil
    }

    /// SPEC §16's spelling, as `ctl constrain` takes it and `constraintAdded` shows it:
    /// `detail.width == 0.5 * nav.width - 10 @750`.
    public var description: String {
        var text = "\(first) \(relation.rawValue)"
        if let second {
            text += multiplier == 1 ? " \(second)" : " \(multiplier.compact) * \(second)"
            if constant != 0 { text += constant < 0 ? " - \((-constant).compact)" : " + \(constant.compact)" }
        } else {
            text += " \(constant.compact)"
        }
        if !isRequired { text += " @\(priority)" }
        return text
    }
}

extension LayoutConstraint {
    /// Parses SPEC §16's spelling: `A.attr REL [m *] B.attr [+|- c] [@p]` or `A.attr REL c [@p]`, spaces optional
    /// around the operators. A view is `C` (the root view of C) or `C/NAME`; the attribute follows the view's last
    /// `.`. Throws `malformed` naming what it could not read.
    public init(parsing text: String) throws(ContainmentError) {
        var scanner = ConstraintScanner(text)
        func fail(_ why: String) -> ContainmentError {
            ContainmentError(.malformed, "The constraint '\(text.prefix(200))' cannot be read: \(why).")
        }
        guard let first = scanner.anchor() else { throw fail("it does not start with a view's attribute (view.width)") }
        guard let relation = scanner.relation() else { throw fail("no ==, <= or >= follows \(first)") }
        var second: LayoutAnchor?
        var multiplier = 1.0
        var constant = 0.0
        if let anchor = scanner.anchor() {
            second = anchor
        } else if let number = scanner.number() {
            if scanner.take("*") {
                guard let anchor = scanner.anchor() else { throw fail("no view's attribute follows '\(number) *'") }
                multiplier = number
                second = anchor
            } else {
                constant = number
            }
        } else {
            throw fail("no view's attribute or number follows \(relation.rawValue)")
        }
        if second != nil {
            if scanner.take("+") {
                guard let number = scanner.number() else { throw fail("no number follows +") }
                constant = number
            } else if scanner.take("-") {
                guard let number = scanner.number() else { throw fail("no number follows -") }
                constant = -number
            }
        }
        var priority = Self.requiredPriority
        if scanner.take("@") {
            guard let number = scanner.number(), let whole = Int(exactly: number) else {
                throw fail("no whole priority follows @")
            }
            priority = whole
        }
        guard scanner.atEnd else { throw fail("'\(scanner.rest.prefix(40))' is left over") }
        self.init(first, relation, second, multiplier: multiplier, constant: constant, priority: priority)
        if let problem { throw fail(problem) }
    }
}

/// Reads the tokens of a constraint's text.
private struct ConstraintScanner {
    private let characters: [Character]
    private var index = 0

    init(_ text: String) { characters = Array(text) }

    var atEnd: Bool {
        mutating get {
            skipSpaces()
            return index == characters.count
        }
    }

    var rest: String { String(characters[index...]) }

    private mutating func skipSpaces() {
        while index < characters.count, characters[index].isWhitespace { index += 1 }
    }

    mutating func take(_ symbol: String) -> Bool {
        skipSpaces()
        let symbol = Array(symbol)
        guard characters[index...].starts(with: symbol) else { return false }
        index += symbol.count
        return true
    }

    mutating func relation() -> LayoutRelation? {
        LayoutRelation.allCases.first { take($0.rawValue) }
    }

    /// A number, signed or not: `10`, `-0.5`, `1e3`.
    mutating func number() -> Double? {
        skipSpaces()
        let start = index
        var end = index
        if end < characters.count, characters[end] == "-" || characters[end] == "+" { end += 1 }
        while end < characters.count,
            characters[end].isNumber || characters[end] == "." || characters[end] == "e"
                || characters[end] == "E"
                || ((characters[end] == "-" || characters[end] == "+") && end > start
                    && (characters[end - 1] == "e" || characters[end - 1] == "E"))
        {
            end += 1
        }
        guard end > start, let value = Double(String(characters[start..<end])) else { return nil }
        index = end
        return value
    }

    /// `VIEW.attribute`: the longest run of id characters (letters, digits, `_ - . / :`) that is a view id, a `.` and a
    /// known attribute (so `a.width-10` is `a.width` and `- 10`).
    mutating func anchor() -> LayoutAnchor? {
        skipSpaces()
        guard index < characters.count, characters[index] != "-" else { return nil }
        var end = index
        while end < characters.count,
            characters[end].isLetter || characters[end].isNumber || "_-./:".contains(characters[end])
        {
            end += 1
        }
        while end > index {
            let word = String(characters[index..<end])
            if let dot = word.lastIndex(of: "."),
                let attribute = LayoutAttribute(rawValue: String(word[word.index(after: dot)...])),
                let view = ViewID(parsing: String(word[..<dot]))
            {
                index = end
                return LayoutAnchor(view, attribute)
            }
            end -= 1
        }
        return nil
    }
}
