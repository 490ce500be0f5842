@testable import ContainmentBus
import ContainmentModel
import ContainmentConfig
import ContainmentRuntime
import Foundation
import Subprocess
import Synchronization
import SystemPackage
import Testing
import ZeroMQ

/// A real runtime for one test: the supervisor and hosts started by `scripts/up.sh` in a fresh run directory, driven
/// through the built `containment` binary, stopped by `scripts/down.sh`.
final class RuntimeFixture: Sendable {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The `containment` binary beside the test bundle (or `CONTAINMENT_BIN`).
    static let binary: String = {
        if let path = ProcessInfo.processInfo.environment["CONTAINMENT_BIN"] { return path }
        let bundle = Bundle.main.bundleURL.deletingLastPathComponent()
        let candidates = [bundle, URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()]
        for directory in candidates {
            let path = directory.appendingPathComponent("containment").path
            if FileManager.default.isExecutableFile(atPath: path) { return path }
        }
        return repository.appendingPathComponent(".build/debug/containment").path
    }()

    /// `containment-etcd` (the same commands with etcd's client: a runtime with `journal: etcd`) beside `containment`
    /// (or `CONTAINMENT_ETCD_BIN`).
    static let etcdBinary: String =
        ProcessInfo.processInfo.environment["CONTAINMENT_ETCD_BIN"]
        ?? URL(fileURLWithPath: binary).deletingLastPathComponent().appendingPathComponent("containment-etcd").path

    /// `containment-web` (the inspector, the metrics over HTTP) beside `containment` (or `CONTAINMENT_WEB_BIN`).
    static let webBinary: String =
        ProcessInfo.processInfo.environment["CONTAINMENT_WEB_BIN"]
        ?? URL(fileURLWithPath: binary).deletingLastPathComponent().appendingPathComponent("containment-web").path

    let runDirectory: String
    let topologyPath: String
    let configPath: String?
    /// What `scripts/up.sh` printed and its status.
    let up: Output
    private let stopped = Mutex(false)

    /// Starts the runtime for a topology given as YAML text, with runtime settings given as YAML text.
    /// `prepare` runs on the run directory before `up.sh`; with `requireUp` false, `up.sh` may fail (a host that
    /// cannot start). Private: a test gets a runtime through ``with(downReports:keep:topology:settings:requireUp:prepare:_:)``,
    /// which stops it however the test ends.
    private init(
        topology: String,
        settings: String? = nil,
        requireUp: Bool = true,
        prepare: (String) throws -> Void = { _ in }
    ) async throws {
        runDirectory =
            FileManager.default.temporaryDirectory
            .appendingPathComponent("containment-test-\(UUID().uuidString.prefix(8))").path
        try FileManager.default.createDirectory(atPath: runDirectory, withIntermediateDirectories: true)
        topologyPath = runDirectory + "/topology.yaml"
        try topology.write(toFile: topologyPath, atomically: true, encoding: .utf8)
        let configFile = runDirectory + "/runtime.yaml"
        configPath = settings == nil ? nil : configFile
        if let settings { try settings.write(toFile: configFile, atomically: true, encoding: .utf8) }
        try prepare(runDirectory)
        up = try await Self.run(
            "/bin/bash",
            [Self.repository.appendingPathComponent("scripts/up.sh").path, topologyPath],
            environment: Self.environment(runDirectory, configPath)
        )
        guard up.status == 0 || !requireUp else {
            throw FixtureError("scripts/up.sh failed (\(up.status)): \(up.stderr)\n\(logs())")
        }
    }

    /// A runtime for the length of `body`: started as ``init(topology:settings:requireUp:prepare:)`` does, and stopped
    /// by scripts/down.sh when `body` ends, however it ends. down.sh must stop every daemon cleanly (status 0) — or,
    /// with `downReports`, a test that broke something on purpose (a host killed and left down leaves its pid file),
    /// clean up and say so: status 1, and that text on its standard error. `keep`: leave the run directory (its
    /// logs, written until the daemons stopped) for the test to read and remove after.
    static func with<Result>(
        downReports: String? = nil,
        keep: Bool = false,
        topology: String,
        settings: String? = nil,
        requireUp: Bool = true,
        prepare: (String) throws -> Void = { _ in },
        _ body: (RuntimeFixture) async throws -> Result
    ) async throws -> Result {
        let runtime = try await RuntimeFixture(
            topology: topology,
            settings: settings,
            requireUp: requireUp,
            prepare: prepare
        )
        let result: Result
        do {
            result = try await body(runtime)
        } catch {
            _ = try? await runtime.stop()
            throw error
        }
        let stopped = try await runtime.stop(keep: keep)
        if let downReports {
            #expect(stopped.status == 1 && stopped.stderr.contains(downReports), "scripts/down.sh: \(stopped.stderr)")
        } else {
            #expect(stopped.status == 0, "scripts/down.sh: \(stopped.stderr)")
        }
        return result
    }

    /// Stops the runtime with scripts/down.sh; call it at the end of every test. `keep`: leave the run directory (its
    /// logs) for the test to read and remove.
    func stop(keep: Bool = false) async throws -> Output {
        stopped.withLock { $0 = true }
        let output = try await script("down.sh", [])
        if !keep { try? FileManager.default.removeItem(atPath: runDirectory) }
        return output
    }

    deinit {
        if !stopped.withLock({ $0 }) {
            // A test that failed before its stop(): its daemons are stopped before it is over (down.sh bounds its own
            // wait: SIGTERM, then SIGKILL after 10 s), so the next test and the leftover check find none of them.
            Self.down(runDirectory)?.waitUntilExit()
        }
    }

    /// Starts `scripts/down.sh` on a run directory, from a context that cannot await (a deinit); the process returned
    /// is running, or `nil` when it could not start.
    static func down(_ runDirectory: String) -> Process? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = [repository.appendingPathComponent("scripts/down.sh").path]
        process.environment = [
            "CONTAINMENT_RUN_DIR": runDirectory, "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "",
        ]
        return (try? process.run()) == nil ? nil : process
    }

    struct Output: Sendable {
        var status: Int32
        var stdout: String
        var stderr: String
        var lines: [String] { stdout.split(separator: "\n").map(String.init) }
    }

    func script(_ name: String, _ arguments: [String]) async throws -> Output {
        try await run("/bin/bash", [Self.repository.appendingPathComponent("scripts/\(name)").path] + arguments)
    }

    /// Runs `containment ARGUMENTS` to completion.
    func containment(_ arguments: String..., input: String? = nil) async throws -> Output {
        try await run(Self.binary, arguments, input: input)
    }

    func run(_ executable: String, _ arguments: [String], input: String? = nil) async throws -> Output {
        try await Self.run(executable, arguments, environment: environment, input: input)
    }

    var environment: [Environment.Key: String?] { Self.environment(runDirectory, configPath) }

    /// The run directory and config every command of a runtime is given.
    static func environment(_ runDirectory: String, _ configPath: String?) -> [Environment.Key: String?] {
        ["CONTAINMENT_RUN_DIR": runDirectory, "CONTAINMENT_BIN": binary, "CONTAINMENT_CONFIG": configPath ?? ""]
    }

    /// Runs a program to completion in the repository, with `environment` over this process's.
    static func run(
        _ executable: String,
        _ arguments: [String],
        environment: [Environment.Key: String?] = [:],
        input: String? = nil
    ) async throws -> Output {
        let environment = Environment.inherit.updating(environment)
        let result = try await Subprocess.run(
            .path(FilePath(executable)),
            arguments: Arguments(arguments),
            environment: environment,
            workingDirectory: FilePath(Self.repository.path),
            input: .string(input ?? ""),
            output: .string(limit: 16 << 20),
            error: .string(limit: 16 << 20)
        )
        let status: Int32 =
            switch result.terminationStatus {
            case .exited(let code): code
            case .signaled(let signal): 128 + signal
            }
        return Output(status: status, stdout: result.standardOutput, stderr: result.standardError)
    }

    /// Starts `containment watch ARGUMENTS` and returns once it is subscribed (its ready file exists).
    func startWatch(_ arguments: [String]) async throws -> Task<Output, any Error> {
        let ready = runDirectory + "/watch-\(UUID().uuidString.prefix(8)).ready"
        let task = Task { try await run(Self.binary, ["watch", "--ready-file", ready] + arguments) }
        guard try await Poll.until({ FileManager.default.fileExists(atPath: ready) }) else {
            throw FixtureError("watch did not subscribe in 10 s")
        }
        return task
    }

    /// `watch ARGUMENTS` with its standard error (its notices) written to `stderrPath` as it runs, so that a test can
    /// wait for a notice rather than for the watch to end; `stop` ends it (SIGTERM to the pid its shell wrote before
    /// becoming it).
    func startWatch(
        _ arguments: [String],
        stderrTo stderrPath: String
    ) async throws -> (task: Task<Output, any Error>, stop: @Sendable () async throws -> Void) {
        let ready = runDirectory + "/watch-\(UUID().uuidString.prefix(8)).ready"
        let task = Task {
            try await run(
                "/bin/bash",
                [
                    "-c", "echo $$ > \"$1.pid\"; exec \"$0\" watch --ready-file \"$1\" \"${@:3}\" 2>\"$2\"",
                    Self.binary, ready, stderrPath,
                ] + arguments
            )
        }
        guard try await Poll.until({ FileManager.default.fileExists(atPath: ready) }) else {
            throw FixtureError("watch did not subscribe in 10 s")
        }
        let pid = try String(contentsOfFile: ready + ".pid", encoding: .utf8)
        // Read: gone, as down.sh counts a pid file left in the run directory as a stale one.
        try FileManager.default.removeItem(atPath: ready + ".pid")
        guard let pid = Int32(pid.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw FixtureError("watch's shell wrote no pid: \(pid)")
        }
        let stop: @Sendable () async throws -> Void = { kill(pid, SIGTERM) }
        return (task, stop)
    }

    /// The logs of the daemons, for failure messages.
    func logs() -> String {
        let directory = runDirectory + "/logs"
        let files = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        return files.sorted().map { name in
            "== \(name)\n" + ((try? String(contentsOfFile: directory + "/" + name, encoding: .utf8)) ?? "")
        }.joined(separator: "\n")
    }

    /// `tree --json` parsed.
    func treeJSON() async throws -> [String: Any] {
        let output = try await containment("tree", "--json")
        guard output.status == 0, let object = JSON.object(output.stdout) else {
            throw FixtureError("tree --json failed (\(output.status)): \(output.stderr)")
        }
        return object
    }
}

extension RuntimeFixture.Output {
    /// The event descriptions of `ctl` / `inspect` lines (`SEQ  DESCRIPTION`), without the sequence numbers.
    var eventDescriptions: [String] {
        lines.compactMap { line in
            let trimmed = line.drop { $0 == " " }
            guard let space = trimmed.firstIndex(of: " "), trimmed[..<space].allSatisfy(\.isNumber) else { return nil }
            return String(trimmed[space...].drop { $0 == " " })
        }
    }
}

extension RuntimeFixture {
    /// The callbacks `inspect CONTROLLER` shows, polled (for at most 30 s) until `done` says they are complete: a
    /// host handles its deliveries in its own time.
    func callbacks(of controller: String, until done: ([String]) -> Bool) async throws -> [String] {
        var callbacks: [String] = []
        try await Poll.until {
            callbacks = try await containment("inspect", controller).eventDescriptions
            return done(callbacks)
        }
        return callbacks
    }

    /// Returns once nothing moves (`ctl wait-idle`): no timed switch, no command waiting for code, and what
    /// controllers' code did in answer to the commands so far done. Throws when something still moves after 30 s.
    func waitIdle() throws {
        let context = try Context()
        let endpoint = RuntimeConfig(runDirectory: runDirectory).commandEndpoint
        let outcome = try { () throws -> IdleOutcome in
            try CommandClient(context: context, endpoint: endpoint).waitUntilIdle(timeout: .seconds(30))
        }()
        context.terminate()
        if case .busy(let reason) = outcome { throw FixtureError("still busy after 30 s: \(reason)") }
    }

    /// The supervisor's snapshot now.
    func snapshot() throws -> WireSnapshot {
        let context = try Context()
        let endpoint = RuntimeConfig(runDirectory: runDirectory).commandEndpoint
        // The client (and its socket) is gone when the closure returns, before the context ends.
        let snapshot = try { () throws -> WireSnapshot in
            try CommandClient(context: context, endpoint: endpoint).snapshot().wire
        }()
        context.terminate()
        return snapshot
    }

    /// Returns once view `id` exists (controller code makes its views in its own time), polling the snapshot for at
    /// most 30 s.
    func waitForView(_ id: String) async throws {
        guard try await Poll.until({ try snapshot().views.contains(where: { $0.id == id }) }) else {
            throw FixtureError("no view \(id) after 30 s")
        }
    }

    /// A DEALER of the test's own on the supervisor's command socket, for raw frames; `context.terminate()` after
    /// closing it.
    func rawDealer() throws -> (context: Context, socket: Socket) {
        let context = try Context()
        let socket = try context.socket(.dealer)
        try socket.set(.receiveTimeout, to: .seconds(5))
        try socket.connect(RuntimeConfig(runDirectory: runDirectory).commandEndpoint)
        return (context, socket)
    }
}

extension Socket {
    /// The next single-frame ServerMessage, or `nil` after the receive timeout.
    func receiveServerMessage() throws -> ServerMessage? {
        guard let frames = try receive(), frames.count == 1 else { return nil }
        return try ServerMessage.decode(frames[0])
    }

    /// Sends `message` and returns the reply with its request id (others are skipped), or `nil` after the timeout.
    func exchange(_ message: ClientMessage) throws -> ServerMessage? {
        _ = try send([message.bytes])
        while let reply = try receiveServerMessage() {
            if reply.requestID == message.requestID { return reply }
        }
        return nil
    }
}

extension ClientMessage {
    /// A host's registration, as a raw peer would send it.
    static func hello(_ host: String, pid: Int32 = 1, requestID: UInt64 = 1) -> ClientMessage {
        .with {
            $0.requestID = requestID
            $0.hello = .with {
                $0.host = host
                $0.pid = pid
                $0.protocolVersion = protocolVersion
            }
        }
    }
}

struct FixtureError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

enum JSON {
    static func object(_ text: String) -> [String: Any]? {
        (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any]
    }
}
