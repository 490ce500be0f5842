/// A typed method of a kind — a `distributed func` of its code — as its host registers it and `containment methods`
/// shows it: its declared Swift name, each parameter's label and the JSON Schema of its JSON text, and its result's.
///
/// A call names the method by ``name`` (`insert(child:at:)`: stable across builds, unlike the Swift runtime's
/// mangled name of its thunk) and carries one JSON text per parameter, in order.
public struct MethodDescription: Sendable, Hashable, Codable {
    public struct Parameter: Sendable, Hashable, Codable {
        /// Its argument label as declared, `_` for none.
        public var label: String
        /// A JSON Schema (2020-12) of its JSON text, as JSON text; `{}` (any JSON) when the host could not tell.
        public var schema: String

        public init(label: String, schema: String) {
            self.label = label
            self.schema = schema
        }
    }

    /// Its declared name: `rotate(by:)`, `children()`, `add(_:)`.
    public var name: String
    public var parameters: [Parameter]
    /// A JSON Schema of its result's JSON text; `{"type":"null"}` for a method that returns nothing.
    public var result: String

    public init(name: String, parameters: [Parameter], result: String) {
        self.name = name
        self.parameters = parameters
        self.result = result
    }

    /// The argument labels a declared name gives, in order (`insert(child:at:)`: `child`, `at`; `add(_:)`: `_`).
    public static func labels(of name: String) -> [String] {
        guard let open = name.firstIndex(of: "("), name.hasSuffix(")") else { return [] }
        return name[name.index(after: open)..<name.index(before: name.endIndex)].split(separator: ":").map(String.init)
    }

    /// Whether a verb can name a typed method: a declared Swift name ends with `)`, and an old client's mangled name
    /// begins with `$s`. For a kind with typed methods, such a verb is a call; for any other kind, a string verb.
    public static func isMethodName(_ verb: String) -> Bool { verb.hasSuffix(")") || verb.hasPrefix("$s") }
}
