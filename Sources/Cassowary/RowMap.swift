/// The tableau's rows by their basic symbol, kept sorted by symbol so that every walk over them goes in the same order.
struct RowMap: Sendable {
    private(set) var symbols: [Symbol] = []
    var rows: [Row] = []

    var count: Int { symbols.count }

    /// The index of `symbol`'s row, or where it would go.
    func search(_ symbol: Symbol) -> (index: Int, found: Bool) {
        var low = 0
        var high = symbols.count
        while low < high {
            let middle = (low + high) / 2
            let other = symbols[middle]
            if other == symbol { return (middle, true) }
            if other < symbol { low = middle + 1 } else { high = middle }
        }
        return (low, false)
    }

    func index(of symbol: Symbol) -> Int? {
        let (index, found) = search(symbol)
        return found ? index : nil
    }

    subscript(symbol: Symbol) -> Row? {
        index(of: symbol).map { rows[$0] }
    }

    /// Sets `symbol`'s row (replacing one it had).
    mutating func set(_ symbol: Symbol, _ row: Row) {
        let (index, found) = search(symbol)
        if found {
            rows[index] = row
        } else {
            symbols.insert(symbol, at: index)
            rows.insert(row, at: index)
        }
    }

    /// Takes the row at `index` out.
    mutating func remove(at index: Int) -> (symbol: Symbol, row: Row) {
        (symbols.remove(at: index), rows.remove(at: index))
    }
}
