import ContainmentModel
import ContainmentTracing
import Foundation
import ZeroMQ

/// The client side of the supervisor's command socket: a DEALER that sends one request at a time and waits for its
/// reply. For `ctl`, `tree`, `watch --from-start` and tests; hosts keep their own DEALER in their loop.
///
/// Given several supervisors' endpoints (a replicated runtime: one leads, the others stand by), it talks to one at a
/// time and fails over as the ZeroMQ guide's Freelance client does: a standby's `notLeader` names the leader, which
/// it turns to at once; a supervisor silent for `resendAfter` is left for the next endpoint. The request goes again
/// with the same client and request ids, so one the old leader journaled is answered by the new one, not applied
/// twice (SPEC §14, "Exactly once").
///
/// Not `Sendable`: it owns a socket.
public final class CommandClient {
    private let socket: Socket
    /// Every supervisor's command endpoint; `endpoint` is the one connected now.
    private let endpoints: [String]
    private var endpoint: String
    private let timeout: Duration
    private var nextRequestID: UInt64 = 1
    /// Exactly once: every command request carries this id and its request id, so a resend is answered, not applied
    /// again (a fresh random id per client unless one is given).
    public let clientID: String
    /// How long to wait for a reply before sending the request again (same ids): the supervisor may have gone away
    /// and come back, and a request sent to the one that died is lost.
    private let resendAfter: Duration
    /// The largest request the supervisor takes (its `maxMessageBytes`), when known: a larger one is refused here,
    /// `limitExceeded`, instead of being sent — the supervisor would drop this client's connection and never answer.
    public var maxMessageBytes: Int?
    /// Whether command requests carry a W3C trace context (docs/PROTOCOL.md, "Tracing"): one continuing the task's
    /// trace (``ClientTrace/begin(in:)``) or a new one; the client's own span goes to the supervisor after the reply.
    public var tracing = false
    /// The client's span of the last traced command: its trace id, and the command id (0: refused before the rules).
    public private(set) var lastTrace: TraceSpan?

    /// Connects to the supervisor's command endpoint; replies must come within `timeout`, during which a request is
    /// sent again every `resendAfter` without an answer. `curve`: the keys, when the supervisor runs CURVE.
    public convenience init(
        context: Context,
        endpoint: String,
        timeout: Duration = .seconds(5),
        resendAfter: Duration = .seconds(1),
        clientID: String? = nil,
        curve: CurveClientKeys? = nil
    ) throws(ContainmentError) {
        try self.init(
            context: context,
            endpoints: [endpoint],
            timeout: timeout,
            resendAfter: resendAfter,
            clientID: clientID,
            curve: curve
        )
    }

    /// Connects to the first of `endpoints` that exists (an `ipc://` socket file), failing over to the others.
    public init(
        context: Context,
        endpoints: [String],
        timeout: Duration = .seconds(5),
        resendAfter: Duration = .seconds(1),
        clientID: String? = nil,
        curve: CurveClientKeys? = nil
    ) throws(ContainmentError) {
        precondition(!endpoints.isEmpty, "a client needs a supervisor's endpoint")
        self.endpoints = endpoints
        self.timeout = timeout
        self.resendAfter = min(resendAfter, timeout)
        self.clientID = clientID ?? Self.randomID()
        func listening(_ endpoint: String) -> Bool {
            !endpoint.hasPrefix("ipc://") || access(String(endpoint.dropFirst("ipc://".count)), F_OK) == 0
        }
        guard let endpoint = endpoints.first(where: listening) else {
            throw ContainmentError(
                .hostUnavailable,
                "No supervisor listens at \(endpoints.joined(separator: " or ")) (is it running? see scripts/status.sh)."
            )
        }
        self.endpoint = endpoint
        do {
            socket = try context.socket(.dealer)
            if let curve { try socket.makeCurveClient(curve) }
            try socket.set(.receiveTimeout, to: self.resendAfter)
            try socket.set(.sendTimeout, to: timeout)
            try socket.connect(endpoint)
        } catch {
            throw ContainmentError(.hostUnavailable, "Cannot connect to the supervisor at \(endpoint): \(error).")
        }
    }

    /// A random client id: 16 hex digits.
    static func randomID() -> String {
        let value = UInt64.random(in: 1...UInt64.max)
        let hex = String(value, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }

    /// Sends `message` with a fresh request id (and this client's id) and returns the reply that carries it; sends it
    /// again, unchanged, every `resendAfter` without one, until `timeout`.
    public func request(_ message: ClientMessage) throws(ContainmentError) -> ServerMessage {
        let trace: ClientTrace? = if tracing, case .commands = message.body { ClientTrace.begin() } else { nil }
        return try request(message, trace: trace)
    }

    /// The same, carrying `trace` (begun in the caller's task, so that it continues the trace of that task's
    /// `ServiceContext`): its `traceparent` goes with the message, and the client's span of it is kept
    /// (``lastTrace``) and sent to the supervisor after the reply.
    public func request(_ message: ClientMessage, trace: ClientTrace?) throws(ContainmentError) -> ServerMessage {
        var message = message
        message.requestID = nextRequestID
        message.clientID = clientID
        nextRequestID += 1
        guard let trace else { return try exchange(message) }
        message.traceparent = trace.traceparent
        let reply = try exchange(message)
        let commandID: UInt64 =
            switch reply.body {
            case .accepted(let accepted): accepted.commandID
            case .error(let error): error.commandID
            default: 0
            }
        let span = trace.span(commandID: commandID)
        lastTrace = span
        // Kept by the supervisor beside its own (no reply comes); lost with the connection, like any span.
        _ = try? socket.send([ClientMessage.with { $0.spans = .with { $0.spans = [span.wire] } }.bytes], dontWait: true)
        return reply
    }

    /// Sends `message` as it is and returns the reply that carries its request id (see ``request(_:)``).
    private func exchange(_ message: ClientMessage) throws(ContainmentError) -> ServerMessage {
        let clock = ContinuousClock()
        let deadline = clock.now + timeout
        let bytes = message.bytes
        if let maxMessageBytes, bytes.count > maxMessageBytes {
            throw ContainmentError(
                .limitExceeded,
                "The request is \(bytes.count) bytes; the supervisor takes at most \(maxMessageBytes) "
                    + "(maxMessageBytes in runtime.yaml) and drops the connection of a peer that sends more."
            )
        }
        // Whether a supervisor was sent the request and never answered: it may have journaled it (and a leader will
        // answer it from the journal); a standby's notLeader then does not say the request was refused.
        var unanswered = false
        do {
            sending: while true {
                guard try socket.send([bytes]) else { throw timedOut() }
                while let frames = try socket.receive() {
                    guard frames.count == 1 else { continue }
                    let reply = try ServerMessage.decode(frames[0])
                    guard reply.requestID == message.requestID else { continue }
                    guard case .error(let error) = reply.body, error.code == ContainmentError.Code.notLeader.rawValue
                    else { return reply }
                    // A standby: to the leader it names at once (unless this client does not know it: then that is
                    // the answer); while none leads (a failover), again a little later.
                    guard clock.now < deadline, reply.leader.isEmpty || endpoints.contains(reply.leader) else {
                        if unanswered { throw timedOut() }
                        return reply
                    }
                    if !reply.leader.isEmpty, reply.leader != endpoint, endpoints.contains(reply.leader) {
                        try turn(to: reply.leader)
                    } else {
                        Thread.sleep(forTimeInterval: 0.05)
                    }
                    continue sending
                }
                guard clock.now < deadline else { throw timedOut() }
                unanswered = true
                // Silent: it may be gone; the next supervisor answers, or names the leader.
                if endpoints.count > 1 {
                    let next = endpoints[(endpoints.firstIndex(of: endpoint).map { $0 + 1 } ?? 0) % endpoints.count]
                    try turn(to: next)
                }
            }
        } catch let error as ContainmentError {
            throw error
        } catch {
            throw ContainmentError(.hostUnavailable, "The supervisor at \(endpoint) cannot be reached: \(error).")
        }
    }

    /// Talks to `next` from now on.
    private func turn(to next: String) throws(ZMQError) {
        try? socket.disconnect(endpoint)
        try socket.connect(next)
        endpoint = next
    }

    private func timedOut() -> ContainmentError {
        ContainmentError(
            .timeout,
            "No reply from the supervisor at \(endpoint) within \(timeout) (is it running? see scripts/status.sh)."
        )
    }

    /// Submits commands as one transaction; returns what was accepted or throws the rejection.
    public func submit(
        _ commands: [WireCommand],
        trace: ClientTrace? = nil
    ) throws(RemoteError) -> Containment_V1_Accepted {
        let reply: ServerMessage
        do {
            let message = ClientMessage.with { $0.commands = .with { $0.commands = commands } }
            reply = try trace == nil ? request(message) : request(message, trace: trace)
        } catch {
            throw RemoteError(error)
        }
        switch reply.body {
        case .accepted(let accepted): return accepted
        case .error(let error): throw RemoteError(error)
        default: throw RemoteError(.malformed("The supervisor answered a command with something else."))
        }
    }

    /// Submits requests as one transaction; returns what was accepted or throws the rejection. `hosts` places the
    /// controllers a `create` makes (without one the supervisor picks the least loaded host that runs its kind).
    public func submit(
        _ requests: [Request],
        hosts: [ControllerID: String] = [:],
        trace: ClientTrace? = nil
    ) throws(RemoteError) -> Acceptance {
        Acceptance(try submit(ClientRequest.wires(requests, hosts: hosts), trace: trace))
    }

    /// Calls `method` (a distributed target's identifier) on `target` with `arguments` (each one JSON text), issued by
    /// `party`; returns the method's result or throws its error (the call refused, the method's own, its host gone).
    ///
    /// `trace` (begun in the caller's task) carries its trace to the supervisor, the host and the method's span in the
    /// actor; without one, a client that traces every command (``tracing``) begins its own.
    public func call(
        _ target: ControllerID,
        method: String,
        arguments: [String],
        by party: Party,
        trace: ClientTrace? = nil
    ) throws(RemoteError) -> String {
        let reply: ServerMessage
        do {
            let message = MethodCallMessage.request(target, method: method, arguments: arguments, by: party)
            reply = try trace == nil ? request(message) : request(message, trace: trace)
        } catch {
            throw RemoteError(error)
        }
        return try MethodCallMessage.outcome(of: reply)
    }

    /// The spans every process kept of command `commandID` (`containment trace`): the supervisor's, its client's (when
    /// it sent its own), and those of the hosts it delivered the command's callbacks to.
    public func trace(_ commandID: UInt64) throws(ContainmentError) -> TraceReport {
        let reply = try request(.with { $0.trace = .with { $0.commandID = commandID } })
        switch reply.body {
        case .traceReply(let report): return TraceReport(report)
        case .error(let error): throw RemoteError(error).error
        default: throw .malformed("The supervisor answered a trace request with something else.")
        }
    }

    /// The traced commands whose spans the supervisor keeps, with an id greater than `after`, oldest first: an
    /// exporter asks with the last id it saw (0 at first) and then ``trace(_:)`` for each.
    public func tracedCommands(after: UInt64) throws(ContainmentError) -> [UInt64] {
        let reply = try request(.with { $0.tracedCommands = .with { $0.after = after } })
        switch reply.body {
        case .tracedCommands(let list): return list.commandIds
        case .error(let error): throw RemoteError(error).error
        default: throw .malformed("The supervisor answered a traced-commands request with something else.")
        }
    }

    /// The whole state at the latest sequence number.
    public func snapshot() throws(ContainmentError) -> BusSnapshot {
        let reply = try request(.with { $0.snapshot = Containment_V1_SnapshotRequest() })
        switch reply.body {
        case .snapshot(let snapshot): return BusSnapshot(snapshot)
        case .error(let error): throw RemoteError(error).error
        default: throw .malformed("The supervisor answered a snapshot request with something else.")
        }
    }

    /// The supervisor's metrics, as Prometheus text (exposition format 0.0.4); `notConfigured` without `metricsPort`.
    public func metrics() throws(ContainmentError) -> [UInt8] {
        let reply = try request(.with { $0.metrics = Containment_V1_MetricsRequest() })
        switch reply.body {
        case .metrics(let metrics): return Array(metrics.text)
        case .error(let error): throw RemoteError(error).error
        default: throw .malformed("The supervisor answered a metrics request with something else.")
        }
    }

    /// The callbacks one controller's actor received, in order, as its host reports them.
    public func inspect(_ controller: ControllerID) throws(ContainmentError) -> InspectReport {
        let reply = try request(.with { $0.inspect = .with { $0.controller = controller.rawValue } })
        switch reply.body {
        case .inspectReply(let inspected): return InspectReport(inspected)
        case .error(let error): throw RemoteError(error).error
        default: throw .malformed("The supervisor answered an inspect request with something else.")
        }
    }
}

/// A reply to a request of commands, read from its bytes as ``CommandClient`` reads it (a simulated client has no
/// socket of its own).
package enum CommandReply {
    /// Its request id, and what was accepted or the refusal; `malformed` when the bytes are no reply to commands.
    package static func decode(
        _ bytes: [UInt8]
    ) throws(ContainmentError) -> (requestID: UInt64, outcome: Result<Acceptance, RemoteError>) {
        let reply = try ServerMessage.decode(bytes)
        switch reply.body {
        case .accepted(let accepted): return (reply.requestID, .success(Acceptance(accepted)))
        case .error(let error): return (reply.requestID, .failure(RemoteError(error)))
        default: throw .malformed("The supervisor answered a command with something else.")
        }
    }

    /// The command id and the events' seqs of an `accepted` reply with events; nil for any other reply.
    package static func acceptedEvents(in bytes: [UInt8]) -> (commandID: UInt64, firstSeq: UInt64, count: UInt32)? {
        guard let reply = try? ServerMessage.decode(bytes), case .accepted(let accepted) = reply.body,
            let first = accepted.events.first
        else { return nil }
        return (accepted.commandID, first.seq, UInt32(clamping: accepted.events.count))
    }

    /// The leader's command endpoint a standby's `notLeader` refusal names ("" while none leads); nil for any other
    /// reply.
    package static func leader(namedIn bytes: [UInt8]) -> String? {
        guard let reply = try? ServerMessage.decode(bytes), case .error(let error) = reply.body,
            error.code == ContainmentError.Code.notLeader.rawValue
        else { return nil }
        return reply.leader
    }
}

extension RemoteError {
    /// The refusal an `error` reply carries.
    public init(_ wire: Containment_V1_Error) {
        self.init(
            ContainmentError(ContainmentError.Code(named: wire.code) ?? ContainmentError.Code(wire.code), wire.message),
            index: Int(wire.index),
            commandID: wire.commandID,
            seq: wire.seq
        )
    }
}

extension Containment_V1_Error {
    public init(_ error: ContainmentError, index: Int = 0) {
        self.init()
        code = error.code.rawValue
        message = error.message
        self.index = Int32(clamping: index)
    }

    public init(_ remote: RemoteError) {
        self.init(remote.error, index: remote.index)
        commandID = remote.commandID
        seq = remote.seq
    }
}

/// What an accepted transaction answers: its command id, the events it caused and (a typed call) the method's result.
public struct Acceptance: Sendable {
    public let commandID: UInt64
    public let events: [BusEvent]
    /// A typed method's result (JSON text); nil for other commands.
    public let result: String?
    /// The answer to a resend whose first answer was too large to keep (docs/PROTOCOL.md, "Exactly once"): the seqs
    /// of the events the transaction published, which ``events`` then leaves out (a typed call's result is lost with
    /// them). Nil for a whole answer.
    public let elided: ClosedRange<UInt64>?

    package init(_ wire: Containment_V1_Accepted) {
        commandID = wire.commandID
        events = wire.events.map(BusEvent.init)
        result = wire.hasResult ? wire.result : nil
        // A range only when it is one (a count of 0, or one past the last seq, is none).
        let (last, overflow) = wire.elidedFirstSeq.addingReportingOverflow(UInt64(wire.elidedCount) &- 1)
        elided = wire.elidedCount == 0 || overflow ? nil : wire.elidedFirstSeq...last
    }

    /// The events in model types (an event that does not decode: `malformed`).
    public func modelEvents() throws(RemoteError) -> [Event] {
        var models: [Event] = []
        models.reserveCapacity(events.count)
        for event in events {
            do {
                models.append(try event.model())
            } catch {
                throw RemoteError(error)
            }
        }
        return models
    }
}

extension CommandClient {
    /// A client with a ZeroMQ context of its own (its socket keeps the context alive): for a process that talks to
    /// one supervisor, such as the command line, which then needs no ZeroMQ of its own.
    public convenience init(
        ownContextTo endpoint: String,
        timeout: Duration = .seconds(5),
        curve: CurveClientKeys? = nil
    ) throws(ContainmentError) {
        try self.init(ownContextTo: [endpoint], timeout: timeout, curve: curve)
    }

    /// The same, failing over among several supervisors' endpoints (a replicated runtime).
    public convenience init(
        ownContextTo endpoints: [String],
        timeout: Duration = .seconds(5),
        curve: CurveClientKeys? = nil
    ) throws(ContainmentError) {
        let context: Context
        do {
            context = try Context()
        } catch {
            throw ContainmentError(.hostUnavailable, "Cannot start ZeroMQ: \(error).")
        }
        try self.init(context: context, endpoints: endpoints, timeout: timeout, curve: curve)
    }
}
