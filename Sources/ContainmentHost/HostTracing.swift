import ContainmentBus
import ContainmentTracing
import W3CTraceContext

/// A delivery's traced commands as the dispatcher hands their callbacks to the actors (docs/PROTOCOL.md,
/// "Tracing"): one `host.dispatch` span per command, the child of the supervisor's span of the delivery and the
/// parent of its actors' spans.
struct DispatchTrace {
    private var commands: [UInt64: (context: TraceContext, span: SpanID)] = [:]
    private let start = UnixClock.nanos
    /// The actors each command's callbacks were posted to.
    private(set) var reached: [UInt64: [ControllerActor]] = [:]

    init(_ traces: [DeliveryTrace]) {
        for trace in traces { commands[trace.commandID] = (trace.context, .random()) }
    }

    /// What the span of `event`'s callback continues, if its command is traced.
    func actorTrace(for event: BusEvent) -> ActorTrace? {
        commands[event.commandID].map { ActorTrace(traceID: $0.context.traceID, parent: $0.span) }
    }

    mutating func reached(_ actor: ControllerActor, commandID: UInt64) {
        reached[commandID, default: []].append(actor)
    }

    /// The dispatch's spans, ended now.
    func spans(host: String) -> [TraceSpan] {
        let end = UnixClock.nanos
        return commands.sorted { $0.key < $1.key }.map { commandID, traced in
            TraceSpan(
                traceID: traced.context.traceID,
                spanID: traced.span,
                parentSpanID: traced.context.spanID,
                name: "host.dispatch",
                process: "host \(host)",
                startUnixNanos: start,
                endUnixNanos: end,
                commandID: commandID
            )
        }
    }
}

/// The actors the latest traced commands' callbacks went to (at most ``limit`` commands): a trace request is
/// answered once they handled them, so their spans are there.
struct TracedActors {
    static let limit = 1_024
    private var actors: [UInt64: [ControllerActor]] = [:]
    private var order: [UInt64] = []

    mutating func add(_ reached: [UInt64: [ControllerActor]]) {
        for (commandID, list) in reached {
            if actors[commandID] == nil { order.append(commandID) }
            actors[commandID, default: []].append(contentsOf: list)
        }
        while order.count > Self.limit { actors[order.removeFirst()] = nil }
    }

    func actors(of commandID: UInt64) -> [ControllerActor] { actors[commandID] ?? [] }
}
