import Cassowary

/// The layout solver's figures (SPEC §16): one constraint added to and removed from a layout of 1,000, beside solving
/// that layout from scratch (what an incremental solver saves), and a 100-child container laid out after a resize.
struct LayoutFigure: Codable, Sendable {
    /// The constraints of the layout the additions go into (stays not counted).
    var constraints: Int
    var addsPerSecond: Double
    var removesPerSecond: Double
    /// The same layout solved from nothing, once.
    var fromScratchMilliseconds: Double
    var children: Int
    /// A resize of the container (a suggestion to its width and height) and the children's frames read back.
    var resizeMicroseconds: Double

    static func measure(quick: Bool) throws -> LayoutFigure {
        let clock = ContinuousClock()
        let views = 250
        let build = clock.now
        var solver = try Self.grid(views: views)
        let fromScratch = (clock.now - build).seconds
        let changes = quick ? 2_000 : 20_000
        var adding = Duration.zero
        var removing = Duration.zero
        for change in 0..<changes {
            let view = change * 7919 % views
            // Alternately a required bound below the preferred width (the rest of the row moves) and a preference
            // below the one the width has (it loses).
            let constraint =
                change % 2 == 0
                ? Constraint(Expression(width(view)), .lessOrEqual, Expression(constant: Double(20 + change % 20)))
                : Constraint(
                    Expression(width(view)),
                    .greaterOrEqual,
                    Expression(constant: Double(40 + change % 50)),
                    strength: Strength(priority: 500)
                )
            let start = clock.now
            let handle = try solver.add(constraint)
            let middle = clock.now
            try solver.remove(handle)
            removing += clock.now - middle
            adding += middle - start
        }
        let children = 100
        var container = try Self.container(children: children)
        let resizes = quick ? 2_000 : 20_000
        var checksum = 0.0
        let start = clock.now
        for resize in 0..<resizes {
            try container.suggest(Variable(0), resize % 2 == 0 ? 1_024 : 768)
            try container.suggest(Variable(1), resize % 2 == 0 ? 768 : 1_024)
            for variable in 2..<(2 + 4 * children) { checksum += container.value(of: Variable(variable)) }
        }
        let resizing = (clock.now - start).seconds
        precondition(checksum > 0, "the children were laid out")
        return LayoutFigure(
            constraints: views * 4,
            addsPerSecond: Double(changes) / adding.seconds,
            removesPerSecond: Double(changes) / removing.seconds,
            fromScratchMilliseconds: fromScratch * 1e3,
            children: children,
            resizeMicroseconds: resizing * 1e6 / Double(resizes)
        )
    }

    private static func left(_ view: Int) -> Variable { Variable(2 + 4 * view) }
    private static func top(_ view: Int) -> Variable { Variable(3 + 4 * view) }
    private static func width(_ view: Int) -> Variable { Variable(4 + 4 * view) }
    private static func height(_ view: Int) -> Variable { Variable(5 + 4 * view) }

    /// `views` views in rows of 25 across a container 1,000 wide: each placed 8 points after the previous one, on
    /// its row's line, 4% of the width less the gap (preferred), 40 high — four constraints each, and a stay on each
    /// value (priority 1), as the model keeps them.
    private static func grid(views: Int) throws -> Solver {
        var solver = Solver()
        let containerWidth = Variable(0)
        try solver.add(Constraint(Expression(containerWidth), .equal, Expression(constant: 1_000)))
        for view in 0..<views {
            let column = view % 25
            let after = column == 0 ? Expression(constant: 0) : Expression(left(view - 1)) + Expression(width(view - 1))
            try solver.add(Constraint(Expression(left(view)), .equal, after + 8))
            try solver.add(Constraint(Expression(top(view)), .equal, Expression(constant: Double(view / 25 * 48))))
            try solver.add(
                Constraint(
                    Expression(width(view)),
                    .equal,
                    Expression(containerWidth) * 0.04 + -8,
                    strength: Strength(priority: 750)
                )
            )
            try solver.add(Constraint(Expression(height(view)), .equal, Expression(constant: 40)))
            for variable in [left(view), top(view), width(view), height(view)] {
                try solver.add(
                    Constraint(Expression(variable), .equal, Expression(constant: 0), strength: Strength(priority: 1))
                )
            }
        }
        return solver
    }

    /// `children` children side by side, each an equal share of the container's width and its whole height; the
    /// container's size (variables 0 and 1) given by edits.
    private static func container(children: Int) throws -> Solver {
        var solver = Solver()
        let width = Variable(0)
        let height = Variable(1)
        try solver.addEditVariable(width, strength: Strength(priority: 999))
        try solver.addEditVariable(height, strength: Strength(priority: 999))
        let share = 1 / Double(children)
        for child in 0..<children {
            try solver.add(Constraint(Expression(left(child)), .equal, Expression(width) * (share * Double(child))))
            try solver.add(Constraint(Expression(top(child)), .equal, Expression(constant: 0)))
            try solver.add(Constraint(Expression(Self.width(child)), .equal, Expression(width) * share))
            try solver.add(Constraint(Expression(Self.height(child)), .equal, Expression(height)))
        }
        return solver
    }
}

/// `bench model`'s JSON: the model's figure, its fields at the top as before, and the layout solver's under `layout`.
struct ModelAndLayout: Encodable, Sendable {
    var model: ModelFigure
    var layout: LayoutFigure

    private enum Key: String, CodingKey { case layout }

    func encode(to encoder: any Encoder) throws {
        try model.encode(to: encoder)
        var container = encoder.container(keyedBy: Key.self)
        try container.encode(layout, forKey: .layout)
    }
}

extension BenchReport {
    static func layoutRows(_ layout: LayoutFigure) -> [[String]] {
        [
            [
                "layout: 1 constraint added to \(count(Double(layout.constraints))), /s", count(layout.addsPerSecond),
                "", "",
            ],
            ["layout: 1 constraint removed from it, /s", count(layout.removesPerSecond), "", ""],
            [
                "layout: the same \(count(Double(layout.constraints))) solved from scratch, ms",
                String(format: "%.1f", layout.fromScratchMilliseconds), "", "",
            ],
            [
                "layout: a \(layout.children)-child container resized and read, µs",
                String(format: "%.1f", layout.resizeMicroseconds), "", "",
            ],
        ]
    }

    static func layoutLine(_ layout: LayoutFigure) -> String {
        "layout solver: 1 constraint added to \(count(Double(layout.constraints))): \(count(layout.addsPerSecond))/s, "
            + "removed: \(count(layout.removesPerSecond))/s; the same layout solved from scratch: "
            + String(format: "%.1f ms", layout.fromScratchMilliseconds) + "; a \(layout.children)-child container "
            + "resized and its frames read: " + String(format: "%.1f µs", layout.resizeMicroseconds)
    }
}
