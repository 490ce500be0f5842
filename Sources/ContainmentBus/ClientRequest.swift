import ContainmentModel

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
    package static func inspect(_ controller: ControllerID, requestID: UInt64, clientID: String = "") -> [UInt8] {
        ClientMessage.with {
            $0.requestID = requestID
            $0.clientID = clientID
            $0.inspect = .with { $0.controller = controller.rawValue }
        }.bytes
    }

    /// A snapshot of the whole state.
    package static func snapshot(requestID: UInt64, clientID: String = "") -> [UInt8] {
        ClientMessage.with {
            $0.requestID = requestID
            $0.clientID = clientID
            $0.snapshot = Containment_V1_SnapshotRequest()
        }.bytes
    }

    /// `requests` encoded, each create naming the host `hosts` gives its controller.
    package static func wires(_ requests: [Request], hosts: [ControllerID: String]) -> [WireCommand] {
        requests.map { request in
            if case .create(let id, _, _) = request.command { return WireCommand(request, host: hosts[id]) }
            return WireCommand(request)
        }
    }
}
