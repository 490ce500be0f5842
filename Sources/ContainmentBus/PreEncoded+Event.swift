import ContainmentModel

extension PreEncoded {
    /// The serialized `Event` message of `event`: byte for byte `WireEvent(event, seq:, timeUnixNanos:, commandID:,
    /// host:).bytes`, written straight from the model's event without building the message.
    ///
    /// As SwiftProtobuf writes it: fields in field-number order, proto3 defaults (0, empty, false, a double whose bit
    /// pattern is 0) left out, a set `optional` field or message field written even when it holds its default.
    package static func event(
        _ event: Event,
        seq: UInt64,
        timeUnixNanos: Int64,
        commandID: UInt64,
        host: String = "",
        epoch: UInt64 = 0
    ) -> [UInt8] {
        // A change of properties carries them all, a nested message: rare, so SwiftProtobuf writes it.
        if case .propertiesChanged = event {
            return WireEvent(
                event,
                seq: seq,
                timeUnixNanos: timeUnixNanos,
                commandID: commandID,
                host: host,
                epoch: epoch
            ).bytes
        }
        // Written into one allocation of room enough for nearly every event; a longer one (long ids, a message's
        // payload) is written again into more.
        var capacity = 256
        while true {
            do throws(EventOverflow) {
                return try [UInt8](capacity: capacity) { (out) throws(EventOverflow) in
                    try fields(
                        event,
                        seq: seq,
                        timeUnixNanos: timeUnixNanos,
                        commandID: commandID,
                        host: host,
                        epoch: epoch,
                        into: &out
                    )
                }
            } catch {
                capacity *= 4
            }
        }
    }

    /// Writes `event`'s fields into `writer`; throws when they do not fit in its capacity.
    private static func fields(
        _ event: Event,
        seq: UInt64,
        timeUnixNanos: Int64,
        commandID: UInt64,
        host: String,
        epoch: UInt64,
        into writer: inout OutputSpan<UInt8>
    ) throws(EventOverflow) {
        let kind = event.eventKind
        try writer.varint(1, seq)
        try writer.varint(2, UInt64(bitPattern: timeUnixNanos))
        try writer.varint(3, commandID)
        try writer.string(4, kind.name)
        switch event {
        case .loadView(let c), .viewDidLoad(let c), .viewDidUnload(let c), .viewWillLayoutSubviews(let c),
            .viewDidLayoutSubviews(let c), .didReceiveMemoryWarning(let c), .controllerDestroyed(let c):
            try writer.string(5, c.rawValue)
        case .willMoveToParent(let c, let parent), .didMoveToParent(let c, let parent):
            try writer.string(5, c.rawValue)
            if let parent { try writer.present(10, parent.rawValue) }
        case .viewWillAppear(let c, let flags), .viewDidAppear(let c, let flags), .viewWillDisappear(let c, let flags),
            .viewDidDisappear(let c, let flags):
            try writer.string(5, c.rawValue)
            try writer.flags(11, flags)
        case .viewWillTransitionToSize(let c, let size):
            try writer.string(5, c.rawValue)
            try writer.size(12, size)
        case .controllerCreated(let c, let kind):
            try writer.string(5, c.rawValue)
            try writer.string(13, kind.rawValue)
            try writer.string(14, host)
        case .childAdded(let c, let parent), .childRemoved(let c, let parent):
            try writer.string(5, c.rawValue)
            try writer.present(10, parent.rawValue)
        case .viewInserted(let view, let superview, let index):
            try writer.string(5, view.owner.rawValue)
            try writer.view(15, view)
            try writer.view(16, superview)
            try writer.present(34, UInt64(bitPattern: Int64(Int32(clamping: index))))
        case .viewRemoved(let view, let superview):
            try writer.string(5, view.owner.rawValue)
            try writer.view(15, view)
            try writer.view(16, superview)
        case .frameChanged(let view, let frame, let by):
            try writer.string(5, view.owner.rawValue)
            try writer.view(15, view)
            try writer.rect(17, frame)
            try writer.party(18, by)
        case .alphaChanged(let view, let alpha, let by):
            try writer.string(5, view.owner.rawValue)
            try writer.view(15, view)
            try writer.party(18, by)
            try writer.double(19, alpha)
        case .hiddenChanged(let view, let hidden, let by):
            try writer.string(5, view.owner.rawValue)
            try writer.view(15, view)
            try writer.party(18, by)
            try writer.bool(20, hidden)
        case .windowAttached(let c, let window, let size), .windowResized(let c, let window, let size):
            try writer.string(5, c.rawValue)
            try writer.size(12, size)
            try writer.string(21, window.rawValue)
        case .presented(let c, let presentation), .dismissed(let c, let presentation):
            try writer.string(5, c.rawValue)
            try writer.string(28, presentation.presenter.rawValue)
            try writer.string(29, presentation.context.rawValue)
            try writer.string(30, presentation.style.rawValue)
            try writer.string(31, presentation.transitionStyle.rawValue)
            try writer.bool(32, presentation.hidesContext)
        case .transitionBegan(let c, let from, let to), .transitionCompleted(let c, let from, let to):
            try writer.string(5, c.rawValue)
            try writer.string(22, from.rawValue)
            try writer.string(23, to.rawValue)
        case .navigationWillShow(let c, let shown, _), .navigationDidShow(let c, let shown, _):
            try writer.string(5, c.rawValue)
            try writer.string(33, shown.rawValue)
        case .selectionChanged(let c, let selected, let index, _):
            try writer.string(5, c.rawValue)
            if let selected { try writer.string(33, selected.rawValue) }
            if let index { try writer.present(34, UInt64(bitPattern: Int64(Int32(clamping: index)))) }
        case .menuVisibilityChanged(let c, let visible):
            try writer.string(5, c.rawValue)
            try writer.bool(35, visible)
        case .pagesChanged(let c, let pages, let direction, _):
            try writer.string(5, c.rawValue)
            for page in pages { try writer.present(36, page.rawValue) }
            try writer.string(37, direction.rawValue)
        case .ruleViolation(let c, let command, let by, let code, let message):
            if let c { try writer.string(5, c.rawValue) }
            try writer.party(18, by)
            try writer.string(24, command)
            try writer.string(25, code.rawValue)
            try writer.string(26, message)
        case .answerTimedOut(let c, _):
            try writer.string(5, c.rawValue)
        case .hostUp(let host, let pid), .hostRestarted(let host, let pid):
            try writer.string(14, host)
            try writer.varint(27, UInt64(bitPattern: Int64(Int32(clamping: pid))))
        case .hostDown(let host, _), .hostFailed(let host, _):
            try writer.string(14, host)
        case .messageSent(let c, let to, _, _):
            try writer.string(5, c.rawValue)
            try writer.string(22, c.rawValue)
            try writer.string(23, to.rawValue)
        case .messageReceived(let c, let from, _, _):
            try writer.string(5, c.rawValue)
            try writer.string(22, from.rawValue)
        case .propertiesChanged(let c, _, _), .setEditing(let c, _, _), .editingChanged(let c, _),
            .constraintAdded(let c, _, _), .constraintRemoved(let c, _):
            try writer.string(5, c.rawValue)
        case .orientationChanged(let c, let window, _):
            try writer.string(5, c.rawValue)
            try writer.string(21, window.rawValue)
        case .inputDelivered(let c, let window, _, let kind, let view, _):
            if let c { try writer.string(5, c.rawValue) }
            try writer.string(13, kind)
            if let view { try writer.view(15, view) }
            try writer.string(21, window.rawValue)
        case .inputReceived(let c, let kind, _, let view):
            try writer.string(5, c.rawValue)
            try writer.string(13, kind)
            try writer.view(15, view)
        case .actionDelivered(let c, let from, _, _):
            if let c { try writer.string(5, c.rawValue) }
            try writer.string(22, from.rawValue)
        case .actionReceived(let c, _, let from, _):
            try writer.string(5, c.rawValue)
            try writer.string(22, from.rawValue)
        case .verbInvoked(let c, _, _, let by):
            try writer.string(5, c.rawValue)
            try writer.party(18, by)
        case .delegateCallback(let c, let container, _, let child, _):
            try writer.string(5, c.rawValue)
            try writer.string(22, container.rawValue)
            if let child { try writer.string(33, child.rawValue) }
        }
        try writer.varint(40, epoch)
        // The fields numbered after the epoch, in field-number order.
        switch event {
        case .hostDown(_, let reason), .hostFailed(_, let reason):
            try writer.string(41, reason)
        case .messageSent(_, _, let name, let bytes):
            try writer.string(42, name)
            try writer.varint(44, UInt64(UInt32(clamping: bytes)))
        case .messageReceived(_, _, let name, let payload):
            try writer.string(42, name)
            try writer.bytes(43, payload)
        case .setEditing(_, let editing, let animated):
            try writer.bool(47, editing)
            try writer.bool(48, animated)
        case .editingChanged(_, let editing):
            try writer.bool(47, editing)
        case .orientationChanged(_, _, let orientation):
            try writer.string(49, orientation.rawValue)
        case .inputDelivered(_, _, let point, _, _, let chain):
            try writer.point(50, point)
            for id in chain { try writer.present(51, id.rawValue) }
        case .inputReceived(_, _, let point, _):
            try writer.point(50, point)
        case .actionDelivered(_, _, let name, let chain):
            try writer.string(42, name)
            for id in chain { try writer.present(51, id.rawValue) }
        case .actionReceived(_, let name, _, let payload):
            try writer.string(42, name)
            try writer.bytes(43, payload)
        case .presented(_, let presentation), .dismissed(_, let presentation):
            if let anchor = presentation.anchor { try writer.view(52, anchor) }
        case .verbInvoked(_, let verb, let arguments, _):
            try writer.string(42, verb)
            for argument in arguments { try writer.present(53, argument) }
        case .delegateCallback(_, _, let callback, _, let animated):
            try writer.string(42, callback.name)
            try writer.bool(48, animated)
        case .navigationWillShow(_, _, let requester), .navigationDidShow(_, _, let requester),
            .selectionChanged(_, _, _, let requester), .pagesChanged(_, _, _, let requester):
            try writer.party(54, requester)
        case .answerTimedOut(_, let question):
            try writer.string(55, question.rawValue)
        case .constraintAdded(_, let id, let expression):
            try writer.string(56, id)
            try writer.string(57, expression)
        case .constraintRemoved(_, let id):
            try writer.string(56, id)
        default:
            break
        }
    }

    /// The topic frame `event` is published under, `CATEGORY/NAME/CONTROLLER`: what `WireEvent.topic` is for its
    /// wire form.
    package static func topic(of event: Event) -> [UInt8] {
        // Always in range: one prefix per case, in the order of the cases (`rawValue` is the position).
        let prefix = EventKind.topicPrefixes[event.eventKind.rawValue]
        guard let controller = event.controller?.rawValue else { return prefix }
        // Made at its size once, where appending to the shared prefix copied it and grew the copy.
        return [UInt8](capacity: prefix.count + controller.utf8.count) { topic in
            for byte in prefix { topic.append(byte) }
            topic.appendUTF8(controller)
        }
    }
}

extension EventKind {
    /// `CATEGORY/NAME/` of each kind, in the order of the cases.
    static let topicPrefixes: [[UInt8]] = allCases.map { Array("\(EventCategory($0).rawValue)/\($0.name)/".utf8) }
}

/// An event longer than the room made for it.
private struct EventOverflow: Error {}

/// Protobuf fields written into an event's room (one allocation, ``PreEncoded/event(_:seq:timeUnixNanos:commandID:host:epoch:)``),
/// each checking first that it fits: scripts/callgrind-loop.sh counted ~1,500 instructions less an event than
/// appending byte by byte to an array, which checks its uniqueness and capacity at every byte.
extension OutputSpan<UInt8> {
    /// Throws unless `count` more bytes fit (a varint is at most 10 bytes).
    @inline(__always) private func room(_ count: Int) throws(EventOverflow) {
        guard freeCapacity >= count else { throw EventOverflow() }
    }

    /// A varint field, left out when 0.
    fileprivate mutating func varint(_ field: UInt64, _ value: UInt64) throws(EventOverflow) {
        guard value != 0 else { return }
        try present(field, value)
    }

    /// A varint field, written even when 0 (a set `optional` field).
    fileprivate mutating func present(_ field: UInt64, _ value: UInt64) throws(EventOverflow) {
        try room(20)
        appendVarint(field << 3)
        appendVarint(value)
    }

    fileprivate mutating func bool(_ field: UInt64, _ value: Bool) throws(EventOverflow) {
        if value { try present(field, 1) }
    }

    /// A string field, left out when empty.
    fileprivate mutating func string(_ field: UInt64, _ value: String) throws(EventOverflow) {
        guard !value.isEmpty else { return }
        try present(field, value)
    }

    /// A string field, written even when empty (a set `optional` field, an element of a repeated one).
    fileprivate mutating func present(_ field: UInt64, _ value: String) throws(EventOverflow) {
        let count = value.utf8.count
        try room(20 + count)
        appendVarint(field << 3 | 2)
        appendVarint(UInt64(count))
        appendUTF8(value)
    }

    /// A bytes field, left out when empty.
    fileprivate mutating func bytes(_ field: UInt64, _ value: [UInt8]) throws(EventOverflow) {
        guard !value.isEmpty else { return }
        try room(20 + value.count)
        appendVarint(field << 3 | 2)
        appendVarint(UInt64(value.count))
        for byte in value { append(byte) }
    }

    /// A double field, left out when its bit pattern is 0.
    fileprivate mutating func double(_ field: UInt64, _ value: Double) throws(EventOverflow) {
        guard value.bitPattern != 0 else { return }
        try room(18)
        appendVarint(field << 3 | 1)
        var bits = value.bitPattern
        for _ in 0..<8 {
            append(UInt8(truncatingIfNeeded: bits))
            bits >>= 8
        }
    }

    /// `ViewID.description`: `OWNER` or `OWNER/NAME`, left out when empty.
    fileprivate mutating func view(_ field: UInt64, _ view: ViewID) throws(EventOverflow) {
        guard let name = view.name else { return try string(field, view.owner.rawValue) }
        let count = view.owner.rawValue.utf8.count + 1 + name.utf8.count
        try room(20 + count)
        appendVarint(field << 3 | 2)
        appendVarint(UInt64(count))
        appendUTF8(view.owner.rawValue)
        append(UInt8(ascii: "/"))
        appendUTF8(name)
    }

    /// `Party.description`: `C`, `window:W`, `system`, or nothing for the natural party.
    fileprivate mutating func party(_ field: UInt64, _ party: Party) throws(EventOverflow) {
        switch party {
        case .controller(let id):
            try string(field, id.rawValue)
        case .window(let id):
            let count = 7 + id.rawValue.utf8.count
            try room(20 + count)
            appendVarint(field << 3 | 2)
            appendVarint(UInt64(count))
            appendUTF8("window:")
            appendUTF8(id.rawValue)
        case .system:
            try string(field, "system")
        case .natural:
            break
        }
    }

    /// A nested message's tag and length (its fields follow).
    private mutating func header(_ field: UInt64, length: UInt64) throws(EventOverflow) {
        try room(20)
        appendVarint(field << 3 | 2)
        appendVarint(length)
    }

    /// An `AppearanceFlags` message field (written even when all flags are false).
    fileprivate mutating func flags(_ field: UInt64, _ flags: AppearanceFlags) throws(EventOverflow) {
        var length: UInt64 = 0
        if flags.animated { length += 2 }
        if flags.movingToParent { length += 2 }
        if flags.movingFromParent { length += 2 }
        if flags.beingPresented { length += 2 }
        if flags.beingDismissed { length += 2 }
        try header(field, length: length)
        try bool(1, flags.animated)
        try bool(2, flags.movingToParent)
        try bool(3, flags.movingFromParent)
        try bool(4, flags.beingPresented)
        try bool(5, flags.beingDismissed)
    }

    /// A `Size` message field (written even when both are 0).
    fileprivate mutating func size(_ field: UInt64, _ size: Size) throws(EventOverflow) {
        try header(field, length: Self.length(size.width) + Self.length(size.height))
        try double(1, size.width)
        try double(2, size.height)
    }

    /// A `Point` message field (written even when both are 0).
    fileprivate mutating func point(_ field: UInt64, _ point: Point) throws(EventOverflow) {
        try header(field, length: Self.length(point.x) + Self.length(point.y))
        try double(1, point.x)
        try double(2, point.y)
    }

    /// A `Rect` message field (written even when all are 0).
    fileprivate mutating func rect(_ field: UInt64, _ rect: Rect) throws(EventOverflow) {
        let length =
            Self.length(rect.x) + Self.length(rect.y) + Self.length(rect.width) + Self.length(rect.height)
        try header(field, length: length)
        try double(1, rect.x)
        try double(2, rect.y)
        try double(3, rect.width)
        try double(4, rect.height)
    }

    /// The encoded length of a double field numbered below 16.
    private static func length(_ value: Double) -> UInt64 { value.bitPattern != 0 ? 9 : 0 }
}
