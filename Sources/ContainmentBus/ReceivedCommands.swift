import ContainmentModel

/// The commands of one request as the supervisor received them: each read into the model's `Request` when the
/// supervisor judges it (a memory warning to a host needs the host's controllers then), and journaled as received —
/// the bytes of the batch's fast path, not serialized again — unless the supervisor names a create's host.
package struct ReceivedCommands: Sendable {
    private var commands: [ReceivedCommand]
    /// Each command's bytes as received (or as changed here); nil when they came through SwiftProtobuf.
    private var encoded: [ArraySlice<UInt8>]?

    init(_ commands: [ReceivedCommand], encoded: [ArraySlice<UInt8>]?) {
        self.commands = commands
        self.encoded = encoded.flatMap { $0.count == commands.count ? $0 : nil }
    }

    init(_ wires: [WireCommand]) {
        self.init(wires.map(ReceivedCommand.wire), encoded: nil)
    }

    /// The supervisor's own commands (a timer's, a topology's).
    package init(_ requests: [Request]) {
        self.init(requests.map { WireCommand($0) })
    }

    /// A topology's commands, each create naming its host; a command of the natural party says no party (as `ctl`
    /// sends it).
    package init(placed: [(request: Request, host: String?)]) {
        self.init(
            placed.map { request, host in
                var wire = WireCommand(request, host: host)
                if request.by == .natural { wire.by = "" }
                return wire
            }
        )
    }

    package var count: Int { commands.count }
    package var indices: Range<Int> { commands.indices }

    /// Command `index`'s size, encoded.
    package func size(at index: Int) -> Int { encoded?[index].count ?? commands[index].wire.bytes.count }
    /// The length of command `index`'s longest text, in bytes.
    package func longestText(at index: Int) -> Int { commands[index].longestText }
    /// The party command `index` names, as sent (empty: the natural party).
    package func party(at index: Int) -> String {
        switch commands[index] {
        case .wire(let wire): wire.by
        case .viewProperty(let command): command.by
        }
    }
    package var isEmpty: Bool { commands.isEmpty }

    /// Command `index` as the model's request (`malformed` when it does not decode). `hostTargets`: the controllers a
    /// host runs, for a memory warning to that host.
    package func request(
        at index: Int,
        hostTargets: (String) -> [ControllerID]
    ) throws(ContainmentError) -> Request {
        switch commands[index] {
        case .wire(let wire): try wire.request(hostTargets: hostTargets)
        case .viewProperty(let command): try command.request()
        }
    }

    /// Whether command `index` is a typed method call (its reply waits for the method's outcome).
    package func isCall(at index: Int) -> Bool {
        if case .wire(let wire) = commands[index], case .invoke(let invoke)? = wire.kind { return invoke.call }
        return false
    }

    /// The host a create names for its controller (nil: none named, or not a create).
    package func namedHost(at index: Int) -> String? {
        guard case .wire(let wire) = commands[index], case .create(let create)? = wire.kind, !create.host.isEmpty
        else { return nil }
        return create.host
    }

    /// Names the host of create `index`, as it is journaled (its bytes serialized again when they change).
    package mutating func name(host: String, at index: Int) {
        guard case .wire(var wire) = commands[index], case .create? = wire.kind, wire.create.host != host else {
            return
        }
        wire.create.host = host
        commands[index] = .wire(wire)
        encoded?[index] = wire.bytes[...]
    }

    /// The commands as the journal holds them.
    package var journaled: [ArraySlice<UInt8>] { encoded ?? commands.map { $0.wire.bytes[...] } }

    /// The length of the longest text of the commands and `clientID`, in bytes: what `maxTextBytes` bounds.
    package func longestText(clientID: String) -> Int {
        commands.reduce(clientID.utf8.count) { max($0, $1.longestText) }
    }
}

/// A command as the supervisor received it: SwiftProtobuf's message, or a view's property read by the batch's fast
/// path.
enum ReceivedCommand: Sendable, Equatable {
    case wire(WireCommand)
    case viewProperty(ViewPropertyCommand)

    /// It as SwiftProtobuf's message.
    var wire: WireCommand {
        switch self {
        case .wire(let wire): wire
        case .viewProperty(let command): command.wire
        }
    }

    /// The length of its longest text, in bytes (``LongestText``).
    var longestText: Int {
        switch self {
        case .wire(let wire): LongestText.of(wire)
        case .viewProperty(let command): command.longestText
        }
    }
}

/// A request of commands read by the batch's fast path (``ClientMessage/decodeBatch(_:)``).
package struct ReceivedBatch: Sendable {
    package let requestID: UInt64
    package let clientID: String
    /// The W3C `traceparent` it carries (empty: not traced).
    package let traceparent: String
    package let commands: ReceivedCommands
    /// The longest command's bytes or the client id's, whichever is longer: a bound on its texts' length.
    package let longestPart: Int

    /// The batch `bytes` hold; nil for any other request (``InboundRequest`` reads it).
    package init?(_ bytes: [UInt8]) {
        guard let batch = ClientMessage.decodeBatch(bytes) else { return nil }
        requestID = batch.requestID
        clientID = batch.clientID
        traceparent = batch.traceparent
        commands = ReceivedCommands(batch.commands, encoded: batch.encoded)
        var longest = max(batch.clientID.utf8.count, batch.traceparent.utf8.count)
        for command in batch.encoded where command.count > longest { longest = command.count }
        longestPart = longest
    }
}
