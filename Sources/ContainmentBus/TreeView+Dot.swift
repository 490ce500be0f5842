import ContainmentModel

extension TreeView {
    /// The tree as a Graphviz graph (`tree --dot`): each window a node pointing at its root; each controller a node
    /// with its kind, host and appearance, filled by its appearance state; an edge from a parent to each child in
    /// order (bold to a tab's or menu's selected child); a dashed edge from a controller to the one it presents.
    public func dot() -> String {
        var lines = [
            "digraph containment {",
            "  rankdir=TB;",
            "  node [shape=box, style=\"rounded,filled\", fontname=\"Helvetica\", fontsize=11];",
            "  edge [fontname=\"Helvetica\", fontsize=9];",
        ]
        for name in windows.keys.sorted() {
            guard let window = windows[name] else { continue }
            let label = Self.dotQuoted("window \(name)", "\(window.size) \(window.orientation.rawValue)")
            lines.append("  \(Self.dotQuoted("window:" + name)) [shape=box3d, fillcolor=\"#e3f2fd\", label=\(label)];")
            lines.append("  \(Self.dotQuoted("window:" + name)) -> \(Self.dotQuoted(window.root));")
        }
        for id in order {
            guard let node = nodes[id] else { continue }
            let kind = node.host.isEmpty ? node.kind : "\(node.kind) · \(node.host)"
            let state = node.frame == nil ? "\(node.appearance) · not loaded" : node.appearance
            lines.append(
                "  \(Self.dotQuoted(id)) [label=\(Self.dotQuoted(node.id, kind, state)), "
                    + "fillcolor=\"\(Self.fill(of: node.appearance))\"];"
            )
        }
        for id in order {
            guard let node = nodes[id] else { continue }
            for (index, child) in node.children.enumerated() {
                let selected = node.selected == child
                let attributes = selected ? "label=\"\(index) selected\", style=bold" : "label=\"\(index)\""
                lines.append("  \(Self.dotQuoted(id)) -> \(Self.dotQuoted(child)) [\(attributes)];")
            }
            if let presented = node.presented {
                lines.append(
                    "  \(Self.dotQuoted(id)) -> \(Self.dotQuoted(presented)) [style=dashed, label=\"presents\", constraint=false];"
                )
            }
        }
        lines.append("}")
        return lines.joined(separator: "\n")
    }

    /// A node's fill by its appearance state (the colours `tree --svg` strokes with, lighter).
    static func fill(of appearance: String) -> String {
        switch appearance {
        case "appeared": "#c8e6c9"
        case "appearing": "#dcedc8"
        case "disappearing": "#ffe0b2"
        default: "#eeeeee"
        }
    }

    /// A Graphviz ID in double quotes: each line's quotes and backslashes escaped, the lines joined by `\n` (a line
    /// break in a label).
    static func dotQuoted(_ lines: String...) -> String {
        let escaped = lines.map { line in
            line.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
        }
        return "\"" + escaped.joined(separator: "\\n") + "\""
    }
}
