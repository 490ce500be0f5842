import Synchronization
import W3CTraceContext

/// The spans a process keeps: the latest `capacity`, oldest overwritten first — what `containment trace` asks each
/// process for. Shared by the threads and actors of the process that record into it.
public final class SpanRing: Sendable {
    private struct Ring {
        var spans: [TraceSpan] = []
        /// Where the next span goes once the ring is full.
        var next = 0
    }

    public let capacity: Int
    private let ring = Mutex(Ring())

    /// Keeps the latest `capacity` spans (at least 1).
    public init(capacity: Int = 4_096) {
        self.capacity = max(1, capacity)
    }

    public func append(_ span: TraceSpan) {
        let capacity = capacity
        ring.withLock { ring in
            if ring.spans.count < capacity {
                ring.spans.append(span)
            } else {
                ring.spans[ring.next] = span
                ring.next = (ring.next + 1) % capacity
            }
        }
    }

    public func append(contentsOf spans: some Sequence<TraceSpan>) {
        for span in spans { append(span) }
    }

    /// The spans kept of command `commandID`, or of the trace one of them belongs to (the client's span, recorded
    /// before the command had an id, among them), oldest first.
    public func spans(ofCommand commandID: UInt64) -> [TraceSpan] {
        ring.withLock { ring in
            let ordered = Array(ring.spans[ring.next...] + ring.spans[..<ring.next])
            let traces = Set(ordered.lazy.filter { $0.commandID == commandID }.map(\.traceID))
            return ordered.filter { $0.commandID == commandID || ($0.commandID == 0 && traces.contains($0.traceID)) }
        }
    }

    /// Every span kept, oldest first.
    public var all: [TraceSpan] {
        ring.withLock { ring in Array(ring.spans[ring.next...] + ring.spans[..<ring.next]) }
    }
}

/// Span ids drawn from a seeded generator (SplitMix64): the same seed gives the same ids, so a simulated supervisor's
/// spans are as repeatable as the rest of its run.
public struct SpanIDs: Sendable {
    private var state: UInt64

    public init(seed: UInt64) { state = seed }

    public mutating func nextSpan() -> SpanID {
        var generator = self
        let id = SpanID.random(using: &generator)
        self = generator
        return id
    }
}

extension SpanIDs: RandomNumberGenerator {
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        let value = z ^ (z >> 31)
        // Never the all-zero id, which W3C trace context reserves.
        return value == 0 ? 1 : value
    }
}
