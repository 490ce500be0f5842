import ContainmentModel
import Foundation

/// Each window of a snapshot drawn to scale (`tree --svg`): every view's frame a rectangle inside its superview's, a
/// controller's root view coloured by its appearance, a hidden view dashed and faded with what it holds, alpha as
/// opacity (compounding down the tree, as on screen), and the controllers presented over the window on top, in the
/// order they stand. Each rectangle carries `data-view` and `data-controller`, for a page that highlights them. With
/// `constraints`, each layout constraint (SPEC §16) is a line between its two anchors (``WindowDrawing+Constraints``).
public struct WindowDrawing: Sendable {
    struct ViewBox: Sendable {
        var frame: Rect
        var alpha: Double
        var hidden: Bool
        var subviews: [String]
    }

    struct Framed: Sendable {
        var name: String
        var size: Size
        var orientation: String
        var root: String
        /// Controllers presented over the window, lowest first.
        var presented: [String]
    }

    let views: [String: ViewBox]
    let superviews: [String: String]
    /// Each owner's constraints, in the order added: its id and spelling.
    let constraints: [(owner: String, id: String, expression: String)]
    let appearance: [String: String]
    let kinds: [String: String]
    let windows: [Framed]

    public init(snapshot: WireSnapshot) {
        var views: [String: ViewBox] = [:]
        var superviews: [String: String] = [:]
        for view in snapshot.views {
            views[view.id] = ViewBox(
                frame: view.frame.model,
                alpha: view.alpha,
                hidden: view.hidden,
                subviews: view.subviews
            )
            if view.hasSuperview { superviews[view.id] = view.superview }
        }
        var presentedBy: [String: String] = [:]
        for controller in snapshot.controllers where controller.hasPresented {
            presentedBy[controller.id] = controller.presented
        }
        func top(of view: String) -> String { Self.top(of: view, in: superviews) }
        var windows: [Framed] = []
        for window in snapshot.windows.sorted(by: { $0.id < $1.id }) {
            // Presentations stand on a controller whose views are in this window (or in a presentation over it).
            var covered: Set<String> = [window.root]
            var presented: [String] = []
            var changed = true
            while changed {
                changed = false
                for controller in snapshot.controllers {
                    guard let shown = presentedBy[controller.id], !presented.contains(shown),
                        controller.viewLoaded, covered.contains(top(of: controller.id))
                    else { continue }
                    presented.append(shown)
                    covered.insert(shown)
                    changed = true
                }
            }
            windows.append(
                Framed(
                    name: window.id,
                    size: window.size.model,
                    orientation: window.orientation.isEmpty
                        ? Orientation.initial(for: window.size.model).rawValue : window.orientation,
                    root: window.root,
                    presented: presented
                )
            )
        }
        self.views = views
        self.superviews = superviews
        constraints = snapshot.controllers.flatMap { controller in
            controller.constraints.map { (owner: controller.id, id: $0.id, expression: $0.expression) }
        }
        appearance = Dictionary(snapshot.controllers.map { ($0.id, $0.appearance) }, uniquingKeysWith: { $1 })
        kinds = Dictionary(snapshot.controllers.map { ($0.id, $0.kind) }, uniquingKeysWith: { $1 })
        self.windows = windows
    }

    /// The colour of a controller's root view by its appearance state.
    static func color(of appearance: String) -> String {
        switch appearance {
        case "appeared": "#2e7d32"
        case "appearing": "#7cb342"
        case "disappearing": "#ef6c00"
        default: "#9e9e9e"
        }
    }

    /// The SVG document: the windows side by side, each scaled to fit `box` points (width and height); with
    /// `constraints`, each window's layout constraints drawn over its views.
    public func svg(box: Double = 360, constraints: Bool = false) -> String {
        let gap = 24.0
        let title = 28.0
        var x = gap
        var body: [String] = []
        var height = 0.0
        for window in windows {
            let scale = min(box / max(window.size.width, 1), box / max(window.size.height, 1), 1)
            let width = window.size.width * scale
            let drawn = window.size.height * scale
            body.append(
                "<g class=\"window\" data-window=\"\(Self.xmlEscaped(window.name))\" transform=\"translate(\(Self.number(x)),\(Self.number(title)))\">"
            )
            body.append(
                "<text class=\"window-title\" x=\"0\" y=\"-10\" font-size=\"13\">window \(Self.xmlEscaped(window.name)) "
                    + "\(Self.number(window.size.width))×\(Self.number(window.size.height)) "
                    + "\(Self.xmlEscaped(window.orientation))</text>"
            )
            body.append(
                "<rect class=\"screen\" x=\"0\" y=\"0\" width=\"\(Self.number(width))\" height=\"\(Self.number(drawn))\" fill=\"#fafafa\" stroke=\"#212121\" stroke-width=\"2\"/>"
            )
            body.append("<g transform=\"scale(\(Self.number(scale)))\">")
            var labels = 0
            draw(window.root, into: &body, labels: &labels, scale: scale, depth: 0)
            for presented in window.presented {
                labels = 0
                draw(presented, into: &body, labels: &labels, scale: scale, depth: 0)
            }
            if constraints { drawConstraints(in: window, into: &body, scale: scale) }
            body.append("</g></g>")
            x += width + gap
            height = max(height, drawn)
        }
        let total = (width: max(x, gap * 2), height: height + title + gap)
        return """
            <svg xmlns="http://www.w3.org/2000/svg" width="\(Self.number(total.width))" height="\(Self.number(total.height))" \
            viewBox="0 0 \(Self.number(total.width)) \(Self.number(total.height))" font-family="Helvetica, Arial, sans-serif">
            \(body.joined(separator: "\n"))
            </svg>
            """
    }

    /// A view and what it holds: a group at its frame's origin, its rectangle, its label, then its subviews in order.
    private func draw(_ id: String, into body: inout [String], labels: inout Int, scale: Double, depth: Int) {
        guard let view = views[id], depth < 256 else { return }
        let owner = id.split(separator: "/", maxSplits: 1).first.map(String.init) ?? id
        let isRoot = owner == id
        let stroke = isRoot ? Self.color(of: appearance[owner] ?? "") : "#607d8b"
        var classes = ["view"]
        if isRoot { classes.append("root") }
        if view.hidden { classes.append("hidden") }
        let opacity = view.alpha * (view.hidden ? 0.35 : 1)
        body.append(
            "<g transform=\"translate(\(Self.number(view.frame.x)),\(Self.number(view.frame.y)))\" opacity=\"\(Self.number(opacity))\">"
        )
        let dash = view.hidden ? " stroke-dasharray=\"6 4\"" : ""
        let label = isRoot ? "\(id) (\(kinds[owner] ?? ""))" : id
        body.append(
            "<rect class=\"\(classes.joined(separator: " "))\" data-view=\"\(Self.xmlEscaped(id))\" data-controller=\"\(Self.xmlEscaped(owner))\" "
                + "x=\"0\" y=\"0\" width=\"\(Self.number(view.frame.width))\" height=\"\(Self.number(view.frame.height))\" "
                + "fill=\"\(stroke)\" fill-opacity=\"0.08\" stroke=\"\(stroke)\" stroke-width=\"\(isRoot ? 2 : 1)\" "
                + "vector-effect=\"non-scaling-stroke\"\(dash)><title>\(Self.xmlEscaped(Self.describe(id, view)))</title></rect>"
        )
        // Each label a line below the one drawn before it, so views that share an origin keep their labels apart.
        let size = 11 / scale
        labels += 1
        let line = Double(labels) * (size + 3 / scale)
        body.append(
            "<text x=\"\(Self.number(3 / scale))\" y=\"\(Self.number(line))\" font-size=\"\(Self.number(size))\" "
                + "fill=\"\(stroke)\">\(Self.xmlEscaped(label))</text>"
        )
        for subview in view.subviews { draw(subview, into: &body, labels: &labels, scale: scale, depth: depth + 1) }
        body.append("</g>")
    }

    static func describe(_ id: String, _ view: ViewBox) -> String {
        var text = "\(id) frame=\(view.frame)"
        if view.alpha != 1 { text += " alpha=\(number(view.alpha))" }
        if view.hidden { text += " hidden" }
        return text
    }

    /// A number as SVG writes it: no exponent, at most 3 decimals, no trailing zeros.
    static func number(_ value: Double) -> String {
        guard value.isFinite else { return "0" }
        var text = String(format: "%.3f", value)
        while text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        return text == "-0" ? "0" : text
    }

    /// Text or an attribute value as XML carries it.
    static func xmlEscaped(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.count)
        for character in text {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            default: out.append(character)
            }
        }
        return out
    }
}
