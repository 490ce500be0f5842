/// A minimal reader of a protobuf message's top-level fields, so clients and subscribers find the one field they
/// need (a reply's body, an event's seq) without decoding and allocating the whole message.
public enum ProtobufScan {
    /// Calls `visit` with each top-level field's number and, for a varint, its value; false if the bytes are not a
    /// well-formed message.
    public static func fields(of bytes: [UInt8], _ visit: (_ field: UInt64, _ varint: UInt64?) -> Void) -> Bool {
        var index = 0
        func varint() -> UInt64? {
            var value: UInt64 = 0
            var shift: UInt64 = 0
            while index < bytes.count, shift < 64 {
                let byte = bytes[index]
                index += 1
                value |= UInt64(byte & 0x7F) << shift
                if byte & 0x80 == 0 { return value }
                shift += 7
            }
            return nil
        }
        while index < bytes.count {
            guard let tag = varint(), tag >> 3 != 0 else { return false }
            switch tag & 7 {
            case 0:
                guard let value = varint() else { return false }
                visit(tag >> 3, value)
            case 1, 5:
                let size = tag & 7 == 1 ? 8 : 4
                guard size <= bytes.count - index else { return false }
                index += size
                visit(tag >> 3, nil)
            case 2:
                guard let length = varint(), length <= UInt64(bytes.count - index) else { return false }
                index += Int(length)
                visit(tag >> 3, nil)
            default:
                return false
            }
        }
        return index == bytes.count
    }

    /// The varint field 1 of a message (an event's `seq`), if the message is well formed and has it.
    public static func field1(of bytes: [UInt8]) -> UInt64? {
        var first: UInt64?
        let valid = fields(of: bytes) { field, value in
            if field == 1, first == nil { first = value }
        }
        return valid ? first : nil
    }
}
