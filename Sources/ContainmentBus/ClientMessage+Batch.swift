extension ClientMessage {
    /// The request id and commands of a request that is a batch of commands, read without building the
    /// `ClientMessage` and `Batch` around them (each command is decoded by SwiftProtobuf from its own bytes); `nil`
    /// for anything else — another body, a field this does not expect, bytes that do not decode — which
    /// ``decode(_:)`` then reads (or rejects) as it always did.
    ///
    /// What it returns is what `ClientMessage.decode(bytes)` holds: the last `request_id`, and the commands of every
    /// `commands` field in order (SwiftProtobuf merges a repeated message field into the one already set) — with
    /// each command's bytes as received (`encoded`, slices of `bytes`: no copy), which the supervisor journals without
    /// serializing it again.
    static func decodeBatch(
        _ bytes: [UInt8]
    ) -> (
        requestID: UInt64, clientID: String, traceparent: String, commands: [WireCommand], encoded: [ArraySlice<UInt8>]
    )? {
        let span = bytes.span.bytes
        var reader = FieldReader(end: bytes.count)
        var requestID: UInt64 = 0
        var clientID = ""
        var traceparent = ""
        var commands: [WireCommand] = []
        var encoded: [ArraySlice<UInt8>] = []
        var sawBatch = false
        while reader.offset < reader.end {
            guard let tag = reader.varint(bytes) else { return nil }
            switch tag {
            case 1 << 3:  // request_id, varint
                guard let value = reader.varint(bytes) else { return nil }
                requestID = value
            case 2 << 3 | 2:  // client_id, string
                guard let text = reader.string(bytes) else { return nil }
                clientID = text
            case 3 << 3 | 2:  // traceparent, string
                guard let text = reader.string(bytes) else { return nil }
                traceparent = text
            case 10 << 3 | 2:  // commands: Batch
                guard let batchEnd = reader.lengthDelimited(bytes) else { return nil }
                var batch = FieldReader(offset: reader.offset, end: batchEnd)
                while batch.offset < batch.end {
                    // Batch.commands, field 1, length-delimited
                    guard batch.varint(bytes) == 1 << 3 | 2, let commandEnd = batch.lengthDelimited(bytes) else {
                        return nil
                    }
                    do {
                        commands.append(
                            try WireCommand(serializedBytes: span.extracting(batch.offset..<commandEnd))
                        )
                    } catch {
                        return nil
                    }
                    encoded.append(bytes[batch.offset..<commandEnd])
                    batch.offset = commandEnd
                }
                reader.offset = batchEnd
                sawBatch = true
            default:
                return nil
            }
        }
        return sawBatch ? (requestID, clientID, traceparent, commands, encoded) : nil
    }
}
