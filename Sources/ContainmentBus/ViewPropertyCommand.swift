import ContainmentModel

/// A command that changes one property of a view — its frame, its alpha or whether it hides: what a UI sends at the
/// highest rate (a drag, an animation's steps). The batch's fast path (``ClientMessage/decodeBatch(_:)``) reads it
/// straight from its bytes into these few fields, where SwiftProtobuf's `Command` cost the supervisor ~3,000
/// instructions a command and its conversion to the model's request ~1,500 more (docs/BENCH.md).
///
/// What it reads is what SwiftProtobuf reads; anything else — another kind, a field given twice, a field or wire type
/// it does not know, bytes that do not decode — it leaves to SwiftProtobuf (``read(_:from:to:)`` returns `nil`).
/// Its request is made by the same conversions as ``WireCommand``'s, so it is refused alike.
struct ViewPropertyCommand: Sendable, Equatable {
    enum Change: Sendable, Equatable {
        case frame(Rect)
        case alpha(Double)
        case hidden(Bool)
    }

    /// The party, as sent (empty: the natural party).
    var by: String
    /// The view, as sent.
    var view: String
    var change: Change
    /// A set-frame command's `frame` field was present: SwiftProtobuf tells an absent one from one of zeros.
    var hasFrame = false

    /// The model's request, or `malformed` as ``WireCommand/request(hostTargets:)`` throws it.
    func request() throws(ContainmentError) -> Request {
        let id = try viewID(view, field: "view")
        let command: Command =
            switch change {
            case .frame(let frame): .setFrame(id, frame)
            case .alpha(let alpha): .setAlpha(id, alpha)
            case .hidden(let hidden): .setHidden(id, hidden)
            }
        return Request(command, by: Party(parsing: by))
    }

    /// The same command as SwiftProtobuf's message.
    var wire: WireCommand {
        var wire = WireCommand()
        wire.by = by
        switch change {
        case .frame(let frame):
            wire.setFrame.view = view
            if hasFrame { wire.setFrame.frame = Containment_V1_Rect(frame) }
        case .alpha(let alpha):
            wire.setAlpha.view = view
            wire.setAlpha.alpha = alpha
        case .hidden(let hidden):
            wire.setHidden.view = view
            wire.setHidden.hidden = hidden
        }
        return wire
    }

    /// The length of its longest text, in bytes (``LongestText``).
    var longestText: Int { max(by.utf8.count, view.utf8.count) }

    /// The command in `bytes[start..<end]`, if it is one of these; `nil` for anything else.
    static func read(_ bytes: [UInt8], from start: Int, to end: Int) -> ViewPropertyCommand? {
        // Read into plain locals, the command made once at the end (an optional command kept across the fields was
        // copied at every step).
        var reader = FieldReader(offset: start, end: end)
        var by: String?
        var kind: UInt64 = 0
        var view: String?
        var change: Change?
        var hasFrame = false
        while reader.offset < reader.end {
            guard let tag = reader.varint(bytes) else { return nil }
            switch tag {
            case 1 << 3 | 2:  // by
                guard by == nil, let text = reader.text(bytes) else { return nil }
                by = text
            case 22 << 3 | 2, 23 << 3 | 2, 24 << 3 | 2:  // set_frame, set_alpha, set_hidden
                guard kind == 0, let fieldsEnd = reader.lengthDelimited(bytes),
                    readFields(of: tag >> 3, bytes, from: reader.offset, to: fieldsEnd, &view, &change, &hasFrame)
                else { return nil }
                kind = tag >> 3
                reader.offset = fieldsEnd
            default:
                return nil
            }
        }
        let read: Change
        switch kind {
        case 22: read = change ?? .frame(.zero)
        case 23: read = change ?? .alpha(0)
        case 24: read = change ?? .hidden(false)
        default: return nil
        }
        return ViewPropertyCommand(by: by ?? "", view: view ?? "", change: read, hasFrame: hasFrame)
    }

    /// The fields of a `SetFrame` (22), `SetAlpha` (23) or `SetHidden` (24) message; false if they are not as
    /// expected.
    private static func readFields(
        of kind: UInt64,
        _ bytes: [UInt8],
        from start: Int,
        to end: Int,
        _ view: inout String?,
        _ change: inout Change?,
        _ hasFrame: inout Bool
    ) -> Bool {
        var reader = FieldReader(offset: start, end: end)
        while reader.offset < reader.end {
            guard let tag = reader.varint(bytes) else { return false }
            switch (kind, tag) {
            case (_, 1 << 3 | 2):  // view
                guard view == nil, let text = reader.text(bytes) else { return false }
                view = text
            case (22, 2 << 3 | 2):  // SetFrame.frame
                guard change == nil, let frameEnd = reader.lengthDelimited(bytes),
                    let frame = readRect(bytes, from: reader.offset, to: frameEnd)
                else { return false }
                change = .frame(frame)
                hasFrame = true
                reader.offset = frameEnd
            case (23, 2 << 3 | 1):  // SetAlpha.alpha
                guard change == nil, let alpha = readDouble(bytes, &reader) else { return false }
                change = .alpha(alpha)
            case (24, 2 << 3 | 0):  // SetHidden.hidden (a 10-byte varint is left to SwiftProtobuf)
                guard change == nil, let flag = reader.varint(bytes) else { return false }
                change = .hidden(flag != 0)
            default:
                return false
            }
        }
        return true
    }

    /// A `Rect`'s four doubles (each absent one 0).
    private static func readRect(_ bytes: [UInt8], from start: Int, to end: Int) -> Rect? {
        var reader = FieldReader(offset: start, end: end)
        var x: Double?
        var y: Double?
        var width: Double?
        var height: Double?
        while reader.offset < reader.end {
            guard let tag = reader.varint(bytes), tag & 7 == 1, let value = readDouble(bytes, &reader) else {
                return nil
            }
            switch tag >> 3 {
            case 1 where x == nil: x = value
            case 2 where y == nil: y = value
            case 3 where width == nil: width = value
            case 4 where height == nil: height = value
            default: return nil
            }
        }
        return Rect(x: x ?? 0, y: y ?? 0, width: width ?? 0, height: height ?? 0)
    }

    /// A fixed64 double, little-endian.
    private static func readDouble(_ bytes: [UInt8], _ reader: inout FieldReader) -> Double? {
        guard reader.end - reader.offset >= 8 else { return nil }
        var bits: UInt64 = 0
        for index in 0..<8 { bits |= UInt64(bytes[reader.offset + index]) << (8 * UInt64(index)) }
        reader.offset += 8
        return Double(bitPattern: bits)
    }
}
