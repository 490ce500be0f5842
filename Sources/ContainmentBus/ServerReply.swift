import ContainmentModel

/// A supervisor's reply to a client, read from its bytes as ``CommandClient`` reads it: for a client that has no
/// socket of its own (the test kit's runtime in memory).
package enum ServerReply {
    /// The request the reply answers, nil when the bytes are no reply.
    package static func requestID(of bytes: [UInt8]) -> UInt64? {
        (try? ServerMessage.decode(bytes))?.requestID
    }

    /// What a request of commands came to: the acceptance, or the refusal.
    package static func accepted(_ bytes: [UInt8]) throws(RemoteError) -> Acceptance {
        let outcome: Result<Acceptance, RemoteError>
        do {
            outcome = try CommandReply.decode(bytes).outcome
        } catch {
            throw RemoteError(error)
        }
        return try outcome.get()
    }

    /// The snapshot a snapshot request was answered with, or the refusal.
    package static func snapshot(_ bytes: [UInt8]) throws(RemoteError) -> BusSnapshot {
        let reply = try decode(bytes)
        switch reply.body {
        case .snapshot(let snapshot): return BusSnapshot(snapshot)
        case .error(let error): throw RemoteError(error)
        default: throw RemoteError(.malformed("The supervisor answered a snapshot request with something else."))
        }
    }

    /// What an inspect was answered with, or the refusal.
    package static func inspected(_ bytes: [UInt8]) throws(RemoteError) -> InspectReport {
        let reply = try decode(bytes)
        switch reply.body {
        case .inspectReply(let inspected): return InspectReport(inspected)
        case .error(let error): throw RemoteError(error)
        default: throw RemoteError(.malformed("The supervisor answered an inspect request with something else."))
        }
    }

    /// A typed call's outcome: the method's result (JSON text) or its error.
    package static func callOutcome(_ bytes: [UInt8]) throws(RemoteError) -> String {
        try MethodCallMessage.outcome(of: try decode(bytes))
    }

    /// A refusal of request `requestID`, as the supervisor would send it.
    package static func refusal(requestID: UInt64, _ error: ContainmentError) -> [UInt8] {
        ServerMessage.with {
            $0.requestID = requestID
            $0.error = .with {
                $0.code = error.code.rawValue
                $0.message = error.message
            }
        }.bytes
    }

    private static func decode(_ bytes: [UInt8]) throws(RemoteError) -> ServerMessage {
        do {
            return try ServerMessage.decode(bytes)
        } catch {
            throw RemoteError(error)
        }
    }
}
