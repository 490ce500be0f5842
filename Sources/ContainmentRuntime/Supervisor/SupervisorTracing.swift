import ContainmentBus
import ContainmentTracing
import W3CTraceContext

/// What the supervisor keeps of traced commands (docs/PROTOCOL.md, "Tracing"): its own spans and clients' reports in
/// a ring, the ids it gives its spans, and the trace requests gathering the hosts' spans.
struct SupervisorTracing {
    /// The spans of this process, and those clients reported.
    let spans = SpanRing()
    /// Seeded from the supervisor's start time: a simulated supervisor's ids repeat with its run.
    var ids: SpanIDs
    /// Reads the real-time clock for the marks within one input (``SupervisorCore/spanClock``); `nil`: the input's
    /// time (a simulated world, where no time passes within an input).
    var clock: (@Sendable () -> Int64)?
    /// Whether the actions since the step was last taken hold a `.trace`.
    var stepTraced = false
    var gathering = TraceGathering()

    init(seed: UInt64) { ids = SpanIDs(seed: seed) }
}

/// A traced command's way through the core, for the driver to end once it carried out its step (``StepTracer``).
package struct CommandTrace {
    var traceID: TraceID
    /// The client's span: the parent of the supervisor's.
    var clientSpan: SpanID
    /// The supervisor's span of the command (`supervisor.command`).
    var root: SpanID
    var commandID: UInt64 = 0
    var peer: [UInt8] = []
    var requestID: UInt64 = 0
    /// When the loop read it, was done decoding it, admitted it, and the model was done with it.
    var received: Int64
    var decoded: Int64
    var admitted: Int64
    var modeled: Int64
}

/// Trace requests waiting for the hosts that delivered the command's callbacks to send their spans.
struct TraceGathering {
    struct Gather {
        var client: [UInt8]
        var requestID: UInt64
        var report: TraceReport
        /// The hosts' connections asked and not answered yet, with their names.
        var waiting: [[UInt8]: String]
        var deadline: ContinuousClock.Instant
    }

    private var pending = NumberedRequests<Gather>()

    var nextDeadline: ContinuousClock.Instant? { pending.values.map(\.deadline).min() }

    mutating func begin(_ gather: Gather) -> UInt64 { pending.add(gather) }

    /// A host's answer to gather `id`; the gather when it is complete, `.none` when it waits for more, `nil` when
    /// nobody asked that peer (a stale or forged reply).
    mutating func answer(_ id: UInt64, from peer: [UInt8], spans: [TraceSpan]) -> Gather?? {
        guard var gather = pending[id], gather.waiting.removeValue(forKey: peer) != nil else { return nil }
        gather.report.spans += spans
        guard gather.waiting.isEmpty else {
            pending[id] = gather
            return .some(nil)
        }
        pending[id] = nil
        return .some(gather)
    }

    /// The gathers whose deadline passed, the hosts that did not answer named.
    mutating func expire(now: ContinuousClock.Instant) -> [Gather] {
        pending.take { $0.deadline <= now }.map { gather in
            var gather = gather
            gather.report.unanswered += gather.waiting.values.sorted()
            return gather
        }
    }
}

extension SupervisorCore {
    /// The real-time clock spans are stamped with (the loop's; none in a simulated world, which stamps every mark of
    /// an input with its time).
    package var spanClock: (@Sendable () -> Int64)? {
        get { tracing.clock }
        set { tracing.clock = newValue }
    }

    /// The spans this supervisor keeps.
    package var spans: SpanRing { tracing.spans }

    /// A mark of a traced command's way: the clock now, or the input's time.
    func traceMark() -> Int64 { tracing.clock?() ?? time.unixNanos }

    /// The trace a request's `traceparent` begins, if it carries a sampled one: its first marks are the input's
    /// time (when the loop read the message) and now (decoded).
    mutating func beginTrace(_ traceparent: String) -> CommandTrace? {
        guard !traceparent.isEmpty, let context = try? TraceContext(traceParentHeaderValue: traceparent),
            context.flags.contains(.sampled)
        else { return nil }
        let now = traceMark()
        return CommandTrace(
            traceID: context.traceID,
            clientSpan: context.spanID,
            root: tracing.ids.nextSpan(),
            received: time.unixNanos,
            decoded: now,
            admitted: now,
            modeled: now
        )
    }

    /// The model is done with a traced command: its id is found among what it emitted since `since`, and the
    /// trace goes with the step for the driver to end. A command with no id yet (one waiting for controllers' code
    /// to answer, SPEC §15, or refused before the rules) keeps no spans.
    mutating func endTrace(_ trace: CommandTrace, emittedSince since: Int, peer: [UInt8], requestID: UInt64) {
        var trace = trace
        trace.modeled = traceMark()
        trace.commandID = commandID(emittedSince: since, to: peer, requestID: requestID)
        guard trace.commandID != 0 else { return }
        trace.peer = peer
        trace.requestID = requestID
        emit(.trace(trace))
        tracing.stepTraced = true
    }

    /// Whether the actions since the step was last taken hold a trace (and no longer after this).
    package mutating func takeStepTraced() -> Bool {
        defer { tracing.stepTraced = false }
        return tracing.stepTraced
    }

    /// `containment trace`: the supervisor's spans of the command, and those of each host it delivered the command's
    /// callbacks to (asked now, answered within `requestTimeoutMs`).
    mutating func gatherTrace(_ commandID: UInt64, from client: [UInt8], requestID: UInt64) {
        let own = tracing.spans.spans(ofCommand: commandID)
        var report = TraceReport(commandID: commandID, spans: own)
        var waiting: [[UInt8]: String] = [:]
        for host in Set(own.lazy.filter { $0.name == "deliver" }.map(\.detail)).sorted() {
            if let record = hosts[host], record.up, let peer = record.routingID {
                waiting[peer] = host
            } else {
                report.unanswered.append(host)
            }
        }
        guard !waiting.isEmpty else {
            reply(to: client, requestID: requestID, .traced(report))
            return
        }
        let gather = TraceGathering.Gather(
            client: client,
            requestID: requestID,
            report: report,
            waiting: waiting,
            deadline: time.now + config.requestTimeout
        )
        let id = tracing.gathering.begin(gather)
        for peer in waiting.keys.sorted(by: { $0.lexicographicallyPrecedes($1) }) {
            emit(.reply(to: peer, requestID: id, .message(.trace(commandID))))
        }
    }

    /// An exporter's feed (`containment-web traces`): the commands whose `supervisor.command` span the ring still
    /// holds, with an id greater than `after`, oldest first, at most ``tracedCommandsLimit`` an answer.
    mutating func listTracedCommands(after: UInt64, to client: [UInt8], requestID: UInt64) {
        let ids = Set(
            tracing.spans.all.lazy.filter { $0.name == "supervisor.command" && $0.commandID > after }.map(\.commandID)
        )
        reply(to: client, requestID: requestID, .tracedCommands(Array(ids.sorted().prefix(Self.tracedCommandsLimit))))
    }

    /// The most command ids one answer to a traced-commands request lists; the asker goes on from the last.
    static let tracedCommandsLimit = 1_000

    /// A host's spans for a gather: the client is answered once every host asked did.
    mutating func traceAnswered(_ report: TraceReport, requestID: UInt64, from peer: [UInt8]) {
        guard let answered = tracing.gathering.answer(requestID, from: peer, spans: report.spans) else {
            warn(peer, "dropped a trace reply nobody asked that peer for")
            return
        }
        if let gather = answered { reply(to: gather.client, requestID: gather.requestID, .traced(gather.report)) }
    }

    /// Gathers some host did not answer in time: answered with what came, the silent hosts named.
    mutating func expireTraces() {
        for gather in tracing.gathering.expire(now: time.now) {
            reply(to: gather.client, requestID: gather.requestID, .traced(gather.report))
        }
    }

    /// A client's own spans, kept beside the supervisor's (at most 64 a message; `malformed` past that).
    mutating func keepClientSpans(_ spans: [TraceSpan], from peer: [UInt8]) {
        guard spans.count <= 64 else {
            warn(peer, "dropped a report of more than 64 spans", metadata: ["span.count": "\(spans.count)"])
            return
        }
        for var span in spans {
            span.process = "client"
            tracing.spans.append(span)
        }
    }
}
