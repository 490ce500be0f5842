import ContainmentBus
import ContainmentModel
import ContainmentConfig
import ContainmentRuntime
import Foundation
import Testing
import ZeroMQ

/// Bad input on the supervisor's sockets, and clean shutdown.
@Suite(.serialized) struct RobustnessTests {
    /// When a process began (clock ticks after boot), from its `/proc/PID/stat`: field 22, counted after the
    /// parenthesised name (which may hold spaces).
    static func startTime(_ stat: String) -> UInt64? {
        guard let close = stat.lastIndex(of: ")") else { return nil }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        // After the name come field 3 (state) onwards: field 22 is the 20th of them.
        return fields.count > 19 ? UInt64(fields[19]) : nil
    }

    static let topology = """
        window: {name: main, width: 800, height: 600, root: solo}
        controllers:
          - {id: solo, kind: content, host: h0}
        """

    @Test func malformedFramesGetAnErrorAndTheSupervisorKeepsServing() async throws {
        try await RuntimeFixture.with(topology: Self.topology) { runtime in
            let (context, dealer) = try runtime.rawDealer()

            // Not a protobuf message at all.
            _ = try dealer.send([[0xFF, 0xFF, 0xFF, 0x07, 0x00]])
            let garbage = try #require(try dealer.receiveServerMessage())
            guard case .error(let error) = garbage.body else {
                Issue.record("expected an error, got \(garbage)")
                return
            }
            #expect(error.code == "malformed")
            #expect(garbage.requestID == 0)

            // Three frames where one is expected.
            _ = try dealer.send([[1], [2], [3]])
            let frames = try #require(try dealer.receiveServerMessage())
            guard case .error(let framesError) = frames.body else {
                Issue.record("expected an error")
                return
            }
            #expect(framesError.code == "malformed")
            #expect(framesError.message == "A request is exactly one frame; got 3.")

            // A well-formed message with no body, and a command that names an impossible view.
            _ = try dealer.send([ClientMessage.with { $0.requestID = 7 }.bytes])
            let empty = try #require(try dealer.receiveServerMessage())
            #expect(empty.requestID == 7)
            guard case .error(let emptyError) = empty.body else {
                Issue.record("expected an error")
                return
            }
            #expect(emptyError.code == "malformed")
            var command = WireCommand()
            command.setFrame = .with { $0.view = "a//b" }
            _ = try dealer.send([
                ClientMessage.with {
                    $0.requestID = 8
                    $0.commands = .with { $0.commands = [command] }
                }.bytes
            ])
            let badView = try #require(try dealer.receiveServerMessage())
            guard case .error(let viewError) = badView.body else {
                Issue.record("expected an error")
                return
            }
            #expect(viewError.code == "malformed")

            // Garbage on the event socket's endpoint is nobody's input: a PUB does not read. The supervisor still serves.
            _ = try dealer.send([
                ClientMessage.with {
                    $0.requestID = 9
                    $0.snapshot = .init()
                }.bytes
            ])
            let snapshot = try #require(try dealer.receiveServerMessage())
            #expect(snapshot.requestID == 9)
            guard case .snapshot(let state) = snapshot.body else {
                Issue.record("expected a snapshot")
                return
            }
            #expect(state.controllers.map(\.id) == ["solo"])
            dealer.close()
            context.terminate()

            let log =
                (try? String(contentsOfFile: runtime.runDirectory + "/logs/supervisor.log", encoding: .utf8)) ?? ""
            // The first warning about this peer is logged; the next, if within a second, is held back (and counted in
            // the peer's next line: IsolationRuntimeTests).
            #expect(log.contains("dropped an undecodable request"))
            #expect(try await runtime.containment("tree").status == 0)
        }
    }

    @Test func downLeavesNoProcessSocketOrPidFile() async throws {
        try await RuntimeFixture.with(topology: Self.topology) { runtime in
            let directory = runtime.runDirectory
            let files = try FileManager.default.contentsOfDirectory(atPath: directory)
            let pidFiles = files.filter { $0.hasSuffix(".pid") }.sorted()
            #expect(pidFiles == ["host-h0.pid", "supervisor.pid"])
            #expect(files.contains("command.sock") && files.contains("events.sock"))
            let pids = pidFiles.compactMap { name in
                (try? String(contentsOfFile: directory + "/" + name, encoding: .utf8)).flatMap {
                    Int32($0.trimmingCharacters(in: .whitespacesAndNewlines))
                }
            }
            #expect(pids.count == 2)
            let starts = pids.map {
                Self.startTime((try? String(contentsOfFile: "/proc/\($0)/stat", encoding: .utf8)) ?? "")
            }
            #expect(starts.allSatisfy { $0 != nil })
            let down = try await runtime.script("down.sh", [])
            #expect(down.status == 0, "\(down.stderr)")
            let left = try FileManager.default.contentsOfDirectory(atPath: directory)
            #expect(left.filter { $0.hasSuffix(".pid") || $0.hasSuffix(".sock") }.isEmpty, "left: \(left)")
            for (pid, started) in zip(pids, starts) {
                let state = (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)) ?? ""
                // The same process (its start time), not another one the pid was given to since — or another process's
                // thread: thread ids share the pid space. Gone, or a zombie waiting for its reparented parent to reap it:
                // no longer running either way.
                let same = Self.startTime(state) == started
                #expect(!same || state.contains(") Z "), "process \(pid) still runs: \(state)")
            }
            let status = try await runtime.script("status.sh", [])
            #expect(status.status == 3)
        }
    }
}

/// Hosts that stall or lose their supervisor come back without losing a callback.
@Suite(.serialized) struct HostLivenessTests {
    static let settings = """
        heartbeatIntervalMs: 100
        heartbeatTimeoutMs: 500
        """

    static let topology = """
        window: {name: main, width: 800, height: 600, root: box}
        controllers:
          - {id: box, kind: content, host: h0}
          - {id: late, kind: content, host: h1, parent: box}
        """

    static func hostUp(_ name: String, in runtime: RuntimeFixture) async throws -> Bool? {
        let hosts = try await runtime.treeJSON()["hosts"] as? [[String: Any]] ?? []
        return hosts.first { $0["name"] as? String == name }?["up"] as? Bool
    }

    static func waitFor(_ up: Bool, host: String, in runtime: RuntimeFixture) async throws -> Bool {
        try await Poll.until { try await hostUp(host, in: runtime) == up }
    }

    /// SPEC §14: the supervisor learns a killed host's connection is gone the moment it forwards to it, so `inspect`
    /// answers `hostUnavailable` at once — long before the host's heartbeat timeout or the request's own timeout (30
    /// and 20 s here, so neither can be what answers).
    @Test func inspectOfAControllerOnAKilledHostAnswersHostUnavailableAtOnce() async throws {
        try await RuntimeFixture.with(
            downReports: "removed its stale pid file",
            topology: Self.topology,
            // Not restarted (temporary), so only the prompt answer can come.
            settings:
                "heartbeatIntervalMs: 100\nheartbeatTimeoutMs: 30000\nrequestTimeoutMs: 20000\nhostRestart: temporary\n"
        ) { runtime in
            #expect(try await runtime.containment("inspect", "late").status == 0)
            let pid = try String(contentsOfFile: runtime.runDirectory + "/host-h1.pid", encoding: .utf8)
                .trimmingCharacters(in: .whitespacesAndNewlines)
            #expect(try await runtime.run("/bin/kill", ["-KILL", pid]).status == 0)
            // Once the supervisor has seen it end (its hostDown), the inspect is refused at once, not after a timeout.
            #expect(try await Self.waitFor(false, host: "h1", in: runtime))
            let inspect = try await runtime.containment("inspect", "late")
            #expect(inspect.status != 0)
            #expect(inspect.stderr.contains("hostUnavailable"), "\(inspect.stderr)")
        }
    }

    @Test func aStalledHostGetsTheCallbacksItMissed() async throws {
        try await RuntimeFixture.with(topology: Self.topology, settings: Self.settings) { runtime in
            let pid = try String(contentsOfFile: runtime.runDirectory + "/host-h1.pid", encoding: .utf8)
                .trimmingCharacters(in: .whitespacesAndNewlines)
            #expect(try await runtime.run("/bin/kill", ["-STOP", pid]).status == 0)
            #expect(try await Self.waitFor(false, host: "h1", in: runtime))
            let embed = try await runtime.containment(
                "ctl",
                "embed",
                "box",
                "late",
                "--frame",
                "0,0,100,100",
                "--quiet"
            )
            #expect(embed.status == 0, "\(embed.stderr)")
            #expect(try await runtime.run("/bin/kill", ["-CONT", pid]).status == 0)
            #expect(try await Self.waitFor(true, host: "h1", in: runtime))
            let callbacks = try await runtime.callbacks(of: "late") { $0.last == "didMoveToParent(late) parent=box" }
            #expect(
                callbacks == [
                    "willMoveToParent(late) parent=box", "loadView(late)", "viewDidLoad(late)",
                    "viewWillLayoutSubviews(late)",
                    "viewDidLayoutSubviews(late)", "viewWillAppear(late) movingToParent",
                    "viewDidAppear(late) movingToParent",
                    "didMoveToParent(late) parent=box",
                ]
            )
        }
    }

    /// A supervisor that crashes leaves its hosts running (one stopped cleanly stops them, LifecycleCommandTests):
    /// they register again with the next one.
    @Test func hostsRegisterAgainWithANewSupervisorAfterACrash() async throws {
        let supervisor = try await RuntimeFixture.with(topology: Self.topology, settings: Self.settings) { runtime in
            let pidFile = runtime.runDirectory + "/supervisor.pid"
            let pid = try String(contentsOfFile: pidFile, encoding: .utf8)
                .trimmingCharacters(in: .whitespacesAndNewlines)
            let hosts = ["h0", "h1"].compactMap {
                try? String(contentsOfFile: runtime.runDirectory + "/host-\($0).pid", encoding: .utf8)
            }
            #expect(hosts.count == 2)
            #expect(try await runtime.run("/bin/kill", ["-KILL", pid]).status == 0)
            #expect(try await Poll.until { kill(Int32(pid) ?? 0, 0) != 0 })
            let supervisor = Task {
                try await runtime.containment("supervisor", "--pid-file", pidFile)
            }
            let wait = try await runtime.containment("wait", "--hosts", "h0,h1", "--timeout", "15")
            #expect(wait.status == 0, "\(wait.stderr)")
            // The same host processes: neither stopped nor started again.
            let again = ["h0", "h1"].compactMap {
                try? String(contentsOfFile: runtime.runDirectory + "/host-\($0).pid", encoding: .utf8)
            }
            #expect(again == hosts)
            return supervisor
        }
        // The new supervisor, stopped by down.sh with the rest, ends cleanly.
        #expect(try await supervisor.value.status == 0)
    }
}
