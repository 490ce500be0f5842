/// What the simplex minimizes: the weighted errors of the non-required constraints, one row per priority, the highest
/// first. A symbol's coefficient is the vector of its coefficients at each level, compared lexicographically: a lower
/// priority's errors count only among solutions equal at every higher one (the symbolic weights of Badros, Borning and
/// Stuckey's Cassowary, with as many levels as priorities in use). With one level it is the reference implementation's
/// scalar objective (kiwi), pivot for pivot.
struct Objective: Sendable {
    struct Level: Sendable {
        var priority: Int
        var row: Row
    }

    /// Highest priority first; a level whose every cell is gone is dropped.
    private(set) var levels: [Level] = []

    /// Adds `weight · symbol` at `priority`.
    mutating func insert(_ symbol: Symbol, weight: Double, priority: Int) {
        let index = level(priority)
        levels[index].row.insert(symbol, weight)
        dropIfEmpty(index)
    }

    /// Adds `weight · row` at `priority`.
    mutating func insert(_ row: Row, weight: Double, priority: Int) {
        let index = level(priority)
        levels[index].row.insert(row, weight)
        dropIfEmpty(index)
    }

    mutating func substitute(_ symbol: Symbol, with row: Row) {
        var index = levels.count - 1
        while index >= 0 {
            if levels[index].row.substitute(symbol, with: row) { dropIfEmpty(index) }
            index -= 1
        }
    }

    mutating func remove(_ symbol: Symbol) {
        var index = levels.count - 1
        while index >= 0 {
            levels[index].row.remove(symbol)
            dropIfEmpty(index)
            index -= 1
        }
    }

    /// The entering symbol of a pivot: the lowest-numbered one, not a dummy, whose coefficient vector is negative (its
    /// first non-zero level's coefficient is), or nil at the optimum.
    func enteringSymbol() -> Symbol? {
        var best: Symbol?
        for (depth, level) in levels.enumerated() {
            for cell in level.row.cells where cell.coefficient < 0 && !cell.symbol.isDummy {
                if let found = best, found < cell.symbol { break }
                if levels[..<depth].allSatisfy({ $0.row.coefficient(for: cell.symbol) == 0 }) {
                    best = cell.symbol
                    break
                }
            }
        }
        return best
    }

    /// Whether `symbol`'s coefficient vector over `divisor` is lexicographically below `other`'s over `otherDivisor`:
    /// the dual simplex's ratio test. Two ratios within the solver's tolerance of each other are equal at their level
    /// (the next level decides), or rounding would let a higher level's 10⁻¹⁶ outweigh a lower level's whole cost.
    func ratio(_ symbol: Symbol, _ divisor: Double, isBelow other: Symbol, _ otherDivisor: Double) -> Bool {
        for (depth, level) in levels.enumerated() {
            let mine = level.row.coefficient(for: symbol) / divisor
            let theirs = level.row.coefficient(for: other) / otherDivisor
            if depth == levels.count - 1 { return mine < theirs }
            if !nearZero(mine - theirs) { return mine < theirs }
        }
        return false
    }

    private mutating func level(_ priority: Int) -> Int {
        var index = 0
        while index < levels.count && levels[index].priority > priority { index += 1 }
        if index == levels.count || levels[index].priority != priority {
            levels.insert(Level(priority: priority, row: Row()), at: index)
        }
        return index
    }

    private mutating func dropIfEmpty(_ index: Int) {
        if levels[index].row.isEmpty { levels.remove(at: index) }
    }
}
