import ContainmentModel

/// The commands of one request as the supervisor received them: each read into the model's `Request` when the
/// supervisor judges it (a memory warning to a host needs the host's controllers then), and journaled as received —
/// the bytes of the batch's fast path, not serialized again — unless the supervisor names a create's host.
package struct ReceivedCommands: Sendable {
    private var wires: [WireCommand]
    /// Each command's bytes as received (or as changed here); nil when they came through SwiftProtobuf.
    private var encoded: [ArraySlice<UInt8>]?

    init(_ wires: [WireCommand], encoded: [ArraySlice<UInt8>]? = nil) {
        self.wires = wires
        self.encoded = encoded.flatMap { $0.count == wires.count ? $0 : nil }
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

    package var count: Int { wires.count }
    package var indices: Range<Int> { wires.indices }

    /// Command `index`'s size, encoded.
    package func size(at index: Int) -> Int { encoded?[index].count ?? wires[index].bytes.count }
    /// The length of command `index`'s longest text, in bytes.
    package func longestText(at index: Int) -> Int { LongestText.of(wires[index]) }
    /// The party command `index` names, as sent (empty: the natural party).
    package func party(at index: Int) -> String { wires[index].by }
    package var isEmpty: Bool { wires.isEmpty }

    /// Command `index` as the model's request (`malformed` when it does not decode). `hostTargets`: the controllers a
    /// host runs, for a memory warning to that host.
    package func request(
        at index: Int,
        hostTargets: (String) -> [ControllerID]
    ) throws(ContainmentError) -> Request {
        try wires[index].request(hostTargets: hostTargets)
    }

    /// Whether command `index` is a typed method call (its reply waits for the method's outcome).
    package func isCall(at index: Int) -> Bool {
        if case .invoke(let invoke)? = wires[index].kind { return invoke.call }
        return false
    }

    /// The host a create names for its controller (nil: none named, or not a create).
    package func namedHost(at index: Int) -> String? {
        guard case .create(let create)? = wires[index].kind, !create.host.isEmpty else { return nil }
        return create.host
    }

    /// Names the host of create `index`, as it is journaled (its bytes serialized again when they change).
    package mutating func name(host: String, at index: Int) {
        guard case .create? = wires[index].kind, wires[index].create.host != host else { return }
        wires[index].create.host = host
        encoded?[index] = wires[index].bytes[...]
    }

    /// The commands as the journal holds them.
    package var journaled: [ArraySlice<UInt8>] { encoded ?? wires.map { $0.bytes[...] } }

    /// The length of the longest text of the commands and `clientID`, in bytes: what `maxTextBytes` bounds.
    package func longestText(clientID: String) -> Int { LongestText.of(wires, clientID: clientID) }
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
