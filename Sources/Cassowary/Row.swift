/// One row of the tableau, `basic = constant + Σ coefficient · symbol`, or an objective's terms at one level. Its
/// cells are sorted by symbol, and a coefficient within the tolerance of zero is no cell.
struct Row: Sendable, Equatable {
    struct Cell: Sendable, Equatable {
        var symbol: Symbol
        var coefficient: Double
    }

    var constant: Double
    private(set) var cells: [Cell]

    init(constant: Double = 0) {
        self.constant = constant
        cells = []
    }

    /// The index of `symbol`'s cell, or where it would go.
    private func index(of symbol: Symbol) -> (index: Int, found: Bool) {
        var low = 0
        var high = cells.count
        while low < high {
            let middle = (low + high) / 2
            let other = cells[middle].symbol
            if other == symbol { return (middle, true) }
            if other < symbol { low = middle + 1 } else { high = middle }
        }
        return (low, false)
    }

    func coefficient(for symbol: Symbol) -> Double {
        let (index, found) = index(of: symbol)
        return found ? cells[index].coefficient : 0
    }

    var isEmpty: Bool { cells.isEmpty }

    /// Adds `coefficient · symbol`, dropping the cell if it comes to zero.
    mutating func insert(_ symbol: Symbol, _ coefficient: Double = 1) {
        let (index, found) = index(of: symbol)
        if found {
            let sum = cells[index].coefficient + coefficient
            if nearZero(sum) { cells.remove(at: index) } else { cells[index].coefficient = sum }
        } else if !nearZero(coefficient) {
            cells.insert(Cell(symbol: symbol, coefficient: coefficient), at: index)
        }
    }

    /// Adds `coefficient · other` (its constant too), dropping each cell that comes to zero: one merge of the two
    /// sorted cell lists.
    mutating func insert(_ other: Row, _ coefficient: Double = 1) {
        constant += other.constant * coefficient
        if other.cells.isEmpty { return }
        var merged: [Cell] = []
        merged.reserveCapacity(cells.count + other.cells.count)
        var i = 0
        var j = 0
        while i < cells.count || j < other.cells.count {
            if j == other.cells.count || (i < cells.count && cells[i].symbol < other.cells[j].symbol) {
                merged.append(cells[i])
                i += 1
            } else if i == cells.count || other.cells[j].symbol < cells[i].symbol {
                let value = other.cells[j].coefficient * coefficient
                if !nearZero(value) { merged.append(Cell(symbol: other.cells[j].symbol, coefficient: value)) }
                j += 1
            } else {
                let value = cells[i].coefficient + other.cells[j].coefficient * coefficient
                if !nearZero(value) { merged.append(Cell(symbol: cells[i].symbol, coefficient: value)) }
                i += 1
                j += 1
            }
        }
        cells = merged
    }

    mutating func remove(_ symbol: Symbol) {
        let (index, found) = index(of: symbol)
        if found { cells.remove(at: index) }
    }

    mutating func reverseSign() {
        constant = -constant
        for index in cells.indices { cells[index].coefficient = -cells[index].coefficient }
    }

    /// Solves the row `0 = constant + … + c · symbol + …` for `symbol`: the row becomes `symbol`'s expression.
    mutating func solve(for symbol: Symbol) {
        let (index, found) = index(of: symbol)
        precondition(found, "solving a row for a symbol it does not hold")
        let scale = -1 / cells[index].coefficient
        cells.remove(at: index)
        constant *= scale
        for index in cells.indices { cells[index].coefficient *= scale }
    }

    /// Solves the row `lhs = …`, which holds `rhs`, for `rhs`: a pivot's row, `lhs` leaving and `rhs` entering.
    mutating func solve(for lhs: Symbol, _ rhs: Symbol) {
        insert(lhs, -1)
        solve(for: rhs)
    }

    /// Replaces `symbol` with `row`'s expression of it. Returns whether the row held it.
    @discardableResult
    mutating func substitute(_ symbol: Symbol, with row: Row) -> Bool {
        let (index, found) = index(of: symbol)
        guard found else { return false }
        let coefficient = cells[index].coefficient
        cells.remove(at: index)
        insert(row, coefficient)
        return true
    }
}
