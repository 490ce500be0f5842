import ContainmentModel
import Foundation

extension TreeView {
    /// The tree as text: each window and its root's subtree, then the controllers in no window.
    public func rendered() -> String {
        var lines: [String] = []
        var shown: Set<String> = []
        func describe(_ node: Node) -> String {
            var parts = [node.id, node.kind]
            if !node.host.isEmpty {
                let pid = hosts[node.host].map { $0.up ? " pid=\($0.pid)" : " (down)" } ?? ""
                parts.append("host=\(node.host)\(pid)")
            }
            parts.append(node.frame.map { "frame=\($0)" } ?? "(view not loaded)")
            parts.append(node.appearance)
            if let title = node.properties.title { parts.append("title=\"\(title)\"") }
            if node.properties.editing { parts.append("editing") }
            if !node.properties.state.isEmpty {
                let entries = node.properties.state.sorted { $0.key < $1.key }.map { "\($0.key)=\"\($0.value)\"" }
                parts.append("state[" + entries.joined(separator: " ") + "]")
            }
            switch node.kind {
            case "navigation":
                parts.append("stack=[\(node.children.joined(separator: ","))]")
                let bar = navigationBar(node)
                parts.append("bar=\"\(bar.title ?? "")\"" + (bar.back.map { " back=\"\($0)\"" } ?? ""))
                if let top = node.children.last.flatMap({ nodes[$0] }), !top.properties.toolbarItems.isEmpty {
                    parts.append("toolbar=[\(top.properties.toolbarItems.joined(separator: ","))]")
                }
            case "tab", "menu":
                let index = node.selected.flatMap { node.children.firstIndex(of: $0) }
                parts.append("selected=\(node.selected ?? "none")" + (index.map { " (\($0))" } ?? ""))
                if node.kind == "tab" {
                    let items = tabBar(node).map { ($0.title ?? "") + ($0.badge.map { " (\($0))" } ?? "") }
                    parts.append("tabs=[\(items.joined(separator: ","))]")
                }
                if node.kind == "menu" { parts.append(node.menuVisible ? "menu shown" : "menu hidden") }
            default:
                break
            }
            if let presenting = node.presenting { parts.append("presented-by=\(presenting)") }
            if let presented = node.presented { parts.append("presents=\(presented)") }
            if !node.constraints.isEmpty {
                parts.append(
                    "constraints=[\(node.constraints.map { "\($0.id): \($0.expression)" }.joined(separator: "; "))]"
                )
            }
            return parts.joined(separator: "  ")
        }
        func walk(_ id: String, prefix: String, last: Bool, top: Bool) {
            guard let node = nodes[id], shown.insert(id).inserted else { return }
            lines.append((top ? "" : prefix + (last ? "└─ " : "├─ ")) + describe(node))
            let childPrefix = top ? "" : prefix + (last ? "   " : "│  ")
            for (index, child) in node.children.enumerated() {
                walk(child, prefix: childPrefix, last: index == node.children.count - 1, top: false)
            }
        }
        for name in windows.keys.sorted() {
            guard let window = windows[name] else { continue }
            lines.append("window \(name) \(window.size) \(window.orientation.rawValue)")
            walk(window.root, prefix: "", last: true, top: false)
        }
        let loose = order.filter { nodes[$0]?.parent == nil && !shown.contains($0) }
        if !loose.isEmpty {
            lines.append("no window")
            for (index, id) in loose.enumerated() { walk(id, prefix: "", last: index == loose.count - 1, top: false) }
        }
        if !hosts.isEmpty {
            lines.append("hosts")
            for name in hosts.keys.sorted() {
                guard let host = hosts[name] else { continue }
                lines.append("   \(name)  pid=\(host.pid)  \(host.up ? "up" : "down")")
            }
        }
        lines.append("at seq \(seq)")
        return lines.joined(separator: "\n")
    }

    /// The tree as one JSON object (keys sorted): `seq`, `controllers` (creation order), `windows`, `hosts`.
    public func json() -> String {
        let controllers: [[String: Any]] = order.compactMap { id in
            guard let node = nodes[id] else { return nil }
            var object: [String: Any] = [
                "id": node.id, "kind": node.kind, "host": node.host, "children": node.children,
                "appearance": node.appearance,
            ]
            object["parent"] = node.parent ?? NSNull()
            object["frame"] = node.frame.map { [$0.x, $0.y, $0.width, $0.height] } ?? NSNull()
            object["pid"] = hosts[node.host].map { $0.pid } ?? NSNull()
            object["presenting"] = node.presenting ?? NSNull()
            object["presented"] = node.presented ?? NSNull()
            if node.kind == "tab" || node.kind == "menu" {
                object["selected"] = node.selected ?? NSNull()
                object["selectedIndex"] = node.selected.flatMap { node.children.firstIndex(of: $0) } ?? NSNull()
            }
            if node.kind == "menu" { object["menuVisible"] = node.menuVisible }
            if !node.constraints.isEmpty {
                object["constraints"] = node.constraints.map { ["id": $0.id, "expression": $0.expression] }
            }
            object["properties"] = Self.json(node.properties)
            if node.kind == "navigation" {
                let bar = navigationBar(node)
                object["navigationBar"] = ["title": Self.json(bar.title), "back": Self.json(bar.back)]
            }
            if node.kind == "tab" {
                object["tabBar"] = tabBar(node).map { item -> [String: Any] in
                    ["title": Self.json(item.title), "badge": Self.json(item.badge)]
                }
            }
            return object
        }
        let windowObjects = windows.keys.sorted().compactMap { name -> [String: Any]? in
            guard let window = windows[name] else { return nil }
            return [
                "name": name, "root": window.root, "size": [window.size.width, window.size.height],
                "orientation": window.orientation.rawValue,
            ]
        }
        let hostObjects = hosts.keys.sorted().compactMap { name -> [String: Any]? in
            guard let host = hosts[name] else { return nil }
            return ["name": name, "pid": host.pid, "up": host.up]
        }
        let object: [String: Any] = [
            "seq": seq, "controllers": controllers, "windows": windowObjects, "hosts": hostObjects,
        ]
        return JSONText.encode(object)
    }
}

extension TreeView {
    /// A navigation controller's bar, by the model's rule, from its stack's properties.
    public func navigationBar(_ node: Node) -> (title: String?, back: String?) {
        let stack = node.children
        return NavigationItem.bar(
            top: stack.last.flatMap { nodes[$0]?.properties },
            previous: stack.count > 1 ? nodes[stack[stack.count - 2]]?.properties : nil
        )
    }

    /// A tab container's bar: each child's tab item, in order.
    public func tabBar(_ node: Node) -> [TabItem] {
        node.children.map { nodes[$0]?.properties.tabItem ?? TabItem() }
    }

    /// The properties `tree --json` shows: the ones SPEC §13 names, and the editing state.
    static func json(_ properties: ControllerProperties) -> [String: Any] {
        let navigation = properties.navigationItem
        let navigationItem: [String: Any] = [
            "title": json(navigation.title), "backTitle": json(navigation.backTitle),
            "leftItems": navigation.leftItems, "rightItems": navigation.rightItems,
        ]
        let tabItem: [String: Any] = ["title": json(properties.tabItem.title), "badge": json(properties.tabItem.badge)]
        let size: Any = properties.preferredContentSize.map { [$0.width, $0.height] } ?? NSNull()
        return [
            "title": json(properties.title),
            "navigationItem": navigationItem,
            "tabItem": tabItem,
            "toolbarItems": properties.toolbarItems,
            "delegate": json(properties.delegate?.rawValue),
            "handles": properties.handles,
            "supportedOrientations": properties.supportedOrientations.sorted().map(\.rawValue),
            "preferredContentSize": size,
            "editing": properties.editing,
            "state": properties.state,
        ]
    }

    /// A text, or JSON's null.
    static func json(_ text: String?) -> Any { text ?? NSNull() }
}

/// Deterministic JSON text (sorted keys, no escaped slashes) for the command-line tools.
public enum JSONText {
    public static func encode(_ object: Any) -> String {
        guard JSONSerialization.isValidJSONObject(object),
            let data = try? JSONSerialization.data(
                withJSONObject: object,
                options: [.sortedKeys, .withoutEscapingSlashes]
            )
        else { return "{}" }
        return String(decoding: data, as: UTF8.self)
    }

    /// Any JSON value, a string or a number included, as JSON text (`null` when it is none).
    public static func encode(fragment: Any) -> String {
        guard
            let data = try? JSONSerialization.data(
                withJSONObject: fragment,
                options: [.sortedKeys, .withoutEscapingSlashes, .fragmentsAllowed]
            )
        else { return "null" }
        return String(decoding: data, as: UTF8.self)
    }

    /// A string as JSON text, quoted and escaped.
    public static func encodeString(_ text: String) -> String { encode(fragment: text) }
}
