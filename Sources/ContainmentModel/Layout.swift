import Cassowary

/// The constraints one controller owns (SPEC §16), and the solver that holds them with the views they place.
///
/// Each view a constraint uses — the views it names, and the views between them and the nearest common ancestor whose
/// coordinates it is solved in — has four variables (x, y, width, height in its superview's coordinates), each with a
/// stay at its current value below every priority, so that a value the constraints leave free keeps its frame, and
/// required non-negative sizes. The owner's own root view is the reference frame: its width and height are pinned to
/// its frame (its parent places it), its origin is 0.
public struct Layout: Sendable {
    /// A constraint and the id its owner gave it.
    public struct Entry: Hashable, Sendable {
        public let id: String
        public let constraint: LayoutConstraint

        public init(id: String, constraint: LayoutConstraint) {
            self.id = id
            self.constraint = constraint
        }

        /// A standard container's own constraint on its own views (SPEC §16: its content pinned to its bar): its id
        /// starts with `@`, which no controller's code may use; it publishes no events and is not in the tree's
        /// constraints, as the container's views' frames are not.
        public var isContainers: Bool { Self.isContainers(id) }

        static func isContainers(_ id: String) -> Bool { id.hasPrefix("@") }
    }

    /// A view's variables in the solver.
    struct Frame: Sendable {
        var x: Variable
        var y: Variable
        var width: Variable
        var height: Variable
        /// How many constraints use the view.
        var users: Int
        /// The required `width >= 0`, `height >= 0` (or, for the owner's root view, `width == W`, `height == H`).
        var bounds: [ConstraintHandle]
        /// The size the owner's root view is pinned to; nil for any other view.
        var pinned: Size?
        /// The frame its stays hold: its frame when the layout last looked (a frame set since by anyone else is taken
        /// up before the next solve).
        var anchored: Rect
    }

    /// The constraints, in the order they were added.
    public internal(set) var entries: [Entry] = []
    var solver = Solver()
    var handles: [String: ConstraintHandle] = [:]
    /// The views each constraint uses, by its id.
    var uses: [String: [ViewID]] = [:]
    var frames: [ViewID: Frame] = [:]
    var nextVariable = 0

    public init() {}

    public var isEmpty: Bool { entries.isEmpty }

    public func constraint(_ id: String) -> LayoutConstraint? { entries.first { $0.id == id }?.constraint }

    /// The ids of the constraints that use `view`, in the order they were added.
    func constraints(using view: ViewID) -> [String] {
        entries.lazy.map(\.id).filter { self.uses[$0]?.contains(view) == true }
    }

    /// The views with variables in the order of the constraints that use them (each constraint's views in the order it
    /// names and reaches them): the order their `frameChanged` events come in — a function of the constraints alone,
    /// so that a layout rebuilt from a checkpoint publishes as the one it was saved from.
    var order: [ViewID] {
        var seen = Set<ViewID>()
        var order: [ViewID] = []
        for entry in entries {
            for view in uses[entry.id] ?? [] where seen.insert(view).inserted { order.append(view) }
        }
        return order
    }

    /// The solver's constraints in that same canonical order: the owner's, as added, then each view's bounds or pins.
    var canonicalHandles: [ConstraintHandle] {
        entries.compactMap { handles[$0.id] } + order.flatMap { frames[$0]?.bounds ?? [] }
    }

    mutating func makeVariable() -> Variable {
        defer { nextVariable += 1 }
        return Variable(nextVariable)
    }

    /// A stay's weight: each view's value its own, so that the optimum is unique (no two ways to share a change weigh
    /// the same), and a function of the view and the value only (FNV-1a of the view's id, stable across processes), so
    /// that the same constraints and frames give the same frames whatever the order they came in — a layout rebuilt
    /// from a checkpoint solves as the one it was saved from.
    static func stayWeight(_ view: ViewID, _ value: Int) -> Double {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in view.description.utf8 { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
        return 1 + Double((hash &+ UInt64(value)) % 9_973) * 1e-4
    }

    /// Below every priority a constraint can have (1–999).
    static let stayPriority = 0
}

extension Layout: Equatable {
    /// Two layouts are equal when their constraints are: the solver's tableau is how they are held, not what they are.
    public static func == (lhs: Layout, rhs: Layout) -> Bool { lhs.entries == rhs.entries }
}
