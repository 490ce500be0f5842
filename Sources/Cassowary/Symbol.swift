/// A column of the tableau: an external variable, or a slack, error or dummy variable the solver made for a
/// constraint. Symbols are numbered in the order the solver makes them, and every ordered walk of the tableau (the
/// rows, a row's cells) goes by that number: the pivots, so the solution, depend only on the operations given.
struct Symbol: Hashable, Comparable, Sendable {
    enum Kind: UInt8, Sendable {
        /// A variable of the caller's, unrestricted in sign.
        case external
        /// The slack of an inequality (≥ 0), or the artificial variable of a row being added.
        case slack
        /// The error of a non-required constraint (≥ 0): the objective weighs it.
        case error
        /// The marker of a required equality (always 0, never pivoted in).
        case dummy
    }

    /// The number in the high bits, the kind in the low two: comparing two symbols compares their numbers.
    private let raw: UInt64

    init(_ kind: Kind, _ number: UInt64) {
        raw = number << 2 | UInt64(kind.rawValue)
    }

    var kind: Kind {
        // Safe: `raw`'s low two bits are always a `Kind`'s raw value (0...3), set by the only initializer.
        Kind(rawValue: UInt8(raw & 3))!
    }

    /// Whether the simplex requires this symbol to be non-negative (slacks and errors, and dummies, which stay zero).
    var isRestricted: Bool { raw & 3 != 0 }

    /// A slack or an error: a symbol that can be pivoted in for a row being added.
    var isPivotable: Bool {
        let kind = raw & 3
        return kind == 1 || kind == 2
    }

    var isDummy: Bool { raw & 3 == 3 }

    static func < (lhs: Symbol, rhs: Symbol) -> Bool { lhs.raw < rhs.raw }
}

/// Whether `value` is zero within the solver's tolerance (10⁻⁸, the reference implementation's).
@inline(__always) func nearZero(_ value: Double) -> Bool {
    value < 0 ? -value < 1.0e-8 : value < 1.0e-8
}
