import ContainmentBus
import ContainmentClient
import ContainmentConfig
import ContainmentModel
import ContainmentTestSupport
import ContainmentTracing
import ServiceContextModule
import Testing
import W3CTraceContext
import ZeroMQ

/// `RuntimeClient` continues the trace of the task that performs a command (issue 45): the app's span is the parent
/// of the client's, and the supervisor's and the host's spans follow under it; a task without a trace sends none.
@Suite(.serialized) struct RuntimeClientTraceTests {
    /// The commands traced so far, each with the spans kept of it.
    static func traces(_ runtime: RuntimeFixture) throws -> [TraceReport] {
        let context = try Context()
        defer { context.terminate() }
        let endpoint = RuntimeConfig(runDirectory: runtime.runDirectory).commandEndpoint
        // The client (and its socket) is gone when the closure returns, before the context ends.
        return try { () throws -> [TraceReport] in
            let client = try CommandClient(context: context, endpoint: endpoint)
            return try client.tracedCommands(after: 0).map { try client.trace($0) }
        }()
    }

    @Test func aCommandPerformedInATracedTaskContinuesItsTrace() async throws {
        try await RuntimeFixture.with(topology: RuntimeSubscriberTests.topology) { runtime in
            let client = try RuntimeClient(
                environment: RuntimeSubscriberTests.environment(runtime),
                instrument: TracePropagator()
            )
            // No trace in the task: none is started.
            try await client.perform([Request(.setAlpha(.root("box"), 0.25), by: .controller("box"))])
            #expect(try Self.traces(runtime).isEmpty)

            let appSpan = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"
            var context = ServiceContext.topLevel
            context[TracePropagator.Key.self] = appSpan
            _ = try await ServiceContext.withValue(context) {
                try await client.perform([.create("menu", kind: "content")], hosts: ["menu": "h0"])
            }
            let reports = try Self.traces(runtime)
            try #require(reports.count == 1, "\(reports)")
            let spans = reports[0].spans
            let parent = try TraceContext(traceParentHeaderValue: appSpan)
            let clientSpan = try #require(spans.first { $0.name == "client.command" }, "\(spans)")
            #expect(clientSpan.traceID == parent.traceID && clientSpan.parentSpanID == parent.spanID)
            #expect(spans.allSatisfy { $0.traceID == parent.traceID })
            let supervisor = try #require(spans.first { $0.name == "supervisor.command" })
            #expect(supervisor.parentSpanID == clientSpan.spanID)
            #expect(spans.contains { $0.name == "host.dispatch" && $0.process == "host h0" }, "\(spans)")

            // A trace that is not sampled is not continued, nor one started in its place.
            context[TracePropagator.Key.self] = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-00"
            _ = try await ServiceContext.withValue(context) {
                try await client.perform([Request(.setAlpha(.root("box"), 0.5), by: .controller("box"))])
            }
            #expect(try Self.traces(runtime).count == 1)
        }
    }
}
