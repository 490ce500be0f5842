import W3CTraceContext

/// One finished span: a hop of a traced command in one process (docs/PROTOCOL.md, "Tracing"). Times are the machine's
/// real-time clock (Unix nanoseconds), so the spans of processes on one machine line up.
public struct TraceSpan: Sendable, Hashable {
    public var traceID: TraceID
    public var spanID: SpanID
    /// Its parent; `nil` for a root (the client's span, or the supervisor's when the client's is not kept).
    public var parentSpanID: SpanID?
    /// What the hop is: `client.command`, `supervisor.command`, `decode`, `admission`, `model`, `journal`, `publish`,
    /// `reply`, `deliver`, `host.dispatch`, `actor.callback`, `actor.method`.
    public var name: String
    /// Which process kept it: `client`, `supervisor`, or `host NAME`.
    public var process: String
    public var startUnixNanos: Int64
    public var endUnixNanos: Int64
    /// The command it is a hop of (0: not known yet, a client's span of a refused request).
    public var commandID: UInt64
    /// More about it: a deliver span's host, an actor span's controller and callback.
    public var detail: String

    public init(
        traceID: TraceID,
        spanID: SpanID,
        parentSpanID: SpanID?,
        name: String,
        process: String,
        startUnixNanos: Int64,
        endUnixNanos: Int64,
        commandID: UInt64,
        detail: String = ""
    ) {
        self.traceID = traceID
        self.spanID = spanID
        self.parentSpanID = parentSpanID
        self.name = name
        self.process = process
        self.startUnixNanos = startUnixNanos
        self.endUnixNanos = max(startUnixNanos, endUnixNanos)
        self.commandID = commandID
        self.detail = detail
    }

    /// How long it took.
    public var duration: Duration { .nanoseconds(endUnixNanos - startUnixNanos) }
}

extension TraceID {
    /// Its 16 bytes.
    public var byteArray: [UInt8] { withSpan { span in (0..<span.count).map { span[$0] } } }

    /// From exactly 16 bytes.
    public init?(byteArray bytes: some Collection<UInt8>) {
        guard bytes.count == 16 else { return nil }
        let b = Array(bytes)
        self.init(
            bytes: (
                b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15]
            )
        )
    }
}

extension SpanID {
    /// Its 8 bytes.
    public var byteArray: [UInt8] { withSpan { span in (0..<span.count).map { span[$0] } } }

    /// From exactly 8 bytes.
    public init?(byteArray bytes: some Collection<UInt8>) {
        guard bytes.count == 8 else { return nil }
        let b = Array(bytes)
        self.init(bytes: (b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7]))
    }
}
