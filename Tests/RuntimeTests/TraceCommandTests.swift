import Foundation
import Testing

/// `containment trace` over real processes (issue 45): a command sent by `containment ctl` (the client process)
/// through the supervisor process to a host process, whose spans come back as one tree — each hop the child of the
/// one that caused it, across the three processes, in the order they happened on the machine's one clock.
@Suite(.serialized) struct TraceCommandTests {
    struct Span {
        var id: String
        var parent: String?
        var name: String
        var process: String
        var start: Int64
        var end: Int64
        var detail: String
    }

    static func spans(_ lines: String) throws -> [Span] {
        try lines.split(separator: "\n").map { line in
            let object = try #require(
                try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                "\(line)"
            )
            return Span(
                id: try #require(object["spanId"] as? String),
                parent: object["parentSpanId"] as? String,
                name: try #require(object["name"] as? String),
                process: try #require(object["process"] as? String),
                start: try #require((object["startUnixNanos"] as? NSNumber)?.int64Value),
                end: try #require((object["endUnixNanos"] as? NSNumber)?.int64Value),
                detail: object["detail"] as? String ?? ""
            )
        }
    }

    @Test func aCommandsSpansFormOneTreeAcrossClientSupervisorAndHost() async throws {
        try await LifecycleCommandTests.withScratch { run, topologies, _ in
            let topology = topologies + "/two.yaml"
            try LifecycleCommandTests.twoHosts.write(toFile: topology, atomically: true, encoding: .utf8)
            let up = try await run("up", topology)
            try #require(up.status == 0, "\(up)")
            // The leaf on h1 leaves the box on h0: callbacks for the leaf's actor in host h1's process.
            let unembed = try await run("ctl", "unembed", "leaf", "--json")
            try #require(unembed.status == 0, "\(unembed)")
            let reply = try #require(
                try JSONSerialization.jsonObject(with: Data(unembed.stdout.utf8)) as? [String: Any]
            )
            let commandID = try #require((reply["commandId"] as? NSNumber)?.uint64Value)
            let trace = try await run("trace", "\(commandID)", "--json")
            try #require(trace.status == 0, "\(trace)")
            let spans = try Self.spans(trace.stdout)
            func one(_ name: String) throws -> Span { try #require(spans.first { $0.name == name }, "\(name)") }

            let client = try one("client.command")
            #expect(client.parent == nil && client.process == "client")
            let supervisor = try one("supervisor.command")
            #expect(supervisor.parent == client.id && supervisor.process == "supervisor")
            for name in ["decode", "admission", "model", "journal", "publish", "reply", "deliver"] {
                let hop = try one(name)
                #expect(hop.parent == supervisor.id && hop.process == "supervisor", "\(name)")
                #expect(hop.start >= supervisor.start && hop.end <= supervisor.end, "\(name)")
            }
            // In the order of the way: the model, then the journal, then what went out.
            #expect(try one("decode").end <= one("model").start && one("model").end <= one("journal").start)
            #expect(try one("journal").end <= one("publish").start && one("journal").end <= one("deliver").start)
            let deliver = try one("deliver")
            #expect(deliver.detail == "h1")
            let dispatch = try one("host.dispatch")
            #expect(dispatch.parent == deliver.id && dispatch.process == "host h1")
            #expect(dispatch.start >= deliver.start, "the host took the delivery after the supervisor sent it")
            let callbacks = spans.filter { $0.name == "actor.callback" }
            #expect(!callbacks.isEmpty)
            for callback in callbacks {
                #expect(callback.parent == dispatch.id && callback.process == "host h1", "\(callback.detail)")
                #expect(callback.detail.hasPrefix("leaf ") && callback.start >= dispatch.start, "\(callback.detail)")
            }
            #expect(callbacks.contains { $0.detail == "leaf viewDidDisappear" })
            // The client's span holds the supervisor's whole way (the hosts' callbacks run on after the reply).
            #expect(client.start <= supervisor.start && supervisor.end <= client.end)

            // A command never traced has no spans: said, exit 1.
            let missing = try await run("trace", "999999")
            #expect(missing.status == 1 && missing.stderr.hasPrefix("notFound: no spans of command 999999"))
        }
    }
}
