import Yams

/// The keys a YAML mapping of a configuration file may hold: those of its Decodable's `CodingKeys`, so the list of
/// keys lives once, in the type that reads them. Values that are mappings, or sequences of mappings, have their own.
package struct KeySchema: Sendable {
    /// What such a mapping is, to name it: "the top level", "the window", "controller", "host".
    package var what: String
    package var keys: [String]
    /// For a key whose value is a mapping: its keys.
    package var mappings: [String: KeySchema] = [:]
    /// For a key whose value is a sequence: the keys of each item that is a mapping (a scalar item is the value's own
    /// business).
    package var items: [String: KeySchema] = [:]
    /// The key whose value names an item in a message (`id` of a controller, `name` of a host).
    package var nameKey: String?

    package init<Keys: CodingKey & CaseIterable>(_ what: String, _ keys: Keys.Type, nameKey: String? = nil) {
        self.what = what
        self.keys = keys.allCases.map(\.stringValue)
        self.nameKey = nameKey
    }
}

/// Unknown keys refused (issue 27: strict configuration), each with its line and the nearest known key, rather than
/// silently ignored as a decoder does: `titel` in a topology is a typo, not a wish.
public enum StrictKeys {
    /// Each line of `error` prefixed with `file: `.
    package static func located(_ error: ConfigError, in file: String) -> ConfigError {
        ConfigError(error.description.split(separator: "\n").map { "\(file): \($0)" }.joined(separator: "\n"))
    }

    /// Refuses `text` when a mapping holds a key `schema` does not know: one line per unknown key, `line N: unknown key
    /// "titel" in controller menu; did you mean "title"?` (or the keys it may hold, when none is near). A text that is
    /// not YAML is left to the decoder.
    package static func check(_ text: String, against schema: KeySchema) throws(ConfigError) {
        guard let node = try? Yams.compose(yaml: text) else { return }
        var problems: [String] = []
        walk(node, schema, context: schema.what, into: &problems)
        guard !problems.isEmpty else { return }
        throw ConfigError(problems.prefix(10).joined(separator: "\n"))
    }

    private static func walk(_ node: Node, _ schema: KeySchema, context: String, into problems: inout [String]) {
        guard let mapping = node.mapping else { return }
        for (key, value) in mapping {
            guard let name = key.string else { continue }
            guard schema.keys.contains(name) else {
                let line = key.mark.map { "line \($0.line): " } ?? ""
                // The nearest key when there is one, else the keys it may hold.
                let hint =
                    nearest(name, in: schema.keys).map { "; did you mean \"\($0)\"?" }
                    ?? " (its keys: \(schema.keys.joined(separator: ", ")))"
                problems.append("\(line)unknown key \"\(name.prefix(64))\" in \(context)\(hint)")
                continue
            }
            if let inner = schema.mappings[name] {
                walk(value, inner, context: inner.what, into: &problems)
            }
            if let inner = schema.items[name], let sequence = value.sequence {
                for item in sequence {
                    let named = inner.nameKey.flatMap { item.mapping?[$0]?.string }
                    walk(item, inner, context: named.map { "\(inner.what) \($0)" } ?? inner.what, into: &problems)
                }
            }
        }
    }

    /// The known name `name` is most likely a typo of: the same but for case, else within a third of its length in
    /// edits (at least 2). Configuration keys, CLI verbs.
    public static func nearest(_ name: String, in keys: [String]) -> String? {
        if let same = keys.first(where: { $0.lowercased() == name.lowercased() }) { return same }
        let limit = max(2, name.count / 3)
        let scored = keys.map { ($0, distance(name.lowercased(), $0.lowercased())) }.filter { $0.1 <= limit }
        return scored.min { $0.1 < $1.1 }?.0
    }

    /// The Levenshtein distance: insertions, deletions and substitutions.
    package static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a)
        let b = Array(b)
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        var previous = Array(0...b.count)
        for (i, x) in a.enumerated() {
            var current = [i + 1] + Array(repeating: 0, count: b.count)
            for (j, y) in b.enumerated() {
                current[j + 1] = min(previous[j + 1] + 1, current[j] + 1, previous[j] + (x == y ? 0 : 1))
            }
            previous = current
        }
        return previous[b.count]
    }
}
