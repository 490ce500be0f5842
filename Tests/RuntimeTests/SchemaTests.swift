import ContainmentModel
import Foundation
import Testing

@testable import ContainmentConfig
@testable import ContainmentRuntime

/// docs/schema/*.schema.json, which editors and `scripts/check-schemas.py` hold a topology and runtime.yaml to: at
/// every level, the keys the Swift types read (their ``KeySchema``, which the loaders hold a file to), no more and no
/// fewer, each level refusing other keys; and the spellings of each enumerated value the Swift enumeration's. A key
/// added to a type and not to its schema (or the other way round) fails here.
@Suite struct SchemaTests {
    /// The schema docs/schema/`name`, as JSON.
    static func schema(_ name: String) throws -> [String: Any] {
        let url = RuntimeFixture.repository.appendingPathComponent("docs/schema/\(name)")
        return try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
    }

    /// `value` as an object schema: itself, the `#/$defs/NAME` it refers to, or the alternative of its `anyOf` that
    /// has properties (a host is a name or an entry).
    static func resolve(_ value: Any?, _ root: [String: Any]) -> [String: Any]? {
        guard let schema = value as? [String: Any] else { return nil }
        if let reference = schema["$ref"] as? String {
            let name = reference.replacingOccurrences(of: "#/$defs/", with: "")
            return resolve((root["$defs"] as? [String: Any])?[name], root)
        }
        if let alternatives = schema["anyOf"] as? [Any] {
            return alternatives.lazy.compactMap { resolve($0, root) }.first { $0["properties"] != nil }
        }
        return schema
    }

    /// The properties of the object schema `value` (``resolve(_:_:)``).
    static func properties(_ value: Any?, _ root: [String: Any]) -> [String: Any]? {
        resolve(value, root)?["properties"] as? [String: Any]
    }

    /// Compares the object schema `object` with `keys` at `path`, then each mapping and sequence of mappings that
    /// `keys` names; returns the paths compared.
    static func compare(
        _ object: [String: Any],
        with keys: KeySchema,
        at path: String,
        root: [String: Any]
    ) -> [String] {
        let properties = object["properties"] as? [String: Any] ?? [:]
        #expect(Set(properties.keys) == Set(keys.keys), "\(path): the schema's keys are not \(keys.what)'s")
        #expect(object["additionalProperties"] as? Bool == false, "\(path): an unknown key must be refused")
        var compared = [path]
        for (key, inner) in keys.mappings {
            guard let mapping = resolve(properties[key], root) else {
                Issue.record("\(path).\(key): no object schema")
                continue
            }
            compared += compare(mapping, with: inner, at: "\(path).\(key)", root: root)
        }
        for (key, inner) in keys.items {
            guard let item = resolve(resolve(properties[key], root)?["items"], root) else {
                Issue.record("\(path).\(key): no object schema for its items")
                continue
            }
            compared += compare(item, with: inner, at: "\(path).\(key)[]", root: root)
        }
        return compared
    }

    /// The spellings a property's `enum` allows: its own, its items' (a list of them), or its `anyOf`'s (a kind is a
    /// standard one or any name).
    static func spellings(_ property: Any?) -> Set<String> {
        guard let schema = property as? [String: Any] else { return [] }
        if let values = schema["enum"] as? [String] { return Set(values) }
        if let items = schema["items"] { return spellings(items) }
        let alternatives = schema["anyOf"] as? [Any] ?? []
        return alternatives.map { spellings($0) }.first { !$0.isEmpty } ?? []
    }

    /// The raw values of `Values`' cases: the spellings a reader takes.
    static func cases<Values: CaseIterable & RawRepresentable<String>>(_: Values.Type) -> Set<String> {
        Set(Values.allCases.map(\.rawValue))
    }

    @Test func theTopologySchemaHasATopologysKeys() throws {
        let root = try Self.schema("topology.schema.json")
        let compared = Self.compare(root, with: Topology.keySchema, at: "topology", root: root)
        #expect(Set(compared) == ["topology", "topology.window", "topology.hosts[]", "topology.controllers[]"])
    }

    @Test func theRuntimeSchemaHasRuntimeYamlsKeys() throws {
        let root = try Self.schema("runtime.schema.json")
        let compared = Self.compare(root, with: RuntimeConfig.keySchema, at: "runtime", root: root)
        let nested = ["runtime.curve", "runtime.curve.allow[]", "runtime.etcd", "runtime.supervisors[]"]
        #expect(Set(compared) == Set(["runtime"] + nested))
    }

    @Test func theSchemasSpellEachValueAsItsEnumerationDoes() throws {
        let topology = try Self.schema("topology.schema.json")
        let definitions = try #require(topology["$defs"] as? [String: Any])
        let controller = try #require(Self.properties(definitions["controller"], topology))
        let host = try #require(Self.properties(definitions["host"], topology))
        #expect(Self.spellings(controller["kind"]) == Set(Kind.standard.map(\.rawValue)))
        #expect(Self.spellings(controller["presentationStyle"]) == Self.cases(ModalPresentationStyle.self))
        #expect(Self.spellings(controller["transitionStyle"]) == Self.cases(ModalTransitionStyle.self))
        #expect(Self.spellings(controller["pageStyle"]) == Self.cases(PageTransitionStyle.self))
        #expect(Self.spellings(controller["spine"]) == Self.cases(SpineLocation.self))
        #expect(Self.spellings(controller["displayMode"]) == Self.cases(SplitDisplayMode.self))
        #expect(Self.spellings(controller["orientations"]) == Self.cases(Orientation.self))
        #expect(Self.spellings(host["restart"]) == Self.cases(RestartMode.self))

        let runtime = try #require(try Self.schema("runtime.schema.json")["properties"] as? [String: Any])
        #expect(Self.spellings(runtime["hostRestart"]) == Self.cases(RestartMode.self))
        #expect(Self.spellings(runtime["journalSync"]) == Self.cases(JournalSync.self))
        #expect(Self.spellings(runtime["logFormat"]) == Self.cases(LogFormat.self))
    }
}
