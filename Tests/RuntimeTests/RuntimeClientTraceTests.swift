import ContainmentBus
import ContainmentClient
import ContainmentConfig
import ContainmentHost
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
        try traces(runDirectory: runtime.runDirectory)
    }

    /// The same, of the runtime in `runDirectory` (at the default endpoints).
    static func traces(runDirectory: String) throws -> [TraceReport] {
        let context = try Context()
        defer { context.terminate() }
        let endpoint = RuntimeConfig(runDirectory: runDirectory).commandEndpoint
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

    /// A typed call continues the task's trace too, by its declared name (`RuntimeClient.call`) or through a
    /// reference (`ContainmentActorSystem`): the supervisor's span under the client's, the host's delivery, and the
    /// method's span in the controller's actor at the end.
    @Test func aTypedCallInATracedTaskIsTracedToItsMethod() async throws {
        try await TypedCallTests.withCounters { runtime in
            let client = try RuntimeClient(environment: runtime.environment, instrument: TracePropagator())
            let system = ContainmentActorSystem(
                transport: try ClientCallTransport(
                    configPath: nil,
                    environment: runtime.environment,
                    instrument: TracePropagator()
                )
            )
            let tally = try CounterController.resolve(id: "tally", using: system)
            // Neither way sends a trace from a task without one.
            #expect(try await client.call("tally", method: "add(_:)", arguments: ["1"]) == "1")
            #expect(try await tally.add(1) == 2)
            #expect(try Self.traces(runDirectory: runtime.runDirectory).isEmpty)

            var context = ServiceContext.topLevel
            let byName = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01"
            context[TracePropagator.Key.self] = byName
            _ = try await ServiceContext.withValue(context) {
                try await client.call("tally", method: "add(_:)", arguments: ["2"])
            }
            let byReference = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"
            context[TracePropagator.Key.self] = byReference
            _ = try await ServiceContext.withValue(context) { try await tally.add(3) }

            let reports = try Self.traces(runDirectory: runtime.runDirectory)
            try #require(reports.count == 2, "\(reports)")
            for (report, appSpan) in zip(reports, [byName, byReference]) {
                let parent = try TraceContext(traceParentHeaderValue: appSpan)
                let spans = report.spans
                #expect(spans.allSatisfy { $0.traceID == parent.traceID }, "\(spans)")
                let clientSpan = try #require(spans.first { $0.name == "client.command" }, "\(spans)")
                #expect(clientSpan.parentSpanID == parent.spanID)
                let supervisor = try #require(spans.first { $0.name == "supervisor.command" }, "\(spans)")
                #expect(supervisor.parentSpanID == clientSpan.spanID)
                // The way down: the supervisor's delivery, the host's dispatch under it, the method under that.
                let delivery = try #require(spans.first { $0.name == "deliver" && $0.detail == "h0" }, "\(spans)")
                let dispatch = try #require(spans.first { $0.name == "host.dispatch" }, "\(spans)")
                #expect(dispatch.parentSpanID == delivery.spanID && dispatch.process == "host h0")
                let method = try #require(spans.first { $0.name == "actor.method" }, "\(spans)")
                #expect(method.parentSpanID == dispatch.spanID)
                #expect(method.detail == "tally add(_:)")
                // The client's span holds the whole call: it ends once the method's answer is back.
                #expect(clientSpan.startUnixNanos <= method.startUnixNanos)
                #expect(clientSpan.endUnixNanos >= method.endUnixNanos)
            }
        }
    }
}
