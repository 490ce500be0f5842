import ContainmentModel

/// The messages of a typed method call (`Invoke.call`, docs/PROTOCOL.md): the request a caller sends, and the
/// outcome its reply carries.
public enum MethodCallMessage {
    /// One `invoke` of `method` on `target` with `arguments` (each one JSON text), issued by `party`, whose reply waits
    /// for the method's outcome.
    public static func request(
        _ target: ControllerID,
        method: String,
        arguments: [String],
        by party: Party
    ) -> ClientMessage {
        var command = WireCommand(Request(.invoke(target, verb: method, arguments: arguments), by: party))
        command.invoke.call = true
        return .with { $0.commands = .with { $0.commands = [command] } }
    }

    /// The method's result (JSON text) that `reply` carries, or the error: the call refused, the method's own error,
    /// or its host gone before it answered.
    public static func outcome(of reply: ServerMessage) throws(RemoteError) -> String {
        switch reply.body {
        case .accepted(let accepted):
            guard accepted.hasResult else {
                throw RemoteError(
                    ContainmentError(
                        .hostUnavailable,
                        "The call (command \(accepted.commandID)) was journaled, but its result is lost: the supervisor "
                            + "restarted before the method answered. What the method did stands."
                    ),
                    commandID: accepted.commandID
                )
            }
            return accepted.result
        case .error(let error): throw RemoteError(error)
        default: throw RemoteError(.malformed("The supervisor answered a call with something else."))
        }
    }

    /// A host's answer to the call whose `verbInvoked` event is `seq`.
    public static func result(
        seq: UInt64,
        controller: ControllerID,
        _ outcome: Result<String, RemoteError>
    ) -> ClientMessage {
        .with {
            $0.callResult = .with {
                $0.seq = seq
                $0.controller = controller.rawValue
                switch outcome {
                case .success(let value): $0.value = value
                case .failure(let error): $0.error = Containment_V1_Error(error)
                }
            }
        }
    }
}
