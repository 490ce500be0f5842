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
        var bytes: [UInt8] = []
        bytes.reserveCapacity(96)
        appendEvent(
            event,
            seq: seq,
            timeUnixNanos: timeUnixNanos,
            commandID: commandID,
            host: host,
            epoch: epoch,
            to: &bytes
        )
        return bytes
    }

    /// Appends the serialized `Event` message of `event` to `bytes`: what ``event(_:seq:timeUnixNanos:commandID:host:epoch:)``
    /// returns, written where its caller keeps a step's events one after another.
    package static func appendEvent(
        _ event: Event,
        seq: UInt64,
        timeUnixNanos: Int64,
        commandID: UInt64,
        host: String,
        epoch: UInt64,
        to bytes: inout [UInt8]
    ) {
        // A change of properties carries them all, a nested message: rare, so SwiftProtobuf writes it.
        if case .propertiesChanged = event {
            bytes.append(
                contentsOf: WireEvent(
                    event,
                    seq: seq,
                    timeUnixNanos: timeUnixNanos,
                    commandID: commandID,
                    host: host,
                    epoch: epoch
                ).bytes
            )
            return
        }
        let kind = event.eventKind
        // The writer appends to the caller's array, moved in and back out (no copy).
        var writer = EventWriter()
        swap(&writer.bytes, &bytes)
        defer { swap(&writer.bytes, &bytes) }
        writer.varint(1, seq)
        writer.varint(2, UInt64(bitPattern: timeUnixNanos))
        writer.varint(3, commandID)
        writer.string(4, kind.name)
        switch event {
        case .loadView(let c), .viewDidLoad(let c), .viewDidUnload(let c), .viewWillLayoutSubviews(let c),
            .viewDidLayoutSubviews(let c), .didReceiveMemoryWarning(let c), .controllerDestroyed(let c):
            writer.string(5, c.rawValue)
        case .willMoveToParent(let c, let parent), .didMoveToParent(let c, let parent):
            writer.string(5, c.rawValue)
            if let parent { writer.present(10, parent.rawValue) }
        case .viewWillAppear(let c, let flags), .viewDidAppear(let c, let flags), .viewWillDisappear(let c, let flags),
            .viewDidDisappear(let c, let flags):
            writer.string(5, c.rawValue)
            writer.flags(11, flags)
        case .viewWillTransitionToSize(let c, let size):
            writer.string(5, c.rawValue)
            writer.size(12, size)
        case .controllerCreated(let c, let kind):
            writer.string(5, c.rawValue)
            writer.string(13, kind.rawValue)
            writer.string(14, host)
        case .childAdded(let c, let parent), .childRemoved(let c, let parent):
            writer.string(5, c.rawValue)
            writer.present(10, parent.rawValue)
        case .viewInserted(let view, let superview, let index):
            writer.string(5, view.owner.rawValue)
            writer.view(15, view)
            writer.view(16, superview)
            writer.present(34, UInt64(bitPattern: Int64(Int32(clamping: index))))
        case .viewRemoved(let view, let superview):
            writer.string(5, view.owner.rawValue)
            writer.view(15, view)
            writer.view(16, superview)
        case .frameChanged(let view, let frame, let by):
            writer.string(5, view.owner.rawValue)
            writer.view(15, view)
            writer.rect(17, frame)
            writer.party(18, by)
        case .alphaChanged(let view, let alpha, let by):
            writer.string(5, view.owner.rawValue)
            writer.view(15, view)
            writer.party(18, by)
            writer.double(19, alpha)
        case .hiddenChanged(let view, let hidden, let by):
            writer.string(5, view.owner.rawValue)
            writer.view(15, view)
            writer.party(18, by)
            writer.bool(20, hidden)
        case .windowAttached(let c, let window, let size), .windowResized(let c, let window, let size):
            writer.string(5, c.rawValue)
            writer.size(12, size)
            writer.string(21, window.rawValue)
        case .presented(let c, let presentation), .dismissed(let c, let presentation):
            writer.string(5, c.rawValue)
            writer.string(28, presentation.presenter.rawValue)
            writer.string(29, presentation.context.rawValue)
            writer.string(30, presentation.style.rawValue)
            writer.string(31, presentation.transitionStyle.rawValue)
            writer.bool(32, presentation.hidesContext)
        case .transitionBegan(let c, let from, let to), .transitionCompleted(let c, let from, let to):
            writer.string(5, c.rawValue)
            writer.string(22, from.rawValue)
            writer.string(23, to.rawValue)
        case .navigationWillShow(let c, let shown, _), .navigationDidShow(let c, let shown, _):
            writer.string(5, c.rawValue)
            writer.string(33, shown.rawValue)
        case .selectionChanged(let c, let selected, let index, _):
            writer.string(5, c.rawValue)
            if let selected { writer.string(33, selected.rawValue) }
            if let index { writer.present(34, UInt64(bitPattern: Int64(Int32(clamping: index)))) }
        case .menuVisibilityChanged(let c, let visible):
            writer.string(5, c.rawValue)
            writer.bool(35, visible)
        case .pagesChanged(let c, let pages, let direction, _):
            writer.string(5, c.rawValue)
            for page in pages { writer.present(36, page.rawValue) }
            writer.string(37, direction.rawValue)
        case .ruleViolation(let c, let command, let by, let code, let message):
            if let c { writer.string(5, c.rawValue) }
            writer.party(18, by)
            writer.string(24, command)
            writer.string(25, code.rawValue)
            writer.string(26, message)
        case .answerTimedOut(let c, _):
            writer.string(5, c.rawValue)
        case .hostUp(let host, let pid), .hostRestarted(let host, let pid):
            writer.string(14, host)
            writer.varint(27, UInt64(bitPattern: Int64(Int32(clamping: pid))))
        case .hostDown(let host, _), .hostFailed(let host, _):
            writer.string(14, host)
        case .messageSent(let c, let to, _, _):
            writer.string(5, c.rawValue)
            writer.string(22, c.rawValue)
            writer.string(23, to.rawValue)
        case .messageReceived(let c, let from, _, _):
            writer.string(5, c.rawValue)
            writer.string(22, from.rawValue)
        case .propertiesChanged(let c, _, _), .setEditing(let c, _, _), .editingChanged(let c, _),
            .constraintAdded(let c, _, _), .constraintRemoved(let c, _):
            writer.string(5, c.rawValue)
        case .orientationChanged(let c, let window, _):
            writer.string(5, c.rawValue)
            writer.string(21, window.rawValue)
        case .inputDelivered(let c, let window, _, let kind, let view, _):
            if let c { writer.string(5, c.rawValue) }
            writer.string(13, kind)
            if let view { writer.view(15, view) }
            writer.string(21, window.rawValue)
        case .inputReceived(let c, let kind, _, let view):
            writer.string(5, c.rawValue)
            writer.string(13, kind)
            writer.view(15, view)
        case .actionDelivered(let c, let from, _, _):
            if let c { writer.string(5, c.rawValue) }
            writer.string(22, from.rawValue)
        case .actionReceived(let c, _, let from, _):
            writer.string(5, c.rawValue)
            writer.string(22, from.rawValue)
        case .verbInvoked(let c, _, _, let by):
            writer.string(5, c.rawValue)
            writer.party(18, by)
        case .delegateCallback(let c, let container, _, let child, _):
            writer.string(5, c.rawValue)
            writer.string(22, container.rawValue)
            if let child { writer.string(33, child.rawValue) }
        }
        writer.varint(40, epoch)
        // The fields numbered after the epoch, in field-number order.
        switch event {
        case .hostDown(_, let reason), .hostFailed(_, let reason):
            writer.string(41, reason)
        case .messageSent(_, _, let name, let bytes):
            writer.string(42, name)
            writer.varint(44, UInt64(UInt32(clamping: bytes)))
        case .messageReceived(_, _, let name, let payload):
            writer.string(42, name)
            writer.bytes(43, payload)
        case .setEditing(_, let editing, let animated):
            writer.bool(47, editing)
            writer.bool(48, animated)
        case .editingChanged(_, let editing):
            writer.bool(47, editing)
        case .orientationChanged(_, _, let orientation):
            writer.string(49, orientation.rawValue)
        case .inputDelivered(_, _, let point, _, _, let chain):
            writer.point(50, point)
            for id in chain { writer.present(51, id.rawValue) }
        case .inputReceived(_, _, let point, _):
            writer.point(50, point)
        case .actionDelivered(_, _, let name, let chain):
            writer.string(42, name)
            for id in chain { writer.present(51, id.rawValue) }
        case .actionReceived(_, let name, _, let payload):
            writer.string(42, name)
            writer.bytes(43, payload)
        case .presented(_, let presentation), .dismissed(_, let presentation):
            if let anchor = presentation.anchor { writer.view(52, anchor) }
        case .verbInvoked(_, let verb, let arguments, _):
            writer.string(42, verb)
            for argument in arguments { writer.present(53, argument) }
        case .delegateCallback(_, _, let callback, _, let animated):
            writer.string(42, callback.name)
            writer.bool(48, animated)
        case .navigationWillShow(_, _, let requester), .navigationDidShow(_, _, let requester),
            .selectionChanged(_, _, _, let requester), .pagesChanged(_, _, _, let requester):
            writer.party(54, requester)
        case .answerTimedOut(_, let question):
            writer.string(55, question.rawValue)
        case .constraintAdded(_, let id, let expression):
            writer.string(56, id)
            writer.string(57, expression)
        case .constraintRemoved(_, let id):
            writer.string(56, id)
        default:
            break
        }
    }

    /// The topic frame `event` is published under, `CATEGORY/NAME/CONTROLLER`: what `WireEvent.topic` is for its
    /// wire form.
    package static func topic(of event: Event) -> [UInt8] {
        // Always in range: one prefix per case, in the order of the cases (`rawValue` is the position).
        var topic = EventKind.topicPrefixes[event.eventKind.rawValue]
        if let controller = event.controller { appendUTF8(controller.rawValue, to: &topic) }
        return topic
    }

    /// Appends the topic frame of `event` to `topic` (a buffer its caller keeps, to make no array for each event).
    package static func appendTopic(of event: Event, to topic: inout [UInt8]) {
        topic.append(contentsOf: EventKind.topicPrefixes[event.eventKind.rawValue])
        if let controller = event.controller { appendUTF8(controller.rawValue, to: &topic) }
    }
}

extension EventKind {
    /// `CATEGORY/NAME/` of each kind, in the order of the cases.
    static let topicPrefixes: [[UInt8]] = allCases.map { Array("\(EventCategory($0).rawValue)/\($0.name)/".utf8) }
}

/// Appends protobuf fields to a byte array.
private struct EventWriter {
    var bytes: [UInt8] = []

    /// A varint field, left out when 0.
    mutating func varint(_ field: UInt64, _ value: UInt64) {
        guard value != 0 else { return }
        present(field, value)
    }

    /// A varint field, written even when 0 (a set `optional` field).
    mutating func present(_ field: UInt64, _ value: UInt64) {
        PreEncoded.appendVarint(field << 3, to: &bytes)
        PreEncoded.appendVarint(value, to: &bytes)
    }

    mutating func bool(_ field: UInt64, _ value: Bool) {
        if value { present(field, 1) }
    }

    /// A string field, left out when empty.
    mutating func string(_ field: UInt64, _ value: String) {
        guard !value.isEmpty else { return }
        present(field, value)
    }

    /// A string field, written even when empty (a set `optional` field, an element of a repeated one).
    mutating func present(_ field: UInt64, _ value: String) {
        PreEncoded.appendVarint(field << 3 | 2, to: &bytes)
        PreEncoded.appendVarint(UInt64(value.utf8.count), to: &bytes)
        PreEncoded.appendUTF8(value, to: &bytes)
    }

    /// A bytes field, left out when empty.
    mutating func bytes(_ field: UInt64, _ value: [UInt8]) {
        guard !value.isEmpty else { return }
        PreEncoded.appendVarint(field << 3 | 2, to: &bytes)
        PreEncoded.appendVarint(UInt64(value.count), to: &bytes)
        bytes.append(contentsOf: value)
    }

    /// A double field, left out when its bit pattern is 0.
    mutating func double(_ field: UInt64, _ value: Double) {
        guard value.bitPattern != 0 else { return }
        fixed64(field, value)
    }

    private mutating func fixed64(_ field: UInt64, _ value: Double) {
        PreEncoded.appendVarint(field << 3 | 1, to: &bytes)
        var bits = value.bitPattern
        for _ in 0..<8 {
            bytes.append(UInt8(truncatingIfNeeded: bits))
            bits >>= 8
        }
    }

    /// `ViewID.description`: `OWNER` or `OWNER/NAME`, left out when empty.
    mutating func view(_ field: UInt64, _ view: ViewID) {
        guard let name = view.name else { return string(field, view.owner.rawValue) }
        PreEncoded.appendVarint(field << 3 | 2, to: &bytes)
        PreEncoded.appendVarint(UInt64(view.owner.rawValue.utf8.count + 1 + name.utf8.count), to: &bytes)
        PreEncoded.appendUTF8(view.owner.rawValue, to: &bytes)
        bytes.append(UInt8(ascii: "/"))
        PreEncoded.appendUTF8(name, to: &bytes)
    }

    /// `Party.description`: `C`, `window:W`, `system`, or nothing for the natural party.
    mutating func party(_ field: UInt64, _ party: Party) {
        switch party {
        case .controller(let id):
            string(field, id.rawValue)
        case .window(let id):
            PreEncoded.appendVarint(field << 3 | 2, to: &bytes)
            PreEncoded.appendVarint(UInt64(7 + id.rawValue.utf8.count), to: &bytes)
            PreEncoded.appendUTF8("window:", to: &bytes)
            PreEncoded.appendUTF8(id.rawValue, to: &bytes)
        case .system:
            string(field, "system")
        case .natural:
            break
        }
    }

    /// An `AppearanceFlags` message field (written even when all flags are false).
    mutating func flags(_ field: UInt64, _ flags: AppearanceFlags) {
        var length: UInt64 = 0
        if flags.animated { length += 2 }
        if flags.movingToParent { length += 2 }
        if flags.movingFromParent { length += 2 }
        if flags.beingPresented { length += 2 }
        if flags.beingDismissed { length += 2 }
        PreEncoded.appendVarint(field << 3 | 2, to: &bytes)
        PreEncoded.appendVarint(length, to: &bytes)
        bool(1, flags.animated)
        bool(2, flags.movingToParent)
        bool(3, flags.movingFromParent)
        bool(4, flags.beingPresented)
        bool(5, flags.beingDismissed)
    }

    /// A `Size` message field (written even when both are 0).
    mutating func size(_ field: UInt64, _ size: Size) {
        PreEncoded.appendVarint(field << 3 | 2, to: &bytes)
        PreEncoded.appendVarint(Self.length(size.width) + Self.length(size.height), to: &bytes)
        double(1, size.width)
        double(2, size.height)
    }

    /// A `Point` message field (written even when both are 0).
    mutating func point(_ field: UInt64, _ point: Point) {
        PreEncoded.appendVarint(field << 3 | 2, to: &bytes)
        PreEncoded.appendVarint(Self.length(point.x) + Self.length(point.y), to: &bytes)
        double(1, point.x)
        double(2, point.y)
    }

    /// A `Rect` message field (written even when all are 0).
    mutating func rect(_ field: UInt64, _ rect: Rect) {
        PreEncoded.appendVarint(field << 3 | 2, to: &bytes)
        let length =
            Self.length(rect.x) + Self.length(rect.y) + Self.length(rect.width) + Self.length(rect.height)
        PreEncoded.appendVarint(length, to: &bytes)
        double(1, rect.x)
        double(2, rect.y)
        double(3, rect.width)
        double(4, rect.height)
    }

    /// The encoded length of a double field numbered below 16.
    private static func length(_ value: Double) -> UInt64 { value.bitPattern != 0 ? 9 : 0 }
}
