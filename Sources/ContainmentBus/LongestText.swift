import Foundation
import SwiftProtobuf

/// The longest text (a string field, at any depth) of a message, in UTF-8 bytes: how every id, name and title of a
/// request is held to a limit (`maxTextBytes`) before anything reads it, and without echoing it.
public struct LongestText: SwiftProtobuf.Visitor {
    public private(set) var bytes = 0

    /// The longest text of `message`.
    public static func of(_ message: some SwiftProtobuf.Message) -> Int {
        var visitor = LongestText()
        try? message.traverse(visitor: &visitor)
        return visitor.bytes
    }

    /// The longest text of a batch: its client id and its commands'.
    public static func of(_ commands: [WireCommand], clientID: String) -> Int {
        commands.reduce(clientID.utf8.count) { longest, command in max(longest, of(command)) }
    }

    public mutating func visitSingularStringField(value: String, fieldNumber: Int) throws {
        bytes = max(bytes, value.utf8.count)
    }

    public mutating func visitSingularMessageField<M: Message>(value: M, fieldNumber: Int) throws {
        try value.traverse(visitor: &self)
    }

    // Not texts: numbers, flags, bytes, enums and unknown fields (the message size limit holds those). The protocol
    // has no maps.
    public mutating func visitSingularDoubleField(value: Double, fieldNumber: Int) throws {}
    public mutating func visitSingularInt64Field(value: Int64, fieldNumber: Int) throws {}
    public mutating func visitSingularUInt64Field(value: UInt64, fieldNumber: Int) throws {}
    public mutating func visitSingularBoolField(value: Bool, fieldNumber: Int) throws {}
    public mutating func visitSingularBytesField(value: Data, fieldNumber: Int) throws {}
    public mutating func visitSingularEnumField<E: Enum>(value: E, fieldNumber: Int) throws {}
    public mutating func visitUnknown(bytes: Data) throws {}

    public mutating func visitMapField<KeyType, ValueType: MapValueType>(
        fieldType: _ProtobufMap<KeyType, ValueType>.Type,
        value: _ProtobufMap<KeyType, ValueType>.BaseType,
        fieldNumber: Int
    ) throws {}

    public mutating func visitMapField<KeyType, ValueType>(
        fieldType: _ProtobufEnumMap<KeyType, ValueType>.Type,
        value: _ProtobufEnumMap<KeyType, ValueType>.BaseType,
        fieldNumber: Int
    ) throws where ValueType.RawValue == Int {}

    public mutating func visitMapField<KeyType, ValueType>(
        fieldType: _ProtobufMessageMap<KeyType, ValueType>.Type,
        value: _ProtobufMessageMap<KeyType, ValueType>.BaseType,
        fieldNumber: Int
    ) throws {}
}
