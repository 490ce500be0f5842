import ContainmentConfig
import ContainmentBus
import ContainmentModel
import Foundation
import Logging

/// What the core is told, besides the passing of time (``SupervisorCore/tick(at:)``): a message of the command socket,
/// and what became of its own actions and of the host processes — the loop's one way in.
package enum SupervisorInput {
    /// A message of the command socket: the sender's routing id, then its frames. `role`: with CURVE, what the sender's
    /// key was admitted as (SPEC §14, Isolation); `nil` without CURVE.
    case message([[UInt8]], role: CurveSettings.Role? = nil)
    /// A delivery the host's connection did not take, its queue full: the host is slow, and this and its later
    /// deliveries wait, in order.
    case congested(OutgoingDelivery)
    /// A message could not reach `peer`: its connection is gone (libzmq dropped the routing id). `delivery`: the
    /// callbacks it carried, kept for the host's return.
    case unreachable(peer: [UInt8], delivery: OutgoingDelivery?)
    /// A host process the supervisor started ended.
    case hostExited(String, reason: String)
    /// A host's restart policy gave up on it: commands for its controllers are refused until it registers again.
    case hostFailed(String, reason: String)
    /// How many subscribers the event socket has now.
    case subscribers(Int)
    /// What became of the replies waiting for a peer that reads slower than it is answered.
    case replies(ReplyQueues.Change)
}

extension SupervisorCore {
    /// Takes in one input at `time`: what to do, in order.
    package mutating func handle(_ input: SupervisorInput, at time: SupervisorTime) -> [SupervisorAction] {
        var step = SupervisorStep()
        handle(input, at: time, into: &step)
        return step.actions
    }

    /// Takes in one input at `time`, its actions appended to `step` as they are decided (none copied on the way).
    package mutating func handle(_ input: SupervisorInput, at time: SupervisorTime, into step: inout SupervisorStep) {
        emitting(into: &step) { core in core.take(input, at: time) }
    }

    private mutating func take(_ input: SupervisorInput, at time: SupervisorTime) {
        self.time = time
        switch input {
        case .message(let frames, let role): receive(frames, role: role)
        case .congested(let delivery): congested(delivery)
        case .unreachable(let peer, let delivery):
            if let delivery { undelivered(delivery) }
            unreachable(peer)
        case .hostExited(let name, let reason): hostExited(name, reason: reason)
        case .hostFailed(let name, let reason): hostFailed(name, reason: reason)
        case .subscribers(let count):
            subscribers = count
        case .replies(let change): repliesChanged(change)
        }
    }

    /// Handles one message of the command socket: the sender's routing id, then the message. `role`: with CURVE, what
    /// the sender's key was admitted as (SPEC §14, Isolation); `nil` without CURVE.
    private mutating func receive(_ frames: [[UInt8]], role: CurveSettings.Role?) {
        guard let sender = frames.first else { return }
        guard frames.count == 2 else {
            warn(
                sender,
                "dropped a message of more than one frame",
                metadata: ["message.frames": "\(frames.count - 1)"]
            )
            reply(
                to: sender,
                requestID: 0,
                .refused(.malformed("A request is exactly one frame; got \(frames.count - 1)."))
            )
            return
        }
        if let batch = ReceivedBatch(frames[1]) {
            // Traced (a sampled `traceparent`): its way through here is marked. An untraced one pays one check and
            // holds no trace, not even an empty one (an optional trace at every return cost ~300 instructions).
            guard !batch.traceparent.isEmpty, var trace = beginTrace(batch.traceparent) else {
                if admits(batch, from: sender, role: role) {
                    command(batch.commands, from: sender, requestID: batch.requestID, clientID: batch.clientID)
                }
                return
            }
            guard admits(batch, from: sender, role: role) else { return }
            trace.admitted = traceMark()
            let since = emittedCount
            command(batch.commands, from: sender, requestID: batch.requestID, clientID: batch.clientID)
            endTrace(trace, emittedSince: since, peer: sender, requestID: batch.requestID)
            return
        }
        let request: InboundRequest
        do {
            request = try InboundRequest(decoding: frames[1])
        } catch {
            warn(sender, "dropped an undecodable request", metadata: ["error.message": "\(error.message)"])
            reply(to: sender, requestID: 0, .refused(error))
            return
        }
        let requestID = request.requestID
        if let error = admission.exceedsLimits(request, bytes: frames[1].count)
            ?? Admission.refusal(of: request.body, role: role, registeredAs: hostNames[sender])
        {
            reply(to: sender, requestID: requestID, .refused(error))
            return
        }
        switch request.body {
        case .commands:
            // Traced: decoded and admitted before it was known to be (its decode and admission spans are empty).
            let trace = request.traceparent.isEmpty ? nil : beginTrace(request.traceparent)
            let since = emittedCount
            command(request.commands, from: sender, requestID: requestID, clientID: request.clientID)
            if let trace { endTrace(trace, emittedSince: since, peer: sender, requestID: requestID) }
        case .snapshot:
            build(for: sender, requestID: requestID, what: "This snapshot") { core in
                let shared = core.sharedSnapshot()
                return (.snapshot(shared), shared.encoded.count)
            }
        case .hello(let hello):
            welcome(hello, from: sender, requestID: requestID)
        case .heartbeat(let host):
            beat(host, from: sender)
        case .goodbye(let host):
            hostLeft(host, from: sender)
        case .methods(let controller):
            reply(to: sender, requestID: requestID, methods(of: controller))
        case .inspect(let controller):
            forwardInspect(controller, from: sender, requestID: requestID)
        case .inspected(let report):
            relayInspect(report, requestID: requestID, from: sender)
        case .callAnswer(let answer):
            callAnswered(answer, from: sender)
        case .answer(let answer):
            answered(answer, from: sender)
        case .metrics:
            if keepsMetrics {
                emit(.metrics(to: sender, requestID: requestID))
            } else {
                let error = ContainmentError(
                    .notConfigured,
                    "This supervisor keeps no metrics: set metricsPort in runtime.yaml (and restart it)."
                )
                reply(to: sender, requestID: requestID, .refused(error))
            }
        case .trace(let commandID):
            gatherTrace(commandID, from: sender, requestID: requestID)
        case .traced(let report):
            traceAnswered(report, requestID: requestID, from: sender)
        case .spans(let spans):
            keepClientSpans(spans, from: sender)
        case .tracedCommands(let after):
            listTracedCommands(after: after, to: sender, requestID: requestID)
        case .empty:
            reply(to: sender, requestID: requestID, .refused(.malformed("The request has no body.")))
        }
    }

    /// Whether a batch is within the limits and its sender's role may send it; refused (answered) when not. A text
    /// is no longer than the command holding it: a batch of short commands is not measured.
    private mutating func admits(_ batch: ReceivedBatch, from sender: [UInt8], role: CurveSettings.Role?) -> Bool {
        let limitBroken = admission.exceedsLimits(count: batch.commands.count, bytes: batch.longestPart) {
            batch.commands.longestText(clientID: batch.clientID)
        }
        guard let error = limitBroken ?? Admission.refusal(ofCommandsFrom: role, registeredAs: hostNames[sender]) else {
            return true
        }
        reply(to: sender, requestID: batch.requestID, .refused(error))
        return false
    }

    /// A peer's routing id as the logs name it (`peer.id`): its first 8 bytes in hex.
    static func peerID(_ peer: [UInt8]) -> String { peer.prefix(8).map { String($0, radix: 16) }.joined() }

    /// A warning about a peer's bad input: at most one line per peer per second, with how many were held back.
    mutating func warn(_ peer: [UInt8], _ message: Logger.Message, metadata more: Logger.Metadata = [:]) {
        guard let held = warnings.allow(peer, at: time.now) else { return }
        var metadata = more
        metadata["peer.id"] = "\(Self.peerID(peer))"
        if held > 0 { metadata["peer.held_back_count"] = "\(held)" }
        log(.warning, message, metadata)
    }

    /// A request of commands: answered again if it is a resend (same client id and request id), else submitted.
    private mutating func command(
        _ commands: ReceivedCommands,
        from sender: [UInt8],
        requestID: UInt64,
        clientID: String
    ) {
        if !clientID.isEmpty, let answer = clients.answer(client: clientID, requestID: requestID) {
            resends += 1
            emit(.reply(to: sender, requestID: requestID, answer))
            return
        }
        // A call's resend while its method runs: answered once it ends, on the connection the resend came from.
        if calls.count > 0, calls.resent(client: clientID, requestID: requestID, from: sender) {
            resends += 1
            return
        }
        // Likewise a resend of a command waiting for answers, or queued behind one.
        if !answers.isEmpty, answers.resent(client: clientID, requestID: requestID, from: sender) {
            resends += 1
            return
        }
        submit(commands, from: sender, requestID: requestID, clientID: clientID)
    }
}
