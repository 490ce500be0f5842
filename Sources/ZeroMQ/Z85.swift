internal import CZeroMQ

/// The Z85 encoding of ZeroMQ (RFC 32/Z85): 4 bytes become 5 printable characters. CURVE keys are exchanged as
/// 40-character Z85 strings.
public enum Z85 {
    /// Encodes `bytes` (`zmq_z85_encode`).
    ///
    /// - Throws: ``ZMQError`` with ``ZMQError/Code/invalidArgument`` when the byte count is not a multiple of 4.
    public static func encode(_ bytes: [UInt8]) throws(ZMQError) -> String {
        let operation = "zmq_z85_encode(\(bytes.count) bytes)"
        guard bytes.count.isMultiple(of: 4) else {
            throw ZMQError(.invalidArgument, operation: operation)
        }
        guard !bytes.isEmpty else {
            return ""
        }
        var output = [CChar](repeating: 0, count: bytes.count / 4 * 5 + 1)
        _ = try bytes.withUnsafeBufferPointer { input throws(ZMQError) in
            try zmqPointerCall(operation) { zmq_z85_encode(&output, input.baseAddress, input.count) }
        }
        return String(nulTerminated: output)
    }

    /// Decodes a Z85 string (`zmq_z85_decode`).
    ///
    /// - Throws: ``ZMQError`` with ``ZMQError/Code/invalidArgument`` when the length is not a multiple of 5 or a
    ///   character is outside the Z85 alphabet.
    public static func decode(_ string: String) throws(ZMQError) -> [UInt8] {
        let operation = "zmq_z85_decode(\(string.utf8.count) characters)"
        guard string.utf8.count.isMultiple(of: 5), !string.utf8.contains(0) else {
            throw ZMQError(.invalidArgument, operation: operation)
        }
        guard !string.isEmpty else {
            return []
        }
        var output = [UInt8](repeating: 0, count: string.utf8.count / 5 * 4)
        _ = try zmqPointerCall(operation) { string.withCString { zmq_z85_decode(&output, $0) } }
        return output
    }
}

extension String {
    /// The UTF-8 text before the first NUL of a C character buffer filled in by libzmq.
    init(nulTerminated characters: [CChar]) {
        self.init(decoding: characters.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
