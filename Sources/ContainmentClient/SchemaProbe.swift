import ContainmentModel
import Foundation

/// A JSON Schema (2020-12) of the JSON a `Codable` type reads, found by decoding a made-up value of it: the decoder
/// below notes every key and value the type's `init(from:)` asks for, and answers each with a plain value (0, "",
/// false, one element per array). Types whose decoding checks its values (an enum of raw values, a validated string)
/// refuse the made-up value: their schema is `{}` (any JSON), and so is a dictionary's values'.
package enum SchemaProbe {
    /// `type`'s schema, as JSON text, and the made-up value (nil when the type refused it).
    package static func schema<Value: Decodable>(of type: Value.Type) -> (schema: String, value: Value?) {
        let node = SchemaNode()
        let value = try? Value(from: ProbeDecoder(node: node, depth: 0))
        return (value == nil ? "{}" : node.json, value)
    }

    /// A schema's text for a JSON value.
    static func text(_ object: Any) -> String {
        guard let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]) else {
            return "{}"
        }
        return String(decoding: data, as: UTF8.self)
    }
}

/// What a value's decoding asked for: its JSON type, its properties or its elements.
private final class SchemaNode {
    enum Shape {
        case unknown
        case scalar(String)
        case array(SchemaNode)
        case object([(key: String, node: SchemaNode, required: Bool)])
    }

    var shape = Shape.unknown
    /// Its decoding asked whether it is null (an optional).
    var nullable = false

    var object: [String: Any] {
        var schema: [String: Any]
        switch shape {
        case .unknown: schema = [:]
        case .scalar(let type): schema = ["type": type]
        case .array(let element): schema = ["type": "array", "items": element.object]
        case .object(let properties):
            var byKey: [String: Any] = [:]
            for property in properties { byKey[property.key] = property.node.object }
            schema = ["type": "object", "properties": byKey]
            let required = properties.filter(\.required).map(\.key)
            if !required.isEmpty { schema["required"] = required }
        }
        return nullable ? ["anyOf": [schema, ["type": "null"]]] : schema
    }

    var json: String { SchemaProbe.text(object) }

    func property(_ key: String, required: Bool) -> SchemaNode {
        var properties: [(key: String, node: SchemaNode, required: Bool)] = []
        if case .object(let existing) = shape { properties = existing }
        if let index = properties.firstIndex(where: { $0.key == key }) {
            properties[index].required = properties[index].required && required
            shape = .object(properties)
            return properties[index].node
        }
        let child = SchemaNode()
        properties.append((key, child, required))
        shape = .object(properties)
        return child
    }
}

/// A made-up value's decoder: every question answered, every answer noted in its node.
private struct ProbeDecoder: Decoder {
    let node: SchemaNode
    /// How deep in the value it is: a recursive type stops at 16.
    let depth: Int
    var codingPath: [any CodingKey] = []
    var userInfo: [CodingUserInfoKey: Any] = [:]

    struct TooDeep: Error {}

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard depth < 16 else { throw TooDeep() }
        if case .unknown = node.shape { node.shape = .object([]) }
        return KeyedDecodingContainer(Keyed<Key>(node: node, depth: depth))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard depth < 16 else { throw TooDeep() }
        let element = SchemaNode()
        node.shape = .array(element)
        return Unkeyed(element: element, depth: depth)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { Single(node: node, depth: depth) }

    /// A made-up value of a scalar type, its JSON type noted; nil for any other type.
    static func scalar<T>(_ type: T.Type, into node: SchemaNode) -> T? {
        let made: (Any, String)? =
            switch type {
            case is String.Type: ("", "string")
            case is Bool.Type: (false, "boolean")
            case is Double.Type: (0.0, "number")
            case is Float.Type: (Float(0), "number")
            case is Int.Type: (0, "integer")
            case is Int8.Type: (Int8(0), "integer")
            case is Int16.Type: (Int16(0), "integer")
            case is Int32.Type: (Int32(0), "integer")
            case is Int64.Type: (Int64(0), "integer")
            case is UInt.Type: (UInt(0), "integer")
            case is UInt8.Type: (UInt8(0), "integer")
            case is UInt16.Type: (UInt16(0), "integer")
            case is UInt32.Type: (UInt32(0), "integer")
            case is UInt64.Type: (UInt64(0), "integer")
            default: nil
            }
        guard let (value, json) = made else { return nil }
        node.shape = .scalar(json)
        return value as? T
    }

    static func value<T: Decodable>(_ type: T.Type, into node: SchemaNode, depth: Int) throws -> T {
        if let scalar = scalar(type, into: node) { return scalar }
        return try T(from: ProbeDecoder(node: node, depth: depth + 1))
    }

    private struct Keyed<Key: CodingKey>: KeyedDecodingContainerProtocol {
        let node: SchemaNode
        let depth: Int
        var codingPath: [any CodingKey] = []
        /// None: a dictionary's decoding finds it empty.
        var allKeys: [Key] { [] }

        func contains(_ key: Key) -> Bool { true }

        func decodeNil(forKey key: Key) throws -> Bool {
            node.property(key.stringValue, required: false).nullable = true
            return false
        }

        func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
            try ProbeDecoder.value(type, into: node.property(key.stringValue, required: true), depth: depth)
        }

        func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
            let child = node.property(key.stringValue, required: false)
            child.nullable = true
            return try ProbeDecoder.value(type, into: child, depth: depth)
        }

        func nestedContainer<NestedKey: CodingKey>(
            keyedBy type: NestedKey.Type,
            forKey key: Key
        ) throws -> KeyedDecodingContainer<NestedKey> {
            try ProbeDecoder(node: node.property(key.stringValue, required: true), depth: depth + 1)
                .container(keyedBy: type)
        }

        func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
            try ProbeDecoder(node: node.property(key.stringValue, required: true), depth: depth + 1).unkeyedContainer()
        }

        func superDecoder() throws -> any Decoder { ProbeDecoder(node: node, depth: depth + 1) }
        func superDecoder(forKey key: Key) throws -> any Decoder {
            ProbeDecoder(node: node.property(key.stringValue, required: true), depth: depth + 1)
        }
    }

    /// An array of one made-up element.
    private struct Unkeyed: UnkeyedDecodingContainer {
        let element: SchemaNode
        let depth: Int
        var codingPath: [any CodingKey] = []
        var count: Int? { 1 }
        var currentIndex = 0
        var isAtEnd: Bool { currentIndex > 0 }

        mutating func decodeNil() throws -> Bool {
            element.nullable = true
            return false
        }

        mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
            currentIndex += 1
            return try ProbeDecoder.value(type, into: element, depth: depth)
        }

        mutating func nestedContainer<NestedKey: CodingKey>(
            keyedBy type: NestedKey.Type
        ) throws -> KeyedDecodingContainer<NestedKey> {
            currentIndex += 1
            return try ProbeDecoder(node: element, depth: depth + 1).container(keyedBy: type)
        }

        mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
            currentIndex += 1
            return try ProbeDecoder(node: element, depth: depth + 1).unkeyedContainer()
        }

        mutating func superDecoder() throws -> any Decoder {
            currentIndex += 1
            return ProbeDecoder(node: element, depth: depth + 1)
        }
    }

    private struct Single: SingleValueDecodingContainer {
        let node: SchemaNode
        let depth: Int
        var codingPath: [any CodingKey] = []

        /// Not null (its wrapped value's schema is noted), but said to be possibly null.
        func decodeNil() -> Bool {
            node.nullable = true
            return false
        }

        func decode<T: Decodable>(_ type: T.Type) throws -> T { try ProbeDecoder.value(type, into: node, depth: depth) }
    }
}
