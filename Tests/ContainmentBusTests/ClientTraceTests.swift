import ContainmentTestSupport
import ContainmentTracing
import Instrumentation
import ServiceContextModule
import Testing
import W3CTraceContext

/// A client starts a trace, or continues the one its task's `ServiceContext` carries through the app's instrument
/// (swift-distributed-tracing's API), and the waterfall puts each span under its parent.
struct ClientTraceTests {
    @Test func aClientContinuesTheTraceItsTaskCarriesOrStartsOne() throws {
        var context = ServiceContext.topLevel
        context[TracePropagator.Key.self] = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"
        let parent = try TraceContext(traceParentHeaderValue: context[TracePropagator.Key.self] ?? "")
        let continued = try #require(ClientTrace.begin(in: context, instrument: TracePropagator()))
        #expect(continued.context.traceID == parent.traceID && continued.parent == parent.spanID)
        #expect(continued.context.spanID != parent.spanID && continued.context.flags.contains(.sampled))
        let span = continued.span(commandID: 7)
        #expect(span.parentSpanID == parent.spanID && span.spanID == continued.context.spanID)
        #expect(span.name == "client.command" && span.commandID == 7 && span.endUnixNanos >= span.startUnixNanos)

        // A trace the app does not sample is not traced here either.
        context[TracePropagator.Key.self] = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-00"
        #expect(ClientTrace.begin(in: context, instrument: TracePropagator()) == nil)
        // None to continue: a new sampled trace, the client's span its root.
        // None to continue, and none to start: a client that only continues (RuntimeClient) sends none.
        #expect(ClientTrace.begin(in: .topLevel, instrument: TracePropagator(), startingOne: false) == nil)
        let started = try #require(ClientTrace.begin(in: .topLevel, instrument: TracePropagator()))
        #expect(started.parent == nil && started.context.traceID != parent.traceID)
        let header = started.traceparent
        #expect(try TraceContext(traceParentHeaderValue: header).spanID == started.context.spanID)
    }

    @Test func theWaterfallPutsEachSpanUnderItsParentInTheOrderTheyBegan() throws {
        let trace = TraceID.random()
        let ids = (0..<4).map { _ in SpanID.random() }
        /// Times in µs.
        func span(_ index: Int, parent: Int?, _ name: String, _ start: Int64, _ end: Int64) -> TraceSpan {
            TraceSpan(
                traceID: trace,
                spanID: ids[index],
                parentSpanID: parent.map { ids[$0] },
                name: name,
                process: "p",
                startUnixNanos: start * 1_000,
                endUnixNanos: end * 1_000,
                commandID: 1
            )
        }
        let spans = [
            span(3, parent: 1, "late", 40, 50), span(1, parent: 0, "child", 10, 60),
            span(0, parent: nil, "root", 0, 100),
            span(2, parent: 1, "early", 20, 30),
        ]
        let waterfall = TraceWaterfall(spans)
        #expect(waterfall.rows.map(\.span.name) == ["root", "child", "early", "late"])
        #expect(waterfall.rows.map(\.depth) == [0, 1, 2, 2])
        let lines = waterfall.rendered(width: 10).split(separator: "\n")
        #expect(lines.first == "trace \(trace)" && lines.count == 5)
        #expect(lines[2].hasPrefix("  child") && lines[2].contains("10.0 µs") && lines[2].contains("50.0 µs"))
    }
}
