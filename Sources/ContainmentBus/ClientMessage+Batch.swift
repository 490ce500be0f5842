extension ClientMessage {
    /// The request id and commands of a request that is a batch of commands, read without building the
    /// `ClientMessage` and `Batch` around them (a view's frame, alpha or hidden flag read straight from the command's
    /// bytes, ``ViewPropertyCommand``; any other command decoded by SwiftProtobuf from its own bytes); `nil`
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
        requestID: UInt64, clientID: String, traceparent: String, commands: [ReceivedCommand],
        encoded: [ArraySlice<UInt8>]
    )? {
        let span = bytes.span.bytes
        var reader = FieldReader(end: bytes.count)
        var requestID: UInt64 = 0
        var clientID = ""
        var traceparent = ""
        var commands: [ReceivedCommand] = []
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
                // Room for a command every 16 bytes (a view's alpha by a short id is ~28), up to 256 (a large message
                // reserves no more than a small one's), rather than growing from one.
                let room = commands.count + min((batchEnd - reader.offset) / 16 + 1, 256)
                commands.reserveCapacity(room)
                encoded.reserveCapacity(room)
                while batch.offset < batch.end {
                    // Batch.commands, field 1, length-delimited
                    guard batch.varint(bytes) == 1 << 3 | 2, let commandEnd = batch.lengthDelimited(bytes) else {
                        return nil
                    }
                    if let command = ViewPropertyCommand.read(bytes, from: batch.offset, to: commandEnd) {
                        commands.append(.viewProperty(command))
                    } else {
                        do {
                            commands.append(
                                .wire(try WireCommand(serializedBytes: span.extracting(batch.offset..<commandEnd)))
                            )
                        } catch {
                            return nil
                        }
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

extension ReceivedBatch {
    /// Traps when the batch's fast path reads `bytes` otherwise than SwiftProtobuf does: the fuzzer's check
    /// (`UntrustedInput.commandMessage`) that the hand-written reader agrees with the library on any input.
    package static func checkAgainstSwiftProtobuf(_ bytes: [UInt8]) {
        guard let fast = ClientMessage.decodeBatch(bytes) else { return }
        guard let slow = try? ClientMessage(serializedBytes: bytes), case .commands(let batch) = slow.body else {
            preconditionFailure("decodeBatch read a batch SwiftProtobuf does not: \(bytes)")
        }
        // Compared as serialized: a NaN is not equal to itself, its bits are.
        precondition(
            fast.requestID == slow.requestID && fast.clientID == slow.clientID && fast.traceparent == slow.traceparent
                && fast.commands.map(\.wire.bytes) == batch.commands.map(\.bytes),
            "decodeBatch differs from SwiftProtobuf on \(bytes)"
        )
    }
}
