/// The messages the supervisor sends most, assembled from events it has already serialized (to publish them): byte
/// for byte what SwiftProtobuf writes for the same message — fields in field-number order, proto3 defaults left out,
/// a set `oneof` message written even when empty — without encoding every event a second and a third time. Events are
/// given as slices: a step's are encoded one after another into one array (the supervisor's `EventBytes`).
package enum PreEncoded {
    /// `ServerMessage{request_id, accepted: {command_id, events}}`, the events given serialized; `elided`: the seqs
    /// of events it stands for but does not carry (a resend's answer kept without them).
    package static func accepted(
        requestID: UInt64,
        commandID: UInt64,
        events: [ArraySlice<UInt8>],
        result: String? = nil,
        elided: (firstSeq: UInt64, count: UInt32)? = nil
    ) -> [UInt8] {
        let result = result.map { Array($0.utf8) }
        var length = commandID != 0 ? 1 + varintLength(commandID) : 0
        for event in events { length += fieldLength(event.count) }
        if let result { length += fieldLength(result.count) }
        if let elided { length += 2 + varintLength(elided.firstSeq) + varintLength(UInt64(elided.count)) }
        return server(requestID: requestID, field: 10, length: length) { body in
            if commandID != 0 {
                body.append(0x08)  // field 1, varint
                appendVarint(commandID, to: &body)
            }
            for event in events { appendField(2, event, to: &body) }
            if let result { appendField(3, result, to: &body) }
            if let elided {
                body.append(0x20)  // field 4, varint
                appendVarint(elided.firstSeq, to: &body)
                body.append(0x28)  // field 5, varint
                appendVarint(UInt64(elided.count), to: &body)
            }
        }
    }

    /// `ServerMessage{request_id, snapshot}`, the snapshot given serialized.
    package static func snapshot(requestID: UInt64, encoded snapshot: [UInt8]) -> [UInt8] {
        server(requestID: requestID, field: 12, length: snapshot.count) { $0.append(contentsOf: snapshot) }
    }

    /// `ServerMessage{delivery: {events}}` (request id 0), the events given serialized.
    package static func delivery(events: [ArraySlice<UInt8>]) -> [UInt8] {
        let length = events.reduce(0) { $0 + fieldLength($1.count) }
        return server(requestID: 0, field: 14, length: length) { body in
            for event in events { appendField(1, event, to: &body) }
        }
    }

    /// A `ServerMessage` with `request_id` and the `oneof` body in field `field`: `length` bytes, which `body`
    /// appends right after the field's header — one array, where writing the body apart and then copying it made two
    /// (scripts/callgrind-loop.sh).
    private static func server(
        requestID: UInt64,
        field: UInt64,
        length: Int,
        _ body: (inout [UInt8]) -> Void
    ) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(length + 22)
        if requestID != 0 {
            bytes.append(0x08)  // field 1, varint
            appendVarint(requestID, to: &bytes)
        }
        appendVarint(field << 3 | 2, to: &bytes)
        appendVarint(UInt64(length), to: &bytes)
        let start = bytes.count
        body(&bytes)
        assert(bytes.count - start == length, "a ServerMessage body of \(bytes.count - start) bytes, not \(length)")
        return bytes
    }

    /// The bytes of a varint.
    private static func varintLength(_ value: UInt64) -> Int { (64 - (value | 1).leadingZeroBitCount + 6) / 7 }

    /// The bytes of a length-delimited field numbered below 16 holding `count` bytes: its tag, the length, the bytes.
    private static func fieldLength(_ count: Int) -> Int { 1 + varintLength(UInt64(count)) + count }

    /// A length-delimited field: its tag, the length, the bytes.
    private static func appendField(_ field: UInt64, _ value: [UInt8], to bytes: inout [UInt8]) {
        appendVarint(field << 3 | 2, to: &bytes)
        appendVarint(UInt64(value.count), to: &bytes)
        bytes.append(contentsOf: value)
    }

    /// A length-delimited field whose bytes are a slice.
    private static func appendField(_ field: UInt64, _ value: ArraySlice<UInt8>, to bytes: inout [UInt8]) {
        appendVarint(field << 3 | 2, to: &bytes)
        appendVarint(UInt64(value.count), to: &bytes)
        bytes.append(contentsOf: value)
    }

    /// A message whose field 1 (a varint: a request's `request_id`, an event's `seq`) is `value`, followed by `tail`,
    /// the rest of the message: field 1 comes first in SwiftProtobuf's encoding, so this is the encoding of the message
    /// with that field set. For what sends one message many times, numbered (the benches).
    package static func withField1(_ value: UInt64, _ tail: [UInt8]) -> [UInt8] {
        var bytes: [UInt8] = [0x08]
        bytes.reserveCapacity(tail.count + 11)
        appendVarint(value, to: &bytes)
        bytes.append(contentsOf: tail)
        return bytes
    }

    /// Inlined: most varints are one byte (every tag, most lengths), written by one `append`.
    @inline(__always) static func appendVarint(_ value: UInt64, to bytes: inout [UInt8]) {
        if value < 0x80 {
            bytes.append(UInt8(value))
        } else {
            appendLongVarint(value, to: &bytes)
        }
    }

    /// Appends `text`'s UTF-8 bytes as one copy from the string's storage, where appending its `utf8` view goes
    /// through the generic sequence path (scripts/callgrind-core.sh: ~135 instructions more a string).
    @inline(__always) static func appendUTF8(_ text: String, to bytes: inout [UInt8]) {
        var text = text
        text.withUTF8 { bytes.append(contentsOf: $0) }
    }

    private static func appendLongVarint(_ value: UInt64, to bytes: inout [UInt8]) {
        var value = value
        while value >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: value) | 0x80)
            value >>= 7
        }
        bytes.append(UInt8(value))
    }
}

extension PreEncoded {
    /// `JournalRecord{command_id, time_unix_nanos, commands, first_seq, event_count}`, the commands given as
    /// SwiftProtobuf serializes each (slices: of the request as received, or of a command's own bytes): byte for byte
    /// the record's own encoding, without sizing every command twice.
    package static func journalRecord(
        commandID: UInt64,
        timeUnixNanos: Int64,
        commands: [ArraySlice<UInt8>],
        firstSeq: UInt64,
        eventCount: UInt32,
        clientID: String = "",
        requestID: UInt64 = 0,
        answers: [[UInt8]] = []
    ) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(commands.reduce(32) { $0 + $1.count + 3 })
        if commandID != 0 {
            bytes.append(0x08)  // field 1, varint
            appendVarint(commandID, to: &bytes)
        }
        if timeUnixNanos != 0 {
            bytes.append(0x10)  // field 2, varint
            appendVarint(UInt64(bitPattern: timeUnixNanos), to: &bytes)
        }
        for command in commands { appendField(3, command, to: &bytes) }
        if firstSeq != 0 {
            bytes.append(0x20)  // field 4, varint
            appendVarint(firstSeq, to: &bytes)
        }
        if eventCount != 0 {
            bytes.append(0x28)  // field 5, varint
            appendVarint(UInt64(eventCount), to: &bytes)
        }
        if !clientID.isEmpty { appendField(6, Array(clientID.utf8), to: &bytes) }
        if requestID != 0 {
            bytes.append(0x38)  // field 7, varint
            appendVarint(requestID, to: &bytes)
        }
        // Fields 8 to 11 belong to other records than an accepted command's.
        for answer in answers { appendField(12, answer, to: &bytes) }
        return bytes
    }
}
