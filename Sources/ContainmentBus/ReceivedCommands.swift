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
    package let commands: ReceivedCommands
    /// The longest command's bytes or the client id's, whichever is longer: a bound on its texts' length.
    package let longestPart: Int

    /// The batch `bytes` hold; nil for any other request (``InboundRequest`` reads it).
    package init?(_ bytes: [UInt8]) {
        guard let batch = ClientMessage.decodeBatch(bytes) else { return nil }
        requestID = batch.requestID
        clientID = batch.clientID
        commands = ReceivedCommands(batch.commands, encoded: batch.encoded)
        var longest = batch.clientID.utf8.count
        for command in batch.encoded where command.count > longest { longest = command.count }
        longestPart = longest
    }
}

/// A client's request as it goes on the wire: for what drives a supervisor's core without a socket (`bench core`, the
/// fuzzing entry points, tests).
package enum ClientRequest {
    /// Commands as one transaction; `hosts` names the host of each controller a create makes.
    package static func commands(
        _ requests: [Request],
        hosts: [ControllerID: String] = [:],
        requestID: UInt64 = 0,
        clientID: String = ""
    ) -> [UInt8] {
        ClientMessage.with {
            $0.requestID = requestID
            $0.clientID = clientID
            $0.commands = .with { $0.commands = wires(requests, hosts: hosts) }
        }.bytes
    }

    /// Commands as they are (``ClientCommand``: a request with its host, or one with no kind), as one transaction.
    package static func commands(_ commands: [ClientCommand], requestID: UInt64, clientID: String = "") -> [UInt8] {
        ClientMessage.with {
            $0.requestID = requestID
            $0.clientID = clientID
            $0.commands = .with { $0.commands = commands.map(\.wire) }
        }.bytes
    }

    /// A typed call of `method` on `target` (see ``MethodCallMessage/request(_:method:arguments:by:)``).
    package static func call(
        _ target: ControllerID,
        method: String,
        arguments: [String],
        by party: Party,
        requestID: UInt64,
        clientID: String
    ) -> [UInt8] {
        var message = MethodCallMessage.request(target, method: method, arguments: arguments, by: party)
        message.requestID = requestID
        message.clientID = clientID
        return message.bytes
    }

    /// An inspect of `controller`'s actor.
    package static func inspect(_ controller: ControllerID, requestID: UInt64) -> [UInt8] {
        ClientMessage.with {
            $0.requestID = requestID
            $0.inspect = .with { $0.controller = controller.rawValue }
        }.bytes
    }

    /// `requests` encoded, each create naming the host `hosts` gives its controller.
    static func wires(_ requests: [Request], hosts: [ControllerID: String]) -> [WireCommand] {
        requests.map { request in
            if case .create(let id, _, _) = request.command { return WireCommand(request, host: hosts[id]) }
            return WireCommand(request)
        }
    }
}
