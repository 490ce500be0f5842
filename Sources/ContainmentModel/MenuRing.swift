import Foundation

/// Where seed 004's menu view puts its items: on a ring around the middle of the menu, the first at the top, the
/// rest clockwise, each `ContainerMetrics.menuItemSide` square, its centre rounded to whole points.
enum MenuRing {
    static func frames(count: Int, in size: Size) -> [Rect] {
        guard count > 0 else { return [] }
        let side = ContainerMetrics.menuItemSide
        let radius = max(0, min(size.width, size.height) / 2 - side)
        return (0..<count).map { index in
            let angle = -Double.pi / 2 + 2 * Double.pi * Double(index) / Double(count)
            let x = (size.width / 2 + radius * cos(angle)).rounded()
            let y = (size.height / 2 + radius * sin(angle)).rounded()
            return Rect(x: x - side / 2, y: y - side / 2, width: side, height: side)
        }
    }
}
