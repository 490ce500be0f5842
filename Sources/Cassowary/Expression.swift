/// A variable of the caller's: the solver knows it by this number, and makes its column when a constraint first names
/// it.
public struct Variable: Hashable, Comparable, Sendable, CustomStringConvertible {
    public let id: Int

    public init(_ id: Int) { self.id = id }

    public static func < (lhs: Variable, rhs: Variable) -> Bool { lhs.id < rhs.id }

    public var description: String { "v\(id)" }
}

/// `coefficient · variable`.
public struct Term: Hashable, Sendable {
    public var variable: Variable
    public var coefficient: Double

    public init(_ variable: Variable, _ coefficient: Double = 1) {
        self.variable = variable
        self.coefficient = coefficient
    }
}

/// `Σ coefficient · variable + constant`.
public struct Expression: Hashable, Sendable, CustomStringConvertible {
    public var terms: [Term]
    public var constant: Double

    public init(_ terms: [Term] = [], constant: Double = 0) {
        self.terms = terms
        self.constant = constant
    }

    public init(_ variable: Variable) { self.init([Term(variable)]) }

    /// The same expression with one term per variable (in the order of their first terms) and no zero term.
    public var reduced: Expression {
        var order: [Variable] = []
        var sums: [Variable: Double] = [:]
        for term in terms {
            if sums[term.variable] == nil { order.append(term.variable) }
            sums[term.variable, default: 0] += term.coefficient
        }
        // Safe: every variable of `order` was given a sum above.
        return Expression(order.map { Term($0, sums[$0]!) }.filter { $0.coefficient != 0 }, constant: constant)
    }

    public static func + (lhs: Expression, rhs: Expression) -> Expression {
        Expression(lhs.terms + rhs.terms, constant: lhs.constant + rhs.constant)
    }

    public static func - (lhs: Expression, rhs: Expression) -> Expression {
        lhs + rhs * -1
    }

    public static func * (lhs: Expression, rhs: Double) -> Expression {
        Expression(lhs.terms.map { Term($0.variable, $0.coefficient * rhs) }, constant: lhs.constant * rhs)
    }

    public static func + (lhs: Expression, rhs: Double) -> Expression {
        Expression(lhs.terms, constant: lhs.constant + rhs)
    }

    public var description: String {
        var parts = terms.map { "\($0.coefficient) * \($0.variable)" }
        if constant != 0 || parts.isEmpty { parts.append("\(constant)") }
        return parts.joined(separator: " + ")
    }
}

/// How a constraint's expression compares with zero.
public enum Relation: String, Hashable, Sendable {
    case lessOrEqual = "<="
    case equal = "=="
    case greaterOrEqual = ">="
}

/// How much a constraint counts. Required constraints hold or are refused; below them, a higher priority is satisfied
/// wholly before a lower one (Cassowary's lexicographic order), and within one priority the errors are weighed by
/// `weight`.
public struct Strength: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The priority of a required constraint; every lower one is a level of its own.
    public static let requiredPriority = 1_000
    public static let required = Strength(priority: requiredPriority)

    public var priority: Int
    public var weight: Double

    public init(priority: Int, weight: Double = 1) {
        self.priority = priority
        self.weight = weight
    }

    public var isRequired: Bool { priority >= Self.requiredPriority }

    public static func < (lhs: Strength, rhs: Strength) -> Bool {
        (lhs.priority, lhs.weight) < (rhs.priority, rhs.weight)
    }

    public var description: String {
        isRequired ? "required" : weight == 1 ? "@\(priority)" : "@\(priority)×\(weight)"
    }
}

/// `expression REL 0` at a strength.
public struct Constraint: Hashable, Sendable, CustomStringConvertible {
    public var expression: Expression
    public var relation: Relation
    public var strength: Strength

    public init(_ expression: Expression, _ relation: Relation, strength: Strength = .required) {
        self.expression = expression.reduced
        self.relation = relation
        self.strength = strength
    }

    /// `lhs REL rhs`, kept as `lhs - rhs REL 0`.
    public init(_ lhs: Expression, _ relation: Relation, _ rhs: Expression, strength: Strength = .required) {
        self.init(lhs - rhs, relation, strength: strength)
    }

    public var variables: [Variable] { expression.terms.map(\.variable) }

    public var description: String { "\(expression) \(relation.rawValue) 0 \(strength)" }
}
