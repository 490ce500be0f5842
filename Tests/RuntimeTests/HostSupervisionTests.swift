import ContainmentBus
import ContainmentModel
import Foundation
import Testing

@testable import ContainmentConfig
@testable import ContainmentRuntime

/// Erlang/OTP's restart types and intensity, as the supervisor applies them to the hosts it starts.
@Suite struct RestartPolicyTests {
    static let killed = HostExit(status: nil, signal: 9)
    static let clean = HostExit(status: 0, signal: nil)

    @Test func permanentRestartsUntilTheIntensityIsPassedWithinTheWindow() {
        var policy = RestartPolicy(mode: .permanent, maxRestarts: 2, window: .seconds(10))
        let start = ContinuousClock.now
        #expect(policy.decide(Self.clean, at: start) == .restart)
        #expect(policy.decide(Self.killed, at: start + .seconds(1)) == .restart)
        guard case .giveUp(let reason) = policy.decide(Self.killed, at: start + .seconds(2)) else {
            Issue.record("a third end within 10 s is not given up on")
            return
        }
        #expect(reason == "killed by signal 9 (SIGKILL); restarted 2 times within 10.0 seconds, the most allowed")
        // Outside the window, the old restarts no longer count.
        var later = RestartPolicy(mode: .permanent, maxRestarts: 2, window: .seconds(10))
        #expect(later.decide(Self.killed, at: start) == .restart)
        #expect(later.decide(Self.killed, at: start + .seconds(1)) == .restart)
        #expect(later.decide(Self.killed, at: start + .seconds(12)) == .restart)
    }

    @Test func transientRestartsOnlyAnAbnormalEndAndTemporaryNever() {
        var transient = RestartPolicy(mode: .transient, maxRestarts: 5, window: .seconds(10))
        #expect(transient.decide(Self.clean, at: .now) == .leave)
        #expect(transient.decide(HostExit(status: 3, signal: nil), at: .now) == .restart)
        #expect(transient.decide(Self.killed, at: .now) == .restart)
        var temporary = RestartPolicy(mode: .temporary, maxRestarts: 5, window: .seconds(10))
        #expect(temporary.decide(Self.killed, at: .now) == .leave)
        var never = RestartPolicy(mode: .permanent, maxRestarts: 0, window: .seconds(10))
        #expect(never.decide(Self.killed, at: .now) != .restart)
    }
}

/// The hosts `scripts/up.sh` starts are the supervisor's children: killed, they come back without an operator.
@Suite(.serialized) struct HostSupervisionTests {
    static let topology = """
        window: {name: main, width: 800, height: 600, root: box}
        controllers:
          - {id: box, kind: content, host: h0}
          - {id: late, kind: content, host: h1, parent: box}
        """

    static func hostPID(_ host: String, in runtime: RuntimeFixture) -> Int32? {
        (try? String(contentsOfFile: runtime.runDirectory + "/host-\(host).pid", encoding: .utf8))
            .flatMap { Int32($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
    }

    static func hostState(_ host: String, in runtime: RuntimeFixture) async throws -> (pid: Int, up: Bool)? {
        let hosts = try await runtime.treeJSON()["hosts"] as? [[String: Any]] ?? []
        guard let entry = hosts.first(where: { $0["name"] as? String == host }) else { return nil }
        return ((entry["pid"] as? Int) ?? 0, (entry["up"] as? Bool) ?? false)
    }

    /// `host`'s state once a process other than `old` runs it and is up (polled for at most 30 s).
    static func restarted(
        _ host: String,
        replacing old: Int32,
        in runtime: RuntimeFixture
    ) async throws -> (
        pid: Int, up: Bool
    )? {
        var state: (pid: Int, up: Bool)?
        try await Poll.until {
            state = try await hostState(host, in: runtime)
            return state.map { $0.up && $0.pid != Int(old) } ?? false
        }
        return state
    }

    @Test func aKilledHostIsStartedAgainAndItsControllersAnswer() async throws {
        try await RuntimeFixture.with(topology: Self.topology) { runtime in
            // The two host events the kill causes, however long they take under load (60 s: the bound if they never come).
            let watch = try await runtime.startWatch([
                "--json", "--topic", "runtime/hostDown", "--topic", "runtime/hostRestarted", "--count", "2",
                "--idle-timeout", "60",
            ])
            let old = try #require(Self.hostPID("h1", in: runtime))
            kill(old, SIGKILL)
            let state = try await Self.restarted("h1", replacing: old, in: runtime)
            #expect(
                state?.up == true && state?.pid != Int(old),
                "h1 was not started again: \(String(describing: state))"
            )
            // Its actor begins from the controller's state (the new process's restored actor), with no stale callback,
            // then gets the callbacks after it.
            let inspect = try await runtime.containment("inspect", "late")
            #expect(inspect.status == 0, "\(inspect.stderr)")
            #expect(inspect.stdout.contains("host process 2, restored from the state at seq"), "\(inspect.stdout)")
            #expect(inspect.eventDescriptions.isEmpty, "\(inspect.stdout)")
            #expect(try await runtime.containment("ctl", "set-frame", "late", "0,0,50,50", "--quiet").status == 0)
            let after = try await runtime.callbacks(of: "late") { $0.count >= 4 }
            // (Its view was not loaded: the frame loads it first.)
            #expect(
                after == [
                    "loadView(late)", "viewDidLoad(late)", "viewWillLayoutSubviews(late)",
                    "viewDidLayoutSubviews(late)",
                ],
                "\(after)"
            )
            let events = try await watch.value.stdout
            #expect(events.contains("\"reason\":\"killed by signal 9 (SIGKILL)\""), "\(events)")
            #expect(events.contains("\"event\":\"hostRestarted\""), "\(events)")
        }
    }

    @Test func aHostThatKeepsDyingIsGivenUpOnAndItsControllersAreRefusedAtOnce() async throws {
        try await RuntimeFixture.with(
            downReports: "removed its stale pid file",
            topology: Self.topology,
            settings: "maxRestarts: 1\nrestartWindowMs: 60000\n"
        ) { runtime in
            for round in 0..<2 {
                let pid = try #require(Self.hostPID("h1", in: runtime))
                kill(pid, SIGKILL)
                if round == 0 { _ = try await Self.restarted("h1", replacing: pid, in: runtime) }
            }
            var refused = try await runtime.containment("ctl", "set-alpha", "late", "0.5")
            try await Poll.until {
                refused = try await runtime.containment("ctl", "set-alpha", "late", "0.5")
                return refused.stderr.contains("has failed")
            }
            #expect(refused.status != 0)
            #expect(
                refused.stderr.contains("hostUnavailable") && refused.stderr.contains("has failed"),
                "\(refused.stderr)"
            )
            #expect(try await Self.hostState("h1", in: runtime)?.up == false)
            // Its neighbour on the other host still takes commands.
            #expect(try await runtime.containment("ctl", "set-alpha", "box", "0.5").status == 0)
            let log = runtime.logs()
            #expect(log.contains("restarted 1 times within 60.0 seconds"), "\(log)")
        }
    }

    /// A host that dies at every start (it cannot write its pid file: a directory is in the way) is started again
    /// `maxRestarts` times, then given up on: `hostFailed`, and its controllers refused at once.
    @Test func aHostThatDiesAtStartIsGivenUpOnWithHostFailed() async throws {
        // h1 cannot write its pid file: a directory is in the way.
        let blockPidFile: (String) throws -> Void = { run in
            try FileManager.default.createDirectory(atPath: run + "/host-h1.pid", withIntermediateDirectories: true)
        }
        try await RuntimeFixture.with(
            downReports: "left behind, now removed",
            topology: Self.topology,
            settings: "maxRestarts: 2\nrestartWindowMs: 60000\n",
            requireUp: false,
            prepare: blockPidFile
        ) { runtime in
            // up.sh says so at once, and leaves the supervisor serving the rest.
            #expect(runtime.up.status == 1)
            #expect(
                runtime.up.stderr.contains("given up on") && runtime.up.stderr.contains("host.name=h1"),
                "\(runtime.up.stderr)"
            )
            var log = ""
            try await Poll.until {
                log =
                    (try? String(contentsOfFile: runtime.runDirectory + "/logs/supervisor.log", encoding: .utf8)) ?? ""
                return log.contains("host failed")
            }
            #expect(log.contains("host failed"), "\(runtime.logs())")
            #expect(log.contains("restarted 2 times within 60.0 seconds"), "\(log)")
            #expect(log.components(separatedBy: "host started").count - 1 == 4, "h0 once, h1 three times: \(log)")
            let refused = try await runtime.containment("ctl", "set-alpha", "late", "0.5")
            #expect(refused.status != 0 && refused.stderr.contains("has failed"), "\(refused.stderr)")
            #expect(try await runtime.containment("ctl", "set-alpha", "box", "0.5").status == 0)
        }
    }

    /// A host stalled (SIGSTOP) while more callbacks come due than the supervisor keeps for it
    /// (`pendingDeliveries`): they are dropped, and when it resumes, the same process's actor is restored from its
    /// controller's state — then gets only the callbacks after it.
    @Test func aHostThatMissedMoreThanIsKeptIsRestoredWhenItReturns() async throws {
        try await RuntimeFixture.with(
            topology: Self.topology,
            settings: "pendingDeliveries: 2\nheartbeatIntervalMs: 100\nheartbeatTimeoutMs: 500\n"
        ) { runtime in
            let pid = try #require(Self.hostPID("h1", in: runtime))
            kill(pid, SIGSTOP)
            var resumed = false
            defer { if !resumed { kill(pid, SIGCONT) } }
            #expect(try await Poll.until { try await Self.hostState("h1", in: runtime)?.up == false })
            // Four callbacks (the frame loads the view, then lays it out) for a host that may be kept two.
            #expect(try await runtime.containment("ctl", "set-frame", "late", "0,0,50,50", "--quiet").status == 0)
            kill(pid, SIGCONT)
            resumed = true
            var inspect = try await runtime.containment("inspect", "late")
            try await Poll.until {
                inspect = try await runtime.containment("inspect", "late")
                return inspect.stdout.contains("restored")
            }
            #expect(inspect.stdout.contains("host process 1, restored from the state at seq"), "\(inspect.stdout)")
            #expect(inspect.eventDescriptions.isEmpty, "the dropped callbacks are not handled: \(inspect.stdout)")
            #expect(Self.hostPID("h1", in: runtime) == pid, "the same process")
            #expect(try await runtime.containment("ctl", "set-frame", "late", "0,0,60,60", "--quiet").status == 0)
            let after = try await runtime.callbacks(of: "late") { $0.count >= 2 }
            #expect(after == ["viewWillLayoutSubviews(late)", "viewDidLayoutSubviews(late)"], "\(after)")
            #expect(
                runtime.logs().contains("more callbacks are due to a host that is away or slow"),
                "\(runtime.logs())"
            )
        }
    }

    /// The topology's own settings for a host: a `temporary` host is not started again (runtime.yaml says
    /// `permanent`), a `remote` one is never started by the supervisor — it registers when it is started elsewhere.
    @Test func aHostsTopologyEntrySetsItsRestartPolicyOrMarksItRemote() async throws {
        // h1, killed and left down, leaves its pid file: down.sh removes it and says so.
        let remote = try await RuntimeFixture.with(
            downReports: "removed its stale pid file",
            topology: """
                hosts: [h0, {name: h1, restart: temporary}, {name: far, remote: true}]
                controllers:
                  - {id: box, kind: content, host: h0}
                  - {id: late, kind: content, host: h1}
                  - {id: away, kind: content, host: far}
                """
        ) { runtime in
            #expect(Self.hostPID("far", in: runtime) == nil, "a remote host is not started")
            #expect(try await Self.hostState("far", in: runtime)?.up == false)
            let refused = try await runtime.containment("inspect", "away")
            #expect(refused.status != 0 && refused.stderr.contains("hostUnavailable"), "\(refused.stderr)")
            // Started elsewhere (here, by hand), it registers and answers.
            let remote = Process()
            remote.executableURL = URL(fileURLWithPath: RuntimeFixture.binary)
            remote.arguments = ["host", "--name", "far", "--pid-file", runtime.runDirectory + "/host-far.pid"]
            remote.environment = ProcessInfo.processInfo.environment.merging(
                ["CONTAINMENT_RUN_DIR": runtime.runDirectory],
                uniquingKeysWith: { _, new in new }
            )
            try remote.run()
            #expect(try await runtime.containment("wait", "--hosts", "far", "--timeout", "20").status == 0)
            #expect(try await runtime.containment("inspect", "away").status == 0)

            // h1 is temporary: killed, it stays down; h0 (permanent, runtime.yaml's default) comes back.
            let h1 = try #require(Self.hostPID("h1", in: runtime))
            let h0 = try #require(Self.hostPID("h0", in: runtime))
            kill(h1, SIGKILL)
            kill(h0, SIGKILL)
            let state = try await Self.restarted("h0", replacing: h0, in: runtime)
            #expect(
                state?.up == true && state?.pid != Int(h0),
                "h0 was not started again: \(String(describing: state))"
            )
            #expect(try await Self.hostState("h1", in: runtime)?.up == false)
            let log = runtime.logs()
            #expect(log.components(separatedBy: "host started").count - 1 == 3, "h0 twice, h1 once: \(log)")
            #expect(log.contains("host.name=h1") && log.contains("restart.decision=leave"), "\(log)")
            return remote
        }
        // The remote host, stopped by down.sh with the rest, is gone.
        remote.waitUntilExit()
    }

    /// Back-pressure, end to end: 20,000 commands for a controller whose code takes 2 s a callback (its mailbox holds
    /// one). Its host stops reading, its connection fills, and the supervisor keeps its deliveries waiting — then,
    /// past `pendingDeliveries`, drops them to restore it later — instead of buffering without bound. Every command
    /// is still answered, the neighbour host still works, and the slow host still stops at once.
    @Test func aSlowHostIsBackloggedNotBufferedWithoutBound() async throws {
        // However slow its host, down.sh stops everything without killing anything (status 0, at the end of `with`).
        try await RuntimeFixture.with(
            topology: """
                controllers:
                  - {id: s, kind: slow, host: h1}
                  - {id: f, kind: content, host: h0}
                """,
            settings: "mailboxCapacity: 1\npendingDeliveries: 1000\n"
        ) { runtime in
            let (context, dealer) = try runtime.rawDealer()
            let total = 20_000
            var answered = 0
            var accepted = 0
            func receive() throws {
                guard let reply = try dealer.receiveServerMessage() else { throw FixtureError("no reply in 5 s") }
                answered += 1
                if case .accepted = reply.body { accepted += 1 }
            }
            for index in 0..<total {
                while index - answered >= 500 { try receive() }
                let command = WireCommand(
                    Request(
                        .setFrame(.root("s"), Rect(x: 0, y: 0, width: 100 + Double(index % 2), height: 100)),
                        by: .natural
                    )
                )
                try dealer.send(
                    ClientMessage.with {
                        $0.requestID = UInt64(index + 1)
                        $0.commands = .with { $0.commands = [command] }
                    }.bytes
                )
            }
            while answered < total { try receive() }
            dealer.close()
            context.terminate()
            #expect(accepted == total)
            let log = runtime.logs()
            #expect(
                log.contains("host.backlog_count=1 host.name=h1") && log.contains("slower than they come: they wait"),
                "\(log)"
            )
            #expect(log.contains("more callbacks are due to a host that is away or slow"), "\(log)")
            #expect(try await Self.hostState("h1", in: runtime)?.up == true, "a slow host is not down")
            #expect(try await runtime.containment("ctl", "set-alpha", "f", "0.5", "--quiet").status == 0)
            #expect(try await runtime.containment("inspect", "f").status == 0)
        }
    }
}
