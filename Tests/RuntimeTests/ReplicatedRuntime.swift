import Foundation
import Subprocess
import Testing

@testable import ContainmentConfig
@testable import ContainmentRuntime

/// A replicated runtime for one test: an etcd cluster of three members (``EtcdFixture``), supervisors `a` and `b` of
/// one topology journaling to it, each a `containment-etcd supervisor --name` process, and a host; driven through the
/// built `containment-etcd`, each client through one supervisor's endpoint. Everything it started is stopped when the test ends, however
/// it ends.
final class ReplicatedRuntime {
    let cluster: EtcdFixture
    let runDirectory: String
    let names = ["a", "b"]
    /// More runtime.yaml, in each supervisor's config.
    let settings: String
    /// The leader's lease (`etcd.leaseSeconds`).
    let leaseSeconds: Int
    private(set) var daemons: [String: Process] = [:]

    init(cluster: EtcdFixture, settings: String = "", leaseSeconds: Int = 3) throws {
        self.cluster = cluster
        self.settings = settings
        self.leaseSeconds = leaseSeconds
        // Short: ipc paths are limited to ~100 bytes.
        runDirectory = "/tmp/containment-test-rep-\(UUID().uuidString.prefix(6))"
        try FileManager.default.createDirectory(atPath: runDirectory, withIntermediateDirectories: true)
        for name in names {
            try config(reaching: name).write(toFile: configPath(name), atomically: true, encoding: .utf8)
            try config(reaching: name, alone: true)
                .write(toFile: configPath(name + "-alone"), atomically: true, encoding: .utf8)
        }
    }

    /// runtime.yaml whose clients reach supervisor `first` (it is listed first); `alone`: only it is listed, so a
    /// client of it does not fail over.
    func config(reaching first: String, alone: Bool = false) -> String {
        let order = [first] + (alone ? [] : names.filter { $0 != first })
        return cluster.settings(prefix: keys.root, leaseSeconds: leaseSeconds)
            + settings + "acceptUnknownHosts: true\nsupervisors:\n"
            + order.map {
                "  - {name: \($0), command: \"ipc://\(runDirectory)/\($0)-command.sock\", "
                    + "events: \"ipc://\(runDirectory)/\($0)-events.sock\"}\n"
            }.joined()
    }

    func configPath(_ name: String) -> String { "\(runDirectory)/runtime-\(name).yaml" }
    func pidFile(_ name: String) -> String { "\(runDirectory)/\(name).pid" }

    /// Starts a daemon (`supervisor --name NAME`, or `host --name NAME`), its output to `NAME.log`.
    func start(_ role: String, _ name: String) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: RuntimeFixture.etcdBinary)
        process.arguments = [role, "--name", name, "--pid-file", pidFile(name)]
        process.environment = ProcessInfo.processInfo.environment.merging(
            ["CONTAINMENT_RUN_DIR": runDirectory, "CONTAINMENT_CONFIG": configPath(names[0])],
            uniquingKeysWith: { _, new in new }
        )
        let log = "\(runDirectory)/\(name).log"
        _ = FileManager.default.createFile(atPath: log, contents: nil)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: log))
        handle.seekToEndOfFile()
        process.standardOutput = handle
        process.standardError = handle
        try process.run()
        daemons[name] = process
        return process
    }

    /// Starts supervisor `name` and waits for its pid file (it stands by, or leads).
    func startSupervisor(_ name: String) async throws {
        let process = try start("supervisor", name)
        let ready = try await Poll.until(within: .seconds(30)) {
            (try? String(contentsOfFile: pidFile(name), encoding: .utf8))?.trimmingCharacters(
                in: .whitespacesAndNewlines
            )
                == String(process.processIdentifier) || !process.isRunning
        }
        guard ready, process.isRunning else { throw FixtureError("supervisor \(name) did not start:\n\(log(name))") }
    }

    func log(_ name: String) -> String {
        (try? String(contentsOfFile: "\(runDirectory)/\(name).log", encoding: .utf8)) ?? ""
    }

    /// `containment ARGUMENTS` as a client of supervisor `via` (failing over to the other), or of `via-alone` (only).
    func containment(via name: String, _ arguments: String...) async throws -> RuntimeFixture.Output {
        try await RuntimeFixture.run(
            RuntimeFixture.etcdBinary,
            arguments,
            environment: ["CONTAINMENT_RUN_DIR": runDirectory, "CONTAINMENT_CONFIG": configPath(name)]
        )
    }

    /// Supervisor a leading, b standing by, and host `main` registered with a.
    func startLeaderStandbyAndHost() async throws {
        try await startSupervisor("a")
        #expect(try await Poll.until { self.leads("a") }, "a did not lead:\n\(log("a"))")
        try await startSupervisor("b")
        _ = try start("host", "main")
        #expect(try await containment(via: "a", "wait", "--hosts", "main", "--timeout", "20").status == 0)
    }

    /// Which supervisor leads, from its log's last word ("supervisor leads" after "no longer leads").
    func leads(_ name: String) -> Bool {
        let text = log(name)
        guard let leads = text.range(of: "supervisor leads", options: .backwards) else { return false }
        guard let lost = text.range(of: "no longer leads", options: .backwards) else { return true }
        return leads.lowerBound > lost.lowerBound
    }

    func kill(_ name: String, _ signal: Int32) {
        if let process = daemons[name], process.isRunning { Foundation.kill(process.processIdentifier, signal) }
    }

    /// Every daemon stopped (SIGTERM, then SIGKILL after 5 s), the run directory removed.
    func stop() {
        for process in daemons.values where process.isRunning { process.terminate() }
        let deadline = ContinuousClock.now + .seconds(5)
        for process in daemons.values {
            while process.isRunning, ContinuousClock.now < deadline { usleep(20_000) }
            if process.isRunning { Foundation.kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
        }
    }

    /// The keys of this runtime in etcd.
    var keys: EtcdKeys { EtcdKeys(prefix: "/containment/\(runDirectory.suffix(6))") }

    /// A replicated runtime (`settings`: more runtime.yaml) for the length of `body`, with its etcd cluster.
    static func with<Result>(
        settings: String = "",
        leaseSeconds: Int = 3,
        _ body: (ReplicatedRuntime) async throws -> Result
    ) async throws -> Result {
        try await EtcdFixture.with { cluster in
            let runtime = try ReplicatedRuntime(cluster: cluster, settings: settings, leaseSeconds: leaseSeconds)
            defer {
                runtime.stop()
                try? FileManager.default.removeItem(atPath: runtime.runDirectory)
            }
            return try await body(runtime)
        }
    }
}
