import Foundation
import Subprocess
import SystemPackage
import Testing

/// `containment up` and `containment down` from a directory outside the checkout (issue 44): the topology read where
/// it is, the daemons this executable, and a clean stop in which the supervisor stops the hosts it started.
@Suite(.serialized) struct LifecycleCommandTests {
    /// A scratch working directory, a topology elsewhere, and a run directory: made for `body`, removed after, with
    /// `containment down` run however it ends.
    static func withScratch(
        _ body: (_ run: (String...) async throws -> RuntimeFixture.Output, _ topologies: String, _ runDirectory: String)
            async throws -> Void
    ) async throws {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent(
            "lifecycle-\(UUID().uuidString.prefix(8))"
        ).path
        let (scratch, topologies, runDirectory) = (base + "/scratch", base + "/app/Config", base + "/run")
        for directory in [scratch, topologies] {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        }
        let run: (String...) async throws -> RuntimeFixture.Output = { arguments in
            let result = try await Subprocess.run(
                .path(FilePath(RuntimeFixture.binary)),
                arguments: Arguments(arguments),
                environment: .inherit.updating(["CONTAINMENT_RUN_DIR": runDirectory, "CONTAINMENT_CONFIG": nil]),
                workingDirectory: FilePath(scratch),
                output: .string(limit: 1 << 20),
                error: .string(limit: 1 << 20)
            )
            let status: Int32 =
                switch result.terminationStatus {
                case .exited(let code): code
                case .signaled(let signal): 128 + signal
                }
            return RuntimeFixture.Output(status: status, stdout: result.standardOutput, stderr: result.standardError)
        }
        do {
            try await body(run, topologies, runDirectory)
        } catch {
            _ = try? await run("down")
            try? FileManager.default.removeItem(atPath: base)
            throw error
        }
        _ = try? await run("down")
        try? FileManager.default.removeItem(atPath: base)
    }

    /// A box on h0 and a leaf embedded in it on h1.
    static let twoHosts = """
        window: {name: main, width: 800, height: 600, root: box}
        hosts: [h0, h1]
        controllers:
          - {id: box, kind: content, host: h0}
          - {id: leaf, kind: content, host: h1, parent: box, embed: true}
        """

    static func pid(_ file: String) -> Int32? {
        (try? String(contentsOfFile: file, encoding: .utf8)).flatMap {
            Int32($0.trimmingCharacters(in: .whitespacesAndNewlines))
        }
    }

    @Test func upStatusAndDownFromAnyDirectoryLeaveNothingBehind() async throws {
        try await Self.withScratch { run, topologies, runDirectory in
            let topology = topologies + "/two.yaml"
            try Self.twoHosts.write(toFile: topology, atomically: true, encoding: .utf8)
            let up = try await run("up", topology)
            #expect(up.status == 0, "\(up)")
            #expect(up.stdout == "up: supervisor and 2 hosts (h0 h1) in \(runDirectory)\n")
            let status = try await run("status")
            #expect(status.status == 0, "\(status)")
            let again = try await run("up", topology)
            #expect(again.status == 1)
            #expect(again.stderr.hasPrefix("up: a supervisor already runs in \(runDirectory)"))
            let pids = ["supervisor", "host-h0", "host-h1"].compactMap { Self.pid("\(runDirectory)/\($0).pid") }
            #expect(pids.count == 3)

            let down = try await run("down")
            #expect(down.status == 0, "\(down)")
            #expect(
                down.stdout
                    == "down: stopped supervisor (pid \(pids[0])), the hosts it stopped (h0, h1); nothing left in "
                    + "\(runDirectory) but logs, the journal and the lock file\n"
            )
            for pid in pids { #expect(!Self.running(pid), "pid \(pid) still runs") }
            let left = try FileManager.default.contentsOfDirectory(atPath: runDirectory)
                .filter { $0.hasSuffix(".pid") || $0.hasSuffix(".sock") }
            #expect(left.isEmpty, "\(left)")
            let log = try String(contentsOfFile: runDirectory + "/logs/supervisor.log", encoding: .utf8)
            #expect(log.contains("host.names=h0, h1 [ContainmentRuntime] supervisor stopped its hosts"))
            #expect(try await run("down").stdout == "down: nothing runs in \(runDirectory)\n")
        }
    }

    /// `containment run`: the runtime in the foreground — the tree, then every event, printed as they come — and
    /// Ctrl-C (SIGINT) stops every daemon it started, leaving no process, socket or pid file; exit 0.
    @Test func runPrintsTheTreeAndTheEventsAndCtrlCStopsEverything() async throws {
        try await Self.withScratch { run, topologies, runDirectory in
            let topology = topologies + "/two.yaml"
            try Self.twoHosts.write(toFile: topology, atomically: true, encoding: .utf8)
            let output = runDirectory + "-run.out"
            #expect(FileManager.default.createFile(atPath: output, contents: nil))
            defer { try? FileManager.default.removeItem(atPath: output) }
            let foreground = Process()
            foreground.executableURL = URL(fileURLWithPath: RuntimeFixture.binary)
            foreground.arguments = ["run", topology]
            foreground.currentDirectoryURL = URL(fileURLWithPath: topologies)
            var environment = ProcessInfo.processInfo.environment
            environment["CONTAINMENT_RUN_DIR"] = runDirectory
            environment["CONTAINMENT_CONFIG"] = nil
            foreground.environment = environment
            foreground.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: output))
            try foreground.run()
            defer { if foreground.isRunning { kill(foreground.processIdentifier, SIGKILL) } }
            func printed() -> String { (try? String(contentsOfFile: output, encoding: .utf8)) ?? "" }

            // Up: the tree (watch --from-start's state), then the events after it.
            let up = try await Poll.until(within: .seconds(120)) { printed().contains("leaf  content  host=h1") }
            #expect(up, "\(printed())")
            #expect(printed().hasPrefix("run: supervisor and 2 hosts (h0 h1) in \(runDirectory); Ctrl-C stops them"))
            let create = try await run("ctl", "create", "late", "--kind", "content", "--host", "h1", "--quiet")
            #expect(create.status == 0, "\(create)")
            #expect(try await Poll.until { printed().contains("controllerCreated(late) kind=content host=h1") })
            let pids = ["supervisor", "host-h0", "host-h1"].compactMap { Self.pid("\(runDirectory)/\($0).pid") }
            #expect(pids.count == 3)

            foreground.interrupt()
            #expect(try await Poll.until(within: .seconds(60)) { !foreground.isRunning }, "run did not stop")
            #expect(foreground.terminationStatus == 0, "\(printed())")
            #expect(printed().contains("run: interrupted; stopping\ndown: stopped supervisor (pid \(pids[0]))"))
            for pid in pids { #expect(!Self.running(pid), "pid \(pid) still runs") }
            let left = try FileManager.default.contentsOfDirectory(atPath: runDirectory)
                .filter { $0.hasSuffix(".pid") || $0.hasSuffix(".sock") }
            #expect(left.isEmpty, "\(left)")
        }
    }

    /// A host whose restart policy gave up on it: `up` says so with the supervisor's words and exits 1, and the
    /// supervisor serves on (refusing that host's controllers) until `down`.
    @Test func aHostThatCannotStartFailsUpWithItsReasonAndTheSupervisorServesOn() async throws {
        try await Self.withScratch { run, topologies, runDirectory in
            let topology = topologies + "/broken.yaml"
            try """
            window: {name: main, width: 1, height: 1, root: a}
            hosts: [{name: h, command: [./missing-host]}]
            controllers: [{id: a, host: h}]
            """.write(toFile: topology, atomically: true, encoding: .utf8)
            let up = try await run("up", topology)
            #expect(up.status == 1)
            #expect(up.stderr.hasPrefix("up: a host failed at start and was given up on (its restart policy):\n"))
            // The command is relative to the topology's file, not to the working directory.
            #expect(up.stderr.contains("host.command=\(topologies)/missing-host"), "\(up.stderr)")
            let supervisor = try #require(Self.pid(runDirectory + "/supervisor.pid"))
            #expect(Self.running(supervisor))
            let refused = try await run("ctl", "set-alpha", "a", "0.5")
            #expect(refused.status != 0 && refused.stderr.contains("has failed"), "\(refused.stderr)")
            let down = try await run("down")
            #expect(down.status == 0 && down.stdout.hasPrefix("down: stopped supervisor (pid \(supervisor))"))
            let left = try FileManager.default.contentsOfDirectory(atPath: runDirectory)
                .filter { $0.hasSuffix(".pid") || $0.hasSuffix(".sock") }
            #expect(left.isEmpty, "\(left)")
        }
    }

    /// Whether a process runs: it exists and is not a zombie waiting to be reaped.
    static func running(_ pid: Int32) -> Bool {
        guard kill(pid, 0) == 0, let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let end = stat.lastIndex(of: ")")
        else { return false }
        return !stat[stat.index(after: end)...].hasPrefix(" Z")
    }

    /// A replicated runtime (`journal: etcd`, two supervisors, endpoints on this machine): `up` starts its etcd
    /// members and both supervisors (containment-etcd, found beside `containment`); `down` stops the standby before
    /// the leader — had the leader gone first, the standby would have taken over and logged that it leads — then
    /// the members, leaving their data and no process, socket or pid file.
    @Test func aReplicatedRuntimeIsUpWithItsEtcdAndDownStandbyFirst() async throws {
        try await Self.withScratch { run, topologies, runDirectory in
            var ports: [Int] = []
            for _ in 0..<3 { ports.append(try await MetricsTests.freePort(pair: true)) }
            let config = topologies + "/runtime.yaml"
            try """
            journal: etcd
            etcd:
              endpoints: [\(ports.map { "http://127.0.0.1:\($0)" }.joined(separator: ", "))]
              prefix: /containment/lifecycle
              leaseSeconds: 3
            supervisors:
              - {name: a, command: "ipc://{run}/a-command.sock", events: "ipc://{run}/a-events.sock"}
              - {name: b, command: "ipc://{run}/b-command.sock", events: "ipc://{run}/b-events.sock"}
            """.write(toFile: config, atomically: true, encoding: .utf8)
            let topology = topologies + "/two.yaml"
            try Self.twoHosts.write(toFile: topology, atomically: true, encoding: .utf8)
            let up = try await run("up", "--config", config, topology)
            #expect(up.status == 0, "\(up)")
            #expect(
                up.stdout
                    == "up: supervisors a b (journal: etcd, 3 local members) and 2 hosts (h0 h1) in \(runDirectory)\n"
            )
            let members = (1...3).compactMap { Self.pid("\(runDirectory)/etcd/member\($0).pid") }
            #expect(members.count == 3 && members.allSatisfy(Self.running))
            let tree = try await run("tree", "--config", config)
            #expect(tree.status == 0 && tree.stdout.contains("leaf"), "\(tree)")
            let logs = ["a", "b"].map { runDirectory + "/logs/supervisor-\($0).log" }
            let leading = logs.map {
                ((try? String(contentsOfFile: $0, encoding: .utf8)) ?? "").contains("supervisor leads")
            }
            #expect(leading.filter { $0 }.count == 1, "\(leading)")
            let (leader, standby) = leading[0] ? ("a", "b") : ("b", "a")
            let pids = [leader, standby].compactMap { Self.pid("\(runDirectory)/supervisor-\($0).pid") }
            #expect(pids.count == 2)

            let down = try await run("down")
            #expect(down.status == 0, "\(down)")
            #expect(
                down.stdout.hasPrefix(
                    "down: stopped supervisor \(standby) (pid \(pids[1])), supervisor \(leader) (pid \(pids[0])), "
                ),
                "\(down.stdout)"
            )
            #expect(down.stdout.contains("etcd (3 local members; their data stays)"), "\(down.stdout)")
            let standbyLog = try String(contentsOfFile: logs[leader == "a" ? 1 : 0], encoding: .utf8)
            #expect(!standbyLog.contains("supervisor leads"), "\(standbyLog)")
            for pid in members + pids { #expect(!Self.running(pid), "pid \(pid) still runs") }
            let left = try FileManager.default.contentsOfDirectory(atPath: runDirectory)
                .filter { $0.hasSuffix(".pid") || $0.hasSuffix(".sock") }
            #expect(left.isEmpty, "\(left)")
            #expect(FileManager.default.fileExists(atPath: runDirectory + "/etcd/member1.data/member"))
        }
    }
}
