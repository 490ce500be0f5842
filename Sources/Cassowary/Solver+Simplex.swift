/// The simplex method over the tableau: making a constraint's row, pivoting, and the primal and dual optimizations.
extension Solver {
    /// The symbol of a variable, made the first time a constraint names it.
    mutating func symbol(for variable: Variable) -> Symbol {
        if let symbol = symbols[variable] { return symbol }
        let symbol = makeSymbol(.external)
        symbols[variable] = symbol
        return symbol
    }

    mutating func makeSymbol(_ kind: Symbol.Kind) -> Symbol {
        defer { tick += 1 }
        return Symbol(kind, tick)
    }

    /// The constraint's row in terms of the current parametric symbols, with its slack, error or dummy symbols (the
    /// errors weighed in the objective), its constant made non-negative. `tag` gets the symbols that mark the
    /// constraint in the tableau.
    mutating func makeRow(_ constraint: Constraint, _ tag: inout Tag) -> Row {
        var row = Row(constant: constraint.expression.constant)
        for term in constraint.expression.terms where !nearZero(term.coefficient) {
            let symbol = symbol(for: term.variable)
            if let basic = rows[symbol] {
                row.insert(basic, term.coefficient)
            } else {
                row.insert(symbol, term.coefficient)
            }
        }
        let strength = constraint.strength
        switch constraint.relation {
        case .lessOrEqual, .greaterOrEqual:
            let sign: Double = constraint.relation == .lessOrEqual ? 1 : -1
            let slack = makeSymbol(.slack)
            tag.marker = slack
            row.insert(slack, sign)
            if !strength.isRequired {
                let error = makeSymbol(.error)
                tag.other = error
                row.insert(error, -sign)
                objective.insert(error, weight: strength.weight, priority: strength.priority)
            }
        case .equal:
            if strength.isRequired {
                let dummy = makeSymbol(.dummy)
                tag.marker = dummy
                row.insert(dummy)
            } else {
                let plus = makeSymbol(.error)
                let minus = makeSymbol(.error)
                tag.marker = plus
                tag.other = minus
                row.insert(plus, -1)
                row.insert(minus, 1)
                objective.insert(plus, weight: strength.weight, priority: strength.priority)
                objective.insert(minus, weight: strength.weight, priority: strength.priority)
            }
        }
        if row.constant < 0 { row.reverseSign() }
        return row
    }

    /// The symbol to solve a new row for: its first external variable, else its marker or other symbol if it is a
    /// slack or error with a negative coefficient; nil if none.
    func chooseSubject(_ row: Row, _ tag: Tag) -> Symbol? {
        if let cell = row.cells.first(where: { $0.symbol.kind == .external }) { return cell.symbol }
        if tag.marker.isPivotable && row.coefficient(for: tag.marker) < 0 { return tag.marker }
        if let other = tag.other, other.isPivotable && row.coefficient(for: other) < 0 { return other }
        return nil
    }

    /// Adds a row no symbol can be solved for: with an artificial variable, minimized to zero by the simplex (phase
    /// one). False if it cannot reach zero: the constraint cannot hold.
    mutating func addWithArtificialVariable(_ row: Row) -> Bool {
        let art = makeSymbol(.slack)
        rows.set(art, row)
        artificial = row
        // The artificial objective is bounded below by zero: no pivot can fail.
        try? optimize(artificial: true)
        let success = nearZero(artificial?.constant ?? 0)
        artificial = nil
        if let index = rows.index(of: art) {
            var (_, basic) = rows.remove(at: index)
            if basic.isEmpty { return success }
            guard let entering = basic.cells.first(where: { $0.symbol.isPivotable })?.symbol else { return false }
            basic.solve(for: art, entering)
            substitute(entering, with: basic)
            rows.set(entering, basic)
        }
        for index in rows.rows.indices { rows.rows[index].remove(art) }
        objective.remove(art)
        return success
    }

    /// Replaces `symbol` by `row` in every row, the objective and the artificial objective; rows of restricted symbols
    /// left negative wait for the dual simplex.
    mutating func substitute(_ symbol: Symbol, with row: Row) {
        for index in rows.rows.indices {
            rows.rows[index].substitute(symbol, with: row)
            let basic = rows.symbols[index]
            if basic.kind != .external && rows.rows[index].constant < 0 { infeasibleRows.append(basic) }
        }
        objective.substitute(symbol, with: row)
        artificial?.substitute(symbol, with: row)
    }

    /// Phase two of the simplex: pivots until no entering symbol improves the objective (or the artificial one).
    mutating func optimize(artificial useArtificial: Bool) throws(SolverError) {
        while true {
            let entering: Symbol?
            if useArtificial {
                entering = artificial?.cells.first { $0.coefficient < 0 && !$0.symbol.isDummy }?.symbol
            } else {
                entering = objective.enteringSymbol()
            }
            guard let entering else { return }
            guard let index = leavingRow(entering) else { throw .internalError("the objective is unbounded") }
            pivot(at: index, entering: entering)
        }
    }

    /// The dual simplex: pivots the rows left infeasible (by a suggestion) back to feasibility, optimal throughout.
    mutating func dualOptimize() throws(SolverError) {
        while let leaving = infeasibleRows.popLast() {
            guard let index = rows.index(of: leaving) else { continue }
            let constant = rows.rows[index].constant
            guard !nearZero(constant) && constant < 0 else { continue }
            // An edit is never required, so its error symbols always give an infeasible row a positive cell.
            guard let entering = dualEnteringSymbol(rows.rows[index]) else {
                throw .internalError("the dual simplex found no entering symbol")
            }
            pivot(at: index, entering: entering)
        }
    }

    /// Takes the row at `index` out, solves it for `entering` and puts it back as `entering`'s.
    private mutating func pivot(at index: Int, entering: Symbol) {
        var (leaving, row) = rows.remove(at: index)
        row.solve(for: leaving, entering)
        substitute(entering, with: row)
        rows.set(entering, row)
    }

    /// The dual simplex's entering symbol: of the row's positive non-dummy cells, the one whose objective
    /// coefficient over its own is the least (lexicographically), the first one on a tie.
    func dualEnteringSymbol(_ row: Row) -> Symbol? {
        var entering: Row.Cell?
        for cell in row.cells where cell.coefficient > 0 && !cell.symbol.isDummy {
            if let best = entering {
                if objective.ratio(cell.symbol, cell.coefficient, isBelow: best.symbol, best.coefficient) {
                    entering = cell
                }
            } else {
                entering = cell
            }
        }
        return entering?.symbol
    }

    /// The primal ratio test: of the rows of restricted symbols with a negative coefficient for `entering`, the one
    /// with the least `-constant / coefficient`, the first one on a tie.
    func leavingRow(_ entering: Symbol) -> Int? {
        var ratio = Double.greatestFiniteMagnitude
        var found: Int?
        for index in rows.rows.indices where rows.symbols[index].kind != .external {
            let coefficient = rows.rows[index].coefficient(for: entering)
            guard coefficient < 0 else { continue }
            let candidate = -rows.rows[index].constant / coefficient
            if candidate < ratio {
                ratio = candidate
                found = index
            }
        }
        return found
    }

    /// The row to pivot a removed constraint's marker into: a restricted row with a negative coefficient and the least
    /// ratio, else a restricted row with the least ratio, else the last unrestricted row that holds it.
    func markerLeavingRow(_ marker: Symbol) -> Int? {
        var first: (index: Int, ratio: Double)?
        var second: (index: Int, ratio: Double)?
        var third: Int?
        for index in rows.rows.indices {
            let row = rows.rows[index]
            let coefficient = row.coefficient(for: marker)
            if coefficient == 0 { continue }
            if rows.symbols[index].kind == .external {
                third = index
            } else if coefficient < 0 {
                let ratio = -row.constant / coefficient
                if ratio < first?.ratio ?? .greatestFiniteMagnitude { first = (index, ratio) }
            } else {
                let ratio = row.constant / coefficient
                if ratio < second?.ratio ?? .greatestFiniteMagnitude { second = (index, ratio) }
            }
        }
        return first?.index ?? second?.index ?? third
    }

    /// Takes a removed constraint's errors out of the objective (before any pivot, or the objective goes wrong).
    mutating func removeErrorEffects(_ record: Record) {
        let strength = record.constraint.strength
        for marker in [record.tag.marker, record.tag.other].compactMap({ $0 }) where marker.kind == .error {
            if let row = rows[marker] {
                objective.insert(row, weight: -strength.weight, priority: strength.priority)
            } else {
                objective.insert(marker, weight: -strength.weight, priority: strength.priority)
            }
        }
    }
}
