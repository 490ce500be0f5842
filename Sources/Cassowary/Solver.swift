/// An incremental Cassowary solver: linear equalities and inequalities over real variables, required or at a strength,
/// added and removed one at a time, each change re-optimizing from the previous solution (a few pivots of the simplex
/// method, not a solve from scratch); edit variables take suggested values through the dual simplex.
///
/// It follows the reference implementation (kiwi, the C++ solver behind kiwisolver) step for step: the same tableau,
/// the same choice of subject, entering and leaving symbols, the same tolerance; it differs in one place: strengths are
/// priorities compared lexicographically (``Strength``), where kiwi adds them up as weights. A value type: a copy is a
/// snapshot, and the same operations always give the same solution.
public struct Solver: Sendable {
    struct Tag: Sendable {
        var marker: Symbol
        var other: Symbol?
    }

    struct Record: Sendable {
        var constraint: Constraint
        var tag: Tag
    }

    struct Edit: Sendable {
        var handle: ConstraintHandle
        var tag: Tag
        var constant: Double
    }

    var records: [ConstraintHandle: Record] = [:]
    var rows = RowMap()
    var symbols: [Variable: Symbol] = [:]
    var edits: [Variable: Edit] = [:]
    var infeasibleRows: [Symbol] = []
    var objective = Objective()
    var artificial: Row?
    var tick: UInt64 = 1
    var nextHandle = 0

    public init() {}

    /// How many constraints the solver holds (edit variables' included).
    public var constraintCount: Int { records.count }

    /// How many rows its tableau has: the size of the system each change pivots through.
    public var rowCount: Int { rows.count }

    public func constraint(_ handle: ConstraintHandle) -> Constraint? { records[handle]?.constraint }

    /// The handles of the constraints held, in the order they were added.
    public var handles: [ConstraintHandle] { records.keys.sorted() }

    /// Adds a constraint and re-optimizes. A required constraint that cannot hold with the required ones already
    /// added throws ``SolverError/unsatisfiable`` and leaves the solution as it was (``conflicts(with:)`` names the
    /// constraints it conflicts with).
    @discardableResult
    public mutating func add(_ constraint: Constraint) throws(SolverError) -> ConstraintHandle {
        // What a refused constraint gives back (the search for a feasible row pivots the tableau): the rows, the
        // objective and the rows left infeasible. Its variables keep their columns and the symbols' count goes on, as
        // in the reference implementation. A copy of a value type: nothing is copied unless the search pivots.
        let before = (rows, objective, infeasibleRows)
        var tag = Tag(marker: Symbol(.dummy, 0))
        var row = makeRow(constraint, &tag)
        var subject = chooseSubject(row, tag)
        if subject == nil && row.cells.allSatisfy({ $0.symbol.isDummy }) {
            guard nearZero(row.constant) else { throw .unsatisfiable }
            subject = tag.marker
        }
        if let subject {
            row.solve(for: subject)
            substitute(subject, with: row)
            rows.set(subject, row)
        } else if !addWithArtificialVariable(row) {
            (rows, objective, infeasibleRows) = before
            throw .unsatisfiable
        }
        let handle = ConstraintHandle(rawValue: nextHandle)
        nextHandle += 1
        records[handle] = Record(constraint: constraint, tag: tag)
        try optimize(artificial: false)
        return handle
    }

    /// Removes a constraint and re-optimizes.
    public mutating func remove(_ handle: ConstraintHandle) throws(SolverError) {
        guard let record = records.removeValue(forKey: handle) else { throw .unknownConstraint(handle) }
        removeErrorEffects(record)
        let marker = record.tag.marker
        if let index = rows.index(of: marker) {
            _ = rows.remove(at: index)
        } else {
            guard let index = markerLeavingRow(marker) else { throw .internalError("no row holds a marker") }
            var (leaving, row) = rows.remove(at: index)
            row.solve(for: leaving, marker)
            substitute(marker, with: row)
        }
        try optimize(artificial: false)
    }

    /// Makes `variable` editable at a non-required strength: ``suggest(_:_:)`` then gives it values.
    public mutating func addEditVariable(_ variable: Variable, strength: Strength) throws(SolverError) {
        guard edits[variable] == nil else { throw .duplicateEditVariable(variable) }
        guard !strength.isRequired else { throw .requiredEditVariable(variable) }
        let handle = try add(Constraint(Expression(variable), .equal, strength: strength))
        // Safe: `add` just recorded this handle.
        edits[variable] = Edit(handle: handle, tag: records[handle]!.tag, constant: 0)
    }

    public mutating func removeEditVariable(_ variable: Variable) throws(SolverError) {
        guard let edit = edits.removeValue(forKey: variable) else { throw .unknownEditVariable(variable) }
        try remove(edit.handle)
    }

    public func hasEditVariable(_ variable: Variable) -> Bool { edits[variable] != nil }

    /// Suggests a value for an edit variable: the dual simplex moves the solution to it as far as the constraints of
    /// the edit's strength and above allow.
    public mutating func suggest(_ variable: Variable, _ value: Double) throws(SolverError) {
        guard var edit = edits[variable] else { throw .unknownEditVariable(variable) }
        let delta = value - edit.constant
        edit.constant = value
        edits[variable] = edit
        if let index = rows.index(of: edit.tag.marker) {
            rows.rows[index].constant -= delta
            if rows.rows[index].constant < 0 { infeasibleRows.append(edit.tag.marker) }
        } else if let other = edit.tag.other, let index = rows.index(of: other) {
            rows.rows[index].constant += delta
            if rows.rows[index].constant < 0 { infeasibleRows.append(other) }
        } else {
            for index in rows.rows.indices {
                let coefficient = rows.rows[index].coefficient(for: edit.tag.marker)
                guard coefficient != 0 else { continue }
                rows.rows[index].constant += delta * coefficient
                let symbol = rows.symbols[index]
                if rows.rows[index].constant < 0 && symbol.kind != .external { infeasibleRows.append(symbol) }
            }
        }
        try dualOptimize()
        // The dual simplex keeps the tableau optimal in exact arithmetic; a primal pass makes sure of it in floating
        // point (it pivots nothing when it is), so that the solution depends on the constraints and suggestions, not on
        // the history of pivots that led there.
        try optimize(artificial: false)
    }

    /// The variable's value in the current solution (0 for a variable no constraint names, or one at zero).
    public func value(of variable: Variable) -> Double {
        guard let symbol = symbols[variable], let row = rows[symbol] else { return 0 }
        return row.constant
    }

    /// Every variable a constraint has named, and its value.
    public var values: [Variable: Double] {
        symbols.mapValues { symbol in rows[symbol]?.constant ?? 0 }
    }
}

/// A constraint the solver holds, in the order constraints were added.
public struct ConstraintHandle: Hashable, Comparable, Sendable, CustomStringConvertible {
    public let rawValue: Int

    public init(rawValue: Int) { self.rawValue = rawValue }

    public static func < (lhs: ConstraintHandle, rhs: ConstraintHandle) -> Bool { lhs.rawValue < rhs.rawValue }

    public var description: String { "#\(rawValue)" }
}

public enum SolverError: Error, Hashable, Sendable {
    /// A required constraint cannot hold together with the required constraints already added.
    case unsatisfiable
    case unknownConstraint(ConstraintHandle)
    case duplicateEditVariable(Variable)
    case unknownEditVariable(Variable)
    /// An edit variable must be non-required: a suggestion is a wish, not a rule.
    case requiredEditVariable(Variable)
    /// A state the algorithm cannot reach (an unbounded objective, a marker in no row): a defect of the solver.
    case internalError(String)
}
