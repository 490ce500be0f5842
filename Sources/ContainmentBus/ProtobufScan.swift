/// A minimal reader of a protobuf message's top-level fields, so clients and subscribers find the one field they
/// need (a reply's body, an event's seq) without decoding and allocating the whole message.
package enum ProtobufScan {
    /// Calls `visit` with each top-level field's number and, for a varint, its value; false if the bytes are not a
    /// well-formed message.
    package static func fields(of bytes: [UInt8], _ visit: (_ field: UInt64, _ varint: UInt64?) -> Void) -> Bool {
        var reader = FieldReader(end: bytes.count, bits: 64)
        while reader.offset < bytes.count {
            guard let tag = reader.varint(bytes), tag >> 3 != 0 else { return false }
            switch tag & 7 {
            case 0:
                guard let value = reader.varint(bytes) else { return false }
                visit(tag >> 3, value)
            case 1, 5:
                let size = tag & 7 == 1 ? 8 : 4
                guard size <= bytes.count - reader.offset else { return false }
                reader.offset += size
                visit(tag >> 3, nil)
            case 2:
                guard let end = reader.lengthDelimited(bytes) else { return false }
                reader.offset = end
                visit(tag >> 3, nil)
            default:
                return false
            }
        }
        return true
    }

    /// The varint field 1 of a message (an event's `seq`), if the message is well formed and has it.
    package static func field1(of bytes: [UInt8]) -> UInt64? {
        var first: UInt64?
        let valid = fields(of: bytes) { field, value in
            if field == 1, first == nil { first = value }
        }
        return valid ? first : nil
    }
}

/// Reads protobuf varints and lengths from bytes.
struct FieldReader {
    var offset = 0
    let end: Int
    /// The longest varint read, in bits of value: 63 (9 bytes) leaves a longer one to SwiftProtobuf; 64 (10 bytes)
    /// reads every valid varint, a negative int32 or int64 included.
    var bits: UInt64 = 63

    /// The next varint, of at most `bits` bits; `nil` if cut short or longer.
    mutating func varint(_ bytes: [UInt8]) -> UInt64? {
        var value: UInt64 = 0
        var shift: UInt64 = 0
        while offset < end, shift < bits {
            let byte = bytes[offset]
            offset += 1
            value |= UInt64(byte & 0x7F) << shift
            if byte & 0x80 == 0 { return value }
            shift += 7
        }
        return nil
    }

    /// The length of a length-delimited field, as the offset its bytes end at; `nil` if it runs past the end.
    mutating func lengthDelimited(_ bytes: [UInt8]) -> Int? {
        guard let length = varint(bytes), length <= UInt64(end - offset) else { return nil }
        return offset + Int(length)
    }

    /// A string field's text, read past; `nil` if it runs past the end or is not UTF-8. ASCII, an id's usual
    /// text, is copied without validating it byte by byte as UTF-8 (the same text).
    mutating func text(_ bytes: [UInt8]) -> String? {
        let start = offset
        guard let end = lengthDelimited(bytes) else { return nil }
        var ascii = true
        for index in offset..<end where bytes[index] >= 0x80 {
            ascii = false
            break
        }
        guard ascii else {
            offset = start
            return string(bytes)
        }
        let text = String(decoding: bytes[offset..<end], as: UTF8.self)
        offset = end
        return text
    }

    /// A string field's text, read past; `nil` if it runs past the end or is not UTF-8.
    mutating func string(_ bytes: [UInt8]) -> String? {
        guard let end = lengthDelimited(bytes), let text = String(validating: bytes[offset..<end], as: UTF8.self)
        else { return nil }
        offset = end
        return text
    }
}
