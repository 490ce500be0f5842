import ContainmentModel

/// Where a grid places its children: two columns, filled row by row, each cell half the grid's width and an equal
/// share of its height.
public enum GridLayout {
    /// The columns.
    public static let columns = 2

    /// The frame of each of `count` children in a grid of `bounds`' size, in order.
    public static func frames(count: Int, in bounds: Rect) -> [Rect] {
        guard count > 0 else { return [] }
        let rows = (count + columns - 1) / columns
        let width = bounds.width / Double(columns)
        let height = bounds.height / Double(rows)
        return (0..<count).map { index in
            Rect(
                x: width * Double(index % columns),
                y: height * Double(index / columns),
                width: width,
                height: height
            )
        }
    }

    /// The order the children were laid out in, read back from their frames (row by row): how a grid whose host
    /// process was replaced finds its order again.
    public static func order(of children: [ControllerID], frames: [ControllerID: Rect]) -> [ControllerID] {
        children.enumerated().sorted { left, right in
            let a = frames[left.element]
            let b = frames[right.element]
            switch (a, b) {
            case let (a?, b?) where a.y != b.y: return a.y < b.y
            case let (a?, b?) where a.x != b.x: return a.x < b.x
            case (nil, _?): return false
            case (_?, nil): return true
            default: return left.offset < right.offset
            }
        }.map(\.element)
    }
}
