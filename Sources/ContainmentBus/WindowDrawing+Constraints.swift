import ContainmentModel

/// `tree --svg --constraints` and the inspector: each layout constraint (SPEC §16) of a window's views drawn as a dashed
/// line from its first anchor to its second (a constant's a dot on its one anchor), labelled with its id, titled with
/// its owner and spelling. Each carries `data-owner` and `data-views` (its views, space-separated) for a page that
/// shows the constraints of the view under the pointer.
extension WindowDrawing {
    func drawConstraints(in window: Framed, into body: inout [String], scale: Double) {
        let shown = Set([window.root] + window.presented)
        for constraint in constraints {
            guard let parsed = try? LayoutConstraint(parsing: constraint.expression),
                shown.contains(Self.top(of: parsed.first.view.description, in: superviews)),
                let from = point(of: parsed.first)
            else { continue }
            let to = parsed.second.flatMap { point(of: $0) }
            let views = parsed.views.map(\.description).joined(separator: " ")
            let color = parsed.isRequired ? "#6a1b9a" : "#8e24aa"
            var element =
                "<g class=\"constraint\" data-owner=\"\(Self.xmlEscaped(constraint.owner))\" "
                + "data-views=\"\(Self.xmlEscaped(views))\">"
                + "<title>\(Self.xmlEscaped("\(constraint.owner) \(constraint.id): \(constraint.expression)"))</title>"
            if let to {
                element +=
                    "<line x1=\"\(Self.number(from.x))\" y1=\"\(Self.number(from.y))\" x2=\"\(Self.number(to.x))\" "
                    + "y2=\"\(Self.number(to.y))\" stroke=\"\(color)\" stroke-width=\"1.5\" stroke-dasharray=\"4 3\" "
                    + "vector-effect=\"non-scaling-stroke\"/>"
            }
            for end in [from] + (to.map { [$0] } ?? []) {
                element +=
                    "<circle cx=\"\(Self.number(end.x))\" cy=\"\(Self.number(end.y))\" r=\"\(Self.number(3 / scale))\" "
                    + "fill=\"\(color)\"/>"
            }
            let label = to.map { (x: (from.x + $0.x) / 2, y: (from.y + $0.y) / 2) } ?? from
            element +=
                "<text x=\"\(Self.number(label.x + 4 / scale))\" y=\"\(Self.number(label.y - 4 / scale))\" "
                + "font-size=\"\(Self.number(10 / scale))\" fill=\"\(color)\">\(Self.xmlEscaped(constraint.id))</text></g>"
            body.append(element)
        }
    }

    /// The top of the view hierarchy holding `view` (a cycle, which a snapshot never has, stops the walk).
    static func top(of view: String, in superviews: [String: String]) -> String {
        var current = view
        var steps = 0
        while let up = superviews[current], steps <= superviews.count {
            current = up
            steps += 1
        }
        return current
    }

    /// Where an anchor is drawn, in its window's points: an edge or centre line at the view's middle across it; a width
    /// or height at the view's centre.
    func point(of anchor: LayoutAnchor) -> (x: Double, y: Double)? {
        let id = anchor.view.description
        guard let frame = views[id]?.frame else { return nil }
        var x = frame.x
        var y = frame.y
        var current = id
        var steps = 0
        while let up = superviews[current], let above = views[up], steps <= views.count {
            x += above.frame.x
            y += above.frame.y
            current = up
            steps += 1
        }
        let middle = (x: x + frame.width / 2, y: y + frame.height / 2)
        switch anchor.attribute.resolved {
        case .left, .leading: return (x, middle.y)
        case .right, .trailing: return (x + frame.width, middle.y)
        case .top: return (middle.x, y)
        case .bottom: return (middle.x, y + frame.height)
        case .centerX, .centerY, .width, .height: return middle
        }
    }
}
