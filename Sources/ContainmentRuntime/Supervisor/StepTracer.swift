import ContainmentBus
import ContainmentTracing
import W3CTraceContext

/// The spans of a step's traced commands, recorded as the driver carries the step out (docs/PROTOCOL.md,
/// "Tracing"): each command's way through the core (decode, admission, model), the step's journal write and sync, its
/// events' publication, its reply, and each delivery of its callbacks — whose context goes with the delivery, so the
/// host's spans are its children. Made only for a step that holds a trace: an untraced step pays one check.
struct StepTracer {
    private struct Traced {
        var trace: CommandTrace
        var publish: (start: Int64, end: Int64)?
        var reply: (start: Int64, end: Int64)?
        var deliveries: [(host: String, span: SpanID, start: Int64, end: Int64)] = []
    }

    private var traced: [UInt64: Traced] = [:]
    private var ids: SpanIDs
    var journal: (start: Int64, end: Int64) = (0, 0)

    init(_ actions: [SupervisorAction], ids: SpanIDs) {
        self.ids = ids
        for case .trace(let trace) in actions { traced[trace.commandID] = Traced(trace: trace) }
    }

    /// The ids it has not used, for the core's next spans.
    var unusedIDs: SpanIDs { ids }

    /// The trace context a delivery's traced commands carry to the host (each with a span of its own, the parent of
    /// the host's), as bytes to append to the delivery's message; empty when it carries none.
    mutating func links(for delivery: OutgoingDelivery) -> (bytes: [UInt8], spans: [(UInt64, SpanID)]) {
        var links: [DeliveryTrace] = []
        var spans: [(UInt64, SpanID)] = []
        var seen: Set<UInt64> = []
        for event in delivery.events where traced[event.commandID] != nil && seen.insert(event.commandID).inserted {
            guard let entry = traced[event.commandID] else { continue }
            let span = ids.nextSpan()
            spans.append((event.commandID, span))
            links.append(
                DeliveryTrace(
                    commandID: event.commandID,
                    context: TraceContext(traceID: entry.trace.traceID, spanID: span, flags: .sampled, state: .init())
                )
            )
        }
        return (links.isEmpty ? [] : PreEncoded.deliveryTraces(links), spans)
    }

    /// Action `action` went out between `start` and `end`; `delivered`: the delivery spans it carried.
    mutating func sent(_ action: SupervisorAction, start: Int64, end: Int64, delivered: [(UInt64, SpanID)]) {
        switch action {
        case .publish(let event):
            guard var entry = traced[event.commandID] else { return }
            entry.publish = (entry.publish?.start ?? start, end)
            traced[event.commandID] = entry
        case .reply(let peer, let requestID, _):
            guard
                let id = traced.first(where: { $0.value.trace.peer == peer && $0.value.trace.requestID == requestID })?
                    .key
            else { return }
            traced[id]?.reply = (start, end)
        case .deliver(_, let delivery):
            for (commandID, span) in delivered {
                traced[commandID]?.deliveries.append((delivery.host, span, start, end))
            }
        default: return
        }
    }

    /// Every span recorded, the supervisor's span of each command ending with the last of its hops.
    mutating func finish() -> [TraceSpan] {
        var spans: [TraceSpan] = []
        for entry in traced.values.sorted(by: { $0.trace.commandID < $1.trace.commandID }) {
            let trace = entry.trace
            func span(_ name: String, _ start: Int64, _ end: Int64, detail: String = "", id: SpanID? = nil) -> TraceSpan
            {
                TraceSpan(
                    traceID: trace.traceID,
                    spanID: id ?? ids.nextSpan(),
                    parentSpanID: trace.root,
                    name: name,
                    process: "supervisor",
                    startUnixNanos: start,
                    endUnixNanos: end,
                    commandID: trace.commandID,
                    detail: detail
                )
            }
            spans.append(span("decode", trace.received, trace.decoded))
            spans.append(span("admission", trace.decoded, trace.admitted))
            spans.append(span("model", trace.admitted, trace.modeled))
            spans.append(span("journal", max(journal.start, trace.modeled), max(journal.end, trace.modeled)))
            var end = max(journal.end, trace.modeled)
            if let publish = entry.publish {
                spans.append(span("publish", publish.start, publish.end))
                end = max(end, publish.end)
            }
            if let reply = entry.reply {
                spans.append(span("reply", reply.start, reply.end))
                end = max(end, reply.end)
            }
            for delivery in entry.deliveries {
                spans.append(span("deliver", delivery.start, delivery.end, detail: delivery.host, id: delivery.span))
                end = max(end, delivery.end)
            }
            var root = span("supervisor.command", trace.received, end, id: trace.root)
            root.parentSpanID = trace.clientSpan
            spans.append(root)
        }
        return spans
    }
}
