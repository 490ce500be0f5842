#if canImport(Glibc)
import Glibc
#endif
import Instrumentation
import ServiceContextModule
import W3CTraceContext

/// The trace context a client sends with a command (W3C `traceparent`): it continues the trace of the task's
/// `ServiceContext` when the app bootstrapped an instrument that injects one (swift-otel's W3C propagator, say), and
/// starts a new sampled trace otherwise. Its span id is the client's own span of the command.
public struct ClientTrace: Sendable {
    /// What goes on the wire: the trace, with the client's span as the parent.
    public let context: TraceContext
    /// The span the client's span is a child of (the app's span), if it continued a trace.
    public let parent: SpanID?
    /// When the client's span began.
    public let startUnixNanos: Int64

    /// The context for a command sent now; `nil` when the trace it would continue is not sampled, or when there is
    /// none to continue and `startingOne` is false. `instrument`: the one that injects the trace of `serviceContext`
    /// (the process's bootstrapped instrument unless given).
    public static func begin(
        in serviceContext: ServiceContext? = .current,
        instrument: any Instrument = InstrumentationSystem.instrument,
        startingOne: Bool = true
    ) -> ClientTrace? {
        var headers: [String: String] = [:]
        if let serviceContext { instrument.inject(serviceContext, into: &headers, using: HeaderInjector()) }
        let start = UnixClock.nanos
        if let value = headers["traceparent"], let continued = try? TraceContext(traceParentHeaderValue: value) {
            guard continued.flags.contains(.sampled) else { return nil }
            return ClientTrace(
                context: TraceContext(
                    traceID: continued.traceID,
                    spanID: .random(),
                    flags: .sampled,
                    state: continued.state
                ),
                parent: continued.spanID,
                startUnixNanos: start
            )
        }
        // Nothing to continue: a client that only continues (RuntimeClient) pays no ids and no span.
        guard startingOne else { return nil }
        return ClientTrace(
            context: TraceContext(traceID: .random(), spanID: .random(), flags: .sampled, state: TraceState()),
            parent: nil,
            startUnixNanos: start
        )
    }

    /// The `traceparent` header's value.
    public var traceparent: String { context.traceParentHeaderValue }

    /// The client's span, ended now: the command's whole way, from before it was sent to its answer.
    public func span(commandID: UInt64, process: String = "client") -> TraceSpan {
        TraceSpan(
            traceID: context.traceID,
            spanID: context.spanID,
            parentSpanID: parent,
            name: "client.command",
            process: process,
            startUnixNanos: startUnixNanos,
            endUnixNanos: UnixClock.nanos,
            commandID: commandID
        )
    }
}

private struct HeaderInjector: Injector {
    func inject(_ value: String, forKey key: String, into carrier: inout [String: String]) {
        carrier[key.lowercased()] = value
    }
}

/// The machine's real-time clock, as spans are stamped with.
public enum UnixClock {
    public static var nanos: Int64 {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        return Int64(spec.tv_sec) * 1_000_000_000 + Int64(spec.tv_nsec)
    }
}
