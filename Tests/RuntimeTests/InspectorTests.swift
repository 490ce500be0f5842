import Foundation
import ZeroMQ
import Testing

/// `containment-web inspector` against a real runtime, over HTTP: the page, the state it draws from (every controller, the
/// windows drawn), a `ctl` change reaching it live, the server-sent events, and a clean stop on SIGTERM.
@Suite struct InspectorTests {
    func get(_ url: String, maxTime: Int = 5) async throws -> RuntimeFixture.Output {
        try await RuntimeFixture.run("/usr/bin/env", ["curl", "-sS", "--max-time", "\(maxTime)", url])
    }

    /// `containment-web inspector` on `port`, stopped by SIGTERM. `timeout`'s ten minutes are only a backstop for a
    /// test that hangs: a minute was once shorter than the test under a loaded machine, and the inspector was gone
    /// before the test's own SIGTERM.
    static func inspector(of runtime: RuntimeFixture, port: Int) -> Task<RuntimeFixture.Output, any Error> {
        Task {
            try await runtime.run(
                "/usr/bin/timeout",
                ["-s", "TERM", "600", RuntimeFixture.webBinary, "inspector", "--port", "\(port)"]
            )
        }
    }

    @Test func thePageItsStateAndItsEventsFollowTheTreeLive() async throws {
        try await RuntimeFixture.with(topology: DurabilityTests.menu) { runtime in
            let port = try await MetricsTests.freePort()
            let base = "http://127.0.0.1:\(port)"
            let inspector = Self.inspector(of: runtime, port: port)
            let state =
                try await Poll.value {
                    JSON.object(try await get(base + "/state").stdout).flatMap { $0["tree"] != nil ? $0 : nil }
                } ?? [:]
            let tree = try #require(state["tree"] as? [String: Any], "the inspector never served a state")
            let ids = Set(((tree["controllers"] as? [[String: Any]]) ?? []).compactMap { $0["id"] as? String })
            #expect(ids == ["menu", "first", "second", "third"])
            #expect((state["svg"] as? String)?.contains("data-view=\"menu\"") == true)

            let page = try await get(base + "/")
            #expect(page.stdout.contains("<title>Containment inspector</title>"))
            #expect(page.stdout.contains("new EventSource(\"events\")"))

            // A change made with ctl reaches the state through the events.
            #expect(try await runtime.containment("ctl", "create", "inspected", "--kind", "content").status == 0)
            let updated = try await Poll.until {
                try await get(base + "/state").stdout.contains("\"id\":\"inspected\"")
            }
            #expect(updated, "the state never showed the new controller")

            // What an actor received, as its host reports it; an unknown controller answers its error code.
            let inspected = try #require(JSON.object(try await get(base + "/inspect/first").stdout))
            #expect(inspected["controller"] as? String == "first" && inspected["host"] as? String == "first-host")
            let callbacks = (inspected["callbacks"] as? [[String: Any]]) ?? []
            #expect(callbacks.contains { $0["event"] as? String == "viewDidAppear" }, "\(inspected)")
            #expect((inspected["received"] as? Int ?? 0) >= callbacks.count)
            let unknown = try #require(JSON.object(try await get(base + "/inspect/nobody").stdout))
            #expect(unknown["code"] as? String == "unknownController", "\(unknown)")

            // The stream: the state first, then the events kept, each a JSON object on one data line.
            let stream = try await get(base + "/events", maxTime: 2)
            let messages = stream.stdout.components(separatedBy: "\n\n").filter { !$0.isEmpty }
            #expect(messages.contains { $0.hasPrefix("event: state\ndata: {") })
            let events = messages.filter { $0.hasPrefix("event: event\ndata: ") }.compactMap {
                JSON.object(String($0.dropFirst("event: event\ndata: ".count)))
            }
            #expect(
                events.contains {
                    $0["event"] as? String == "controllerCreated" && $0["controller"] as? String == "inspected"
                }
            )
            #expect(events.allSatisfy { $0["seq"] is Int && $0["category"] is String })

            #expect(try await runtime.run("/usr/bin/pkill", ["-TERM", "-f", "inspector --port \(port)"]).status == 0)
            let stopped = try await inspector.value
            #expect(stopped.status == 0, "a clean stop on SIGTERM: \(stopped.stderr)")
            #expect(stopped.stdout.contains("inspector: \(base)/"))
        }
    }

    /// Under CURVE (`Config/runtime-secure.yaml`) the inspector connects with the configuration's client keys: it
    /// serves the state and an actor's callbacks as without.
    @Test func underCurveItConnectsWithTheConfigurationsKeys() async throws {
        guard hasCurve else { return }
        try await RuntimeFixture.with(
            topology: IsolationRuntimeTests.topology,
            settings: try CurveRuntimeTests.secureSettings()
        ) { runtime in
            let port = try await MetricsTests.freePort()
            let base = "http://127.0.0.1:\(port)"
            let inspector = Self.inspector(of: runtime, port: port)
            let ids =
                try await Poll.value { () -> Set<String>? in
                    let tree = JSON.object(try await get(base + "/state").stdout)?["tree"] as? [String: Any]
                    let ids = Set(((tree?["controllers"] as? [[String: Any]]) ?? []).compactMap { $0["id"] as? String })
                    return ids.isEmpty ? nil : ids
                } ?? []
            #expect(ids == ["box", "late"], "the inspector never served the state under CURVE")
            let inspected = try #require(JSON.object(try await get(base + "/inspect/box").stdout))
            #expect(inspected["controller"] as? String == "box" && inspected["host"] as? String == "h0", "\(inspected)")
            #expect(try await runtime.run("/usr/bin/pkill", ["-TERM", "-f", "inspector --port \(port)"]).status == 0)
            #expect(try await inspector.value.status == 0)
        }
    }
}
