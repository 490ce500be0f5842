@testable import ContainmentBus
import ContainmentModel
import ContainmentTracing
import Foundation
import Testing
import W3CTraceContext

/// Tracing on the wire (docs/PROTOCOL.md, "Tracing"): spans keep every field through their protobuf form, and the
/// trace context the supervisor appends to a delivery reaches the host beside the delivery's events.
struct TraceMessagesTests {
    /// The W3C specification's example.
    static func context() throws -> TraceContext {
        try TraceContext(traceParentHeaderValue: "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01")
    }

    @Test func aSpanKeepsEveryFieldOnTheWire() throws {
        let context = try Self.context()
        let span = TraceSpan(
            traceID: context.traceID,
            spanID: SpanID.random(),
            parentSpanID: context.spanID,
            name: "deliver",
            process: "supervisor",
            startUnixNanos: 10,
            endUnixNanos: 25,
            commandID: 7,
            detail: "h1"
        )
        let decoded = try #require(TraceSpan(try Containment_V1_Span(serializedBytes: span.wire.bytes)))
        #expect(decoded == span)
        var root = span
        root.parentSpanID = nil
        #expect(TraceSpan(root.wire) == root)
        // Ids of the wrong size are not a span.
        var wrong = span.wire
        wrong.spanID = Data([1, 2, 3])
        #expect(TraceSpan(wrong) == nil)
        let report = TraceReport(commandID: 7, spans: [span, root], unanswered: ["h2"])
        #expect(TraceReport(report.wire) == report)
    }

    @Test func aDeliverysTracesReachTheHostBesideItsEvents() throws {
        let events = [BusEvent(.viewDidLoad("a"), seq: 21), BusEvent(.loadView("b"), seq: 22)]
        let plain = ServerMessage.with { $0.delivery = .with { $0.events = events.map(\.wire) } }.bytes
        let trace = DeliveryTrace(commandID: 9, context: try Self.context())
        let bytes = plain + PreEncoded.deliveryTraces([trace])
        guard case .delivery(let delivered, let traces) = try HostInbound(decoding: bytes) else {
            Issue.record("not a delivery")
            return
        }
        #expect(delivered.map(\.seq) == [21, 22])
        #expect(traces == [trace])
        // A link whose context does not parse is dropped, not the delivery.
        let bad = ServerMessage.with {
            $0.delivery = .with {
                $0.events = events.map(\.wire)
                $0.traces = [
                    .with {
                        $0.commandID = 9
                        $0.traceparent = "01-zz"
                    }
                ]
            }
        }.bytes
        guard case .delivery(let kept, let none) = try HostInbound(decoding: bad) else {
            Issue.record("not a delivery")
            return
        }
        #expect(kept.count == 2 && none.isEmpty)
    }

    @Test func aHostsTraceRequestAndAnswerRoundTrip() throws {
        let request = ServerMessage.with {
            $0.requestID = 12
            $0.trace = .with { $0.commandID = 9 }
        }
        guard case .trace(let requestID, let commandID) = try HostInbound(decoding: request.bytes) else {
            Issue.record("not a trace request")
            return
        }
        #expect(requestID == 12 && commandID == 9)
        let answer = HostOutbound.traced(requestID: 12, TraceReport(commandID: 9, spans: []))
        let inbound = try InboundRequest(decoding: answer.bytes)
        guard case .traced(let report) = inbound.body else {
            Issue.record("not a trace answer")
            return
        }
        #expect(inbound.requestID == 12 && report.commandID == 9)
    }
}
