import ContainmentConfig
import ContainmentBus
import ContainmentModel

extension SupervisorCore {
    /// Why a call of `id`'s method cannot be taken (`nil`: it can, or the model will refuse it — an unknown
    /// controller): a second call in the batch, too many calls waiting, or no host up to answer it.
    func refusalOfCall(
        to id: ControllerID,
        method: String,
        created: IDTable<ControllerID, String>,
        callsInBatch: Int
    ) -> ContainmentError? {
        if callsInBatch > 1 {
            return ContainmentError(.malformed, "A batch holds at most one typed method call; this one holds more.")
        }
        if calls.count >= PendingCalls.limit {
            return ContainmentError(
                .limitExceeded,
                "\(PendingCalls.limit) typed method calls are waiting for their results; try again when fewer are."
            )
        }
        guard let host = created[id] ?? placement[id] else { return nil }
        guard !host.isEmpty, hosts[host]?.up == true else {
            return ContainmentError(
                .hostUnavailable,
                host.isEmpty
                    ? "\(id) runs in no host: nothing can answer a call of its methods."
                    : "Host \(host), which runs \(id), is not up: nothing can answer a call of its methods now."
            )
        }
        // A declared name its host did not register for the kind (an old client's mangled name goes to the host as
        // it is): refused before anything is journaled, so that a string verb never reaches code as a call.
        guard let kind = state.controllers[id]?.kind.rawValue, !method.hasPrefix("$s"), hosts[host]?.verbs != nil
        else { return nil }
        let methods = hosts[host]?.methods[kind] ?? []
        guard !methods.contains(where: { $0.name == method }) else { return nil }
        guard !methods.isEmpty else { return ContainmentError(.unknownVerb, "\(id), a \(kind), has no typed methods.") }
        return ContainmentError(
            .unknownVerb,
            "\(id), a \(kind) run by host \(host), has no method \(Self.shown(method)); its methods: "
                + methods.map(\.name).joined(separator: ", ") + "."
        )
    }

    /// What `id` can be called with, as its host registered it (`containment methods`).
    func methods(of id: ControllerID) -> SupervisorMessage {
        guard let record = state.controllers[id] else {
            return .refused(ContainmentError(.unknownController, "No controller \(Self.shown(id.rawValue)) exists."))
        }
        let host = placement[id] ?? ""
        guard let registered = hosts[host], registered.verbs != nil else {
            return .refused(
                ContainmentError(
                    .hostUnavailable,
                    "What \(id) can be called with is not known: its host \(host.isEmpty ? "(none)" : host) has not "
                        + "registered."
                )
            )
        }
        let kind = record.kind.rawValue
        return .methods(
            MethodsReport(
                controller: id,
                kind: kind,
                host: host,
                verbs: registered.verbs?[kind] ?? [],
                methods: registered.methods[kind] ?? []
            )
        )
    }

    /// The typed methods a Hello registers, by kind.
    static func methods(of hello: HostHello) -> [String: [MethodDescription]] {
        Dictionary(
            hello.kinds.compactMap { $0.methods.isEmpty ? nil : ($0.kind, $0.methods) },
            uniquingKeysWith: { first, _ in first }
        )
    }

    /// An accepted batch holding a call: its answer waits for the method's outcome. `false` when the batch's events
    /// hold no `verbInvoked` of `target` (then it is answered at once, as any batch).
    mutating func awaitCall(
        to target: ControllerID,
        events: [StampedEvent],
        firstSeq: UInt64,
        peer: [UInt8],
        requestID: UInt64,
        clientID: String,
        commandID: UInt64
    ) -> Bool {
        guard
            let index = events.firstIndex(where: {
                if case .verbInvoked(target, _, _, _) = $0.event { true } else { false }
            }),
            let host = placement[target]
        else { return false }
        calls.add(
            PendingCalls.Call(
                peer: peer,
                requestID: requestID,
                clientID: clientID,
                commandID: commandID,
                controller: target,
                host: host,
                events: events
            ),
            seq: firstSeq + UInt64(index)
        )
        return true
    }

    /// A host's answer to a call: relayed to the caller and remembered for its resends. An answer for no waiting call
    /// (late, after its host was given up on; or forged) is dropped.
    mutating func callAnswered(_ result: CallAnswer, from sender: [UInt8]) {
        guard let host = hostNames[sender], let call = calls.bySeq[result.seq], call.host == host,
            call.controller == result.controller
        else {
            warn(sender, "dropped a call result no call waits for", metadata: ["event.seq": "\(result.seq)"])
            return
        }
        _ = calls.remove(result.seq)
        let answer: SupervisorReply
        switch result.outcome {
        case .value(let value):
            answer = .accepted(commandID: call.commandID, events: call.events, result: value)
        case .error(let error):
            let error = RemoteError(error.error, index: error.index, commandID: call.commandID, seq: error.seq)
            answer = .message(.refused(error))
        case nil:
            answer = .message(.refused(.malformed("The host answered the call with no outcome.")))
        }
        emit(.reply(to: call.peer, requestID: call.requestID, answer))
        clients.remember(client: call.clientID, requestID: call.requestID, answer: answer)
    }

    /// `host` went down (or a new process of it registered): the calls it was to answer are answered
    /// `hostUnavailable`. Their commands stand, journaled; what each method did before the host died stands too.
    mutating func failCalls(on host: String, reason: String) {
        for (seq, call) in calls.removeAll(on: host) {
            let error = RemoteError(
                ContainmentError(
                    .hostUnavailable,
                    "Host \(host), which runs \(call.controller), went down before the method answered (\(reason)); "
                        + "the call (event \(seq)) stands in the journal, and what the method did before stands."
                ),
                commandID: call.commandID
            )
            let answer = SupervisorReply.message(.refused(error))
            emit(.reply(to: call.peer, requestID: call.requestID, answer))
            clients.remember(client: call.clientID, requestID: call.requestID, answer: answer)
        }
    }
}
