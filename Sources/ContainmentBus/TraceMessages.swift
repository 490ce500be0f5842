import ContainmentTracing
import Foundation
import W3CTraceContext

// Tracing on the wire (docs/PROTOCOL.md, "Tracing"): spans, a host's answer to a trace request, and the trace links
// a delivery carries for its traced commands.

extension TraceSpan {
    /// From the wire; `nil` when its ids are not the sizes W3C trace context gives them.
    package init?(_ wire: Containment_V1_Span) {
        guard let traceID = TraceID(byteArray: wire.traceID), let spanID = SpanID(byteArray: wire.spanID) else {
            return nil
        }
        let parent: SpanID?
        if wire.parentSpanID.isEmpty {
            parent = nil
        } else {
            guard let id = SpanID(byteArray: wire.parentSpanID) else { return nil }
            parent = id
        }
        self.init(
            traceID: traceID,
            spanID: spanID,
            parentSpanID: parent,
            name: wire.name,
            process: wire.process,
            startUnixNanos: wire.startUnixNanos,
            endUnixNanos: wire.endUnixNanos,
            commandID: wire.commandID,
            detail: wire.detail
        )
    }

    package var wire: Containment_V1_Span {
        .with {
            $0.traceID = Data(traceID.byteArray)
            $0.spanID = Data(spanID.byteArray)
            if let parentSpanID { $0.parentSpanID = Data(parentSpanID.byteArray) }
            $0.name = name
            $0.process = process
            $0.startUnixNanos = startUnixNanos
            $0.endUnixNanos = endUnixNanos
            $0.commandID = commandID
            $0.detail = detail
        }
    }
}

/// The spans kept of one command: what a trace request is answered with (by a host, those of its process; by the
/// supervisor, every process's it gathered).
public struct TraceReport: Sendable, Equatable {
    public var commandID: UInt64
    public var spans: [TraceSpan]
    /// Hosts asked that did not answer in time.
    public var unanswered: [String]

    public init(commandID: UInt64, spans: [TraceSpan], unanswered: [String] = []) {
        self.commandID = commandID
        self.spans = spans
        self.unanswered = unanswered
    }

    package init(_ wire: Containment_V1_TraceReply) {
        self.init(
            commandID: wire.commandID,
            spans: wire.spans.compactMap(TraceSpan.init),
            unanswered: wire.unanswered
        )
    }

    package var wire: Containment_V1_TraceReply {
        .with {
            $0.commandID = commandID
            $0.spans = spans.map(\.wire)
            $0.unanswered = unanswered
        }
    }
}

/// A traced command among a delivery's events, and the context its callbacks' spans continue (the parent is the
/// supervisor's span of the delivery).
package struct DeliveryTrace: Sendable, Equatable {
    package var commandID: UInt64
    package var context: TraceContext

    package init(commandID: UInt64, context: TraceContext) {
        self.commandID = commandID
        self.context = context
    }
}

extension PreEncoded {
    /// The bytes that, appended to a request, give it `traceparent` (field 3 of `ClientMessage`).
    package static func traceparent(_ value: String) -> [UInt8] {
        var bytes: [UInt8] = []
        appendVarint(3 << 3 | 2, to: &bytes)
        appendVarint(UInt64(value.utf8.count), to: &bytes)
        bytes.append(contentsOf: value.utf8)
        return bytes
    }

    /// The bytes that, appended to a delivery's `ServerMessage`, add `traces` to it: a second `delivery` field, which
    /// protobuf merges into the first (its repeated fields appended).
    package static func deliveryTraces(_ traces: [DeliveryTrace]) -> [UInt8] {
        let delivery = Containment_V1_Delivery.with {
            $0.traces = traces.map { trace in
                .with {
                    $0.commandID = trace.commandID
                    $0.traceparent = trace.context.traceParentHeaderValue
                }
            }
        }
        // Serializing a message of strings and integers cannot fail.
        let body = (try? delivery.serializedBytes() as [UInt8]) ?? []
        var bytes: [UInt8] = []
        appendVarint(14 << 3 | 2, to: &bytes)
        appendVarint(UInt64(body.count), to: &bytes)
        bytes.append(contentsOf: body)
        return bytes
    }
}
