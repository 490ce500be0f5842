import ArgumentParser
import ContainmentConfig
import Foundation

/// What `up`, `run` and `down` do to a run directory's daemons: start the supervisors detached (one, or a replicated
/// runtime's several with their local etcd), containment-web's servers, and stop every daemon found by its pid file or
/// by its environment, checking that nothing is left.
final class Lifecycle {
    let config: RuntimeConfig
    /// runtime.yaml as given (`--config`, else CONTAINMENT_CONFIG), absolute, for the daemons it starts.
    private let configPath: String?
    /// Where each supervisor's log stood when it was started (by log path): its reasons for failing are after.
    private var logStarts: [String: UInt64] = [:]

    init(config: RuntimeConfig, configPath: String?) {
        self.config = config
        self.configPath = (configPath ?? ProcessInfo.processInfo.environment["CONTAINMENT_CONFIG"])
            .flatMap { $0.isEmpty ? nil : Self.absolute($0) }
    }

    var runDirectory: String { config.runDirectory }

    /// A replicated runtime's supervisors (`journal: etcd`): runtime.yaml's, by name, or one named `supervisor`; nil
    /// for a runtime that journals to a directory, whose one supervisor has no name.
    var supervisorNames: [String]? {
        guard case .etcd = config.journalStore else { return nil }
        return config.supervisors.isEmpty ? ["supervisor"] : config.supervisors.map(\.name)
    }

    /// The supervisors' names as their files name them: `nil` for the one of a runtime journaling to a directory.
    var supervisors: [String?] { supervisorNames ?? [nil] }
    func pidFile(supervisor name: String?) -> String { runDirectory + "/supervisor\(name.map { "-\($0)" } ?? "").pid" }
    func log(supervisor name: String?) -> String { runDirectory + "/logs/supervisor\(name.map { "-\($0)" } ?? "").log" }

    /// The local etcd cluster of a replicated runtime whose endpoints are all on this machine.
    var localEtcd: LocalEtcdCluster? {
        guard case .etcd(let settings) = config.journalStore, let members = settings.localMembers else { return nil }
        return LocalEtcdCluster(directory: runDirectory + "/etcd", members: members)
    }

    /// A supervisor of this run directory that runs (its pid file names a live process whose command line is a
    /// supervisor's: once one died, its number may be another process's), and its pid.
    var runningSupervisor: (file: String, pid: Int32)? {
        let files = ((try? FileManager.default.contentsOfDirectory(atPath: runDirectory)) ?? [])
            .filter { $0.hasPrefix("supervisor") && $0.hasSuffix(".pid") }.sorted()
        for file in files {
            guard let pid = Self.livePID("\(runDirectory)/\(file)"),
                let cmdline = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline"),
                cmdline.split(separator: 0).contains(where: { String(decoding: $0, as: UTF8.self) == "supervisor" })
            else { continue }
            return (file, pid)
        }
        return nil
    }

    /// This executable: the supervisor and its hosts run it too.
    static let executable =
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]

    /// What the supervisors run: this executable, or for a replicated runtime `containment-etcd` (the same commands
    /// with etcd's client linked) — CONTAINMENT_ETCD_BIN, else this executable when it is that, else the one beside it.
    func supervisorExecutable() throws -> String {
        guard supervisorNames != nil else { return Self.executable }
        let path =
            ProcessInfo.processInfo.environment["CONTAINMENT_ETCD_BIN"].flatMap { $0.isEmpty ? nil : $0 }
            ?? (Self.executable.hasSuffix("/containment-etcd") ? Self.executable : Self.sibling("containment-etcd"))
        guard FileManager.default.isExecutableFile(atPath: path) else {
            throw Self.failure(
                "up: a replicated runtime's supervisors run containment-etcd (etcd's client linked), not found at "
                    + "\(path): build it (swift build --product containment-etcd) or install it "
                    + "(scripts/install.sh --etcd), or name it with CONTAINMENT_ETCD_BIN"
            )
        }
        return path
    }

    /// `name` in this executable's directory.
    static func sibling(_ name: String) -> String {
        URL(fileURLWithPath: executable).deletingLastPathComponent().appendingPathComponent(name).path
    }

    /// `path` made absolute against the working directory.
    static func absolute(_ path: String) -> String {
        path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
    }

    /// Whether a process runs: it exists and is not a zombie waiting for its parent to reap it.
    static func alive(_ pid: Int32) -> Bool {
        guard kill(pid, 0) == 0 else { return false }
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let end = stat.lastIndex(of: ")")
        else { return true }
        return !stat[stat.index(after: end)...].hasPrefix(" Z")
    }

    /// SIGKILL to each of `pids` still alive, then returns once they are gone (polled every 0.05 s, at most 5 s): a
    /// killed process is not gone the moment the signal is sent, and `down` says it stopped what it stopped.
    static func killAndWait(_ pids: [Int32]) {
        let left = pids.filter(alive)
        for pid in left { kill(pid, SIGKILL) }
        for _ in 0..<100 where left.contains(where: alive) { usleep(50_000) }
    }

    /// The pid a pid file names, while that process runs.
    static func livePID(_ file: String) -> Int32? {
        guard let text = try? String(contentsOfFile: file, encoding: .utf8),
            let pid = Int32(text.trimmingCharacters(in: .whitespacesAndNewlines)), pid > 0, alive(pid)
        else { return nil }
        return pid
    }

    /// `message` on standard error, and exit status 1.
    static func failure(_ message: String) -> ExitCode {
        FileHandle.standardError.write(Data((message + "\n").utf8))
        return ExitCode(1)
    }

    /// The environment of what it runs: this run directory and these settings, whatever the caller's said.
    var environment: [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["CONTAINMENT_RUN_DIR"] = runDirectory
        environment["CONTAINMENT_CONFIG"] = configPath ?? ""
        return environment
    }

    /// Runs `containment ARGUMENTS` to its end; its standard output, or exit 1 with what it said (unless `quiet`).
    func own(_ arguments: [String], quiet: Bool = false) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.executable)
        process.arguments = arguments
        process.environment = environment
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let said = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            if quiet { throw ExitCode(process.terminationStatus) }
            throw Self.failure(said.trimmingCharacters(in: .whitespacesAndNewlines))
        }
        return text
    }

    /// Starts `containment ARGUMENTS` beside this process, writing to its standard output and error.
    func startOwn(_ arguments: [String]) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.executable)
        process.arguments = arguments
        process.environment = environment
        try process.run()
        return process
    }

    /// A daemon started detached, appending to `log` (where the log stood is kept for ``logSinceStart(_:)``),
    /// standard input closed: in a process group of its own (as Foundation starts every child), so that a Ctrl-C
    /// meant for this command does not reach it, with every signal at its default (``withDefaultSignals(_:_:)``), and
    /// under `nohup`, which ignores the hang-up of the terminal it was started from; each becomes the next (the
    /// process is the daemon: its pid, its status).
    func startDetached(_ executable: String, _ arguments: [String], log: String) throws -> Process {
        try FileManager.default.createDirectory(atPath: runDirectory + "/logs", withIntermediateDirectories: true)
        if !FileManager.default.fileExists(atPath: log) {
            _ = FileManager.default.createFile(atPath: log, contents: nil)
        }
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: log))
        defer { try? handle.close() }
        logStarts[log] = try handle.seekToEnd()
        let process = Process()
        let nohup = "/usr/bin/nohup"
        if FileManager.default.isExecutableFile(atPath: nohup) {
            process.setCommandWithDefaultSignals(nohup, [executable] + arguments)
        } else {
            process.setCommandWithDefaultSignals(executable, arguments)
        }
        process.environment = environment
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = handle
        process.standardError = handle
        try process.run()
        return process
    }

    /// Supervisor `name` (nil: the one of a runtime journaling to a directory) of `topology`, started detached; it
    /// starts the topology's hosts once it leads.
    func startSupervisor(_ name: String?, topology: String) throws -> Process {
        try startDetached(
            try supervisorExecutable(),
            (name.map { ["supervisor", "--name", $0] } ?? ["supervisor"])
                + ["--topology", topology, "--start-hosts", "--pid-file", pidFile(supervisor: name)],
            log: log(supervisor: name)
        )
    }

    /// A log since the daemon that writes it was started (all of it, for one this process did not start).
    func logSinceStart(_ log: String) -> String {
        guard let handle = FileHandle(forReadingAtPath: log) else { return "" }
        defer { try? handle.close() }
        try? handle.seek(toOffset: logStarts[log] ?? 0)
        return String(decoding: (try? handle.readToEnd()) ?? Data(), as: UTF8.self)
    }

    /// The supervisors' logs since they were started, one after the other.
    private var supervisorLogsSinceStart: String { supervisors.map { logSinceStart(log(supervisor: $0)) }.joined() }

    /// Whether a supervisor logged, since it was started, that its restart policy gave up on a host (`hostFailed`:
    /// it will not connect).
    var aHostFailed: Bool { supervisorLogsSinceStart.contains("host failed: not restarted again") }

    /// The supervisors' own reasons: the last errors they logged since they were started.
    var supervisorErrors: [Substring] {
        supervisorLogsSinceStart.split(whereSeparator: \.isNewline)
            .filter { $0.contains("error") || $0.contains("critical") || $0.contains("Error:") }
            .suffix(3)
    }

    /// A start that failed: what, the supervisors' own reasons (their errors since they were started), their logs;
    /// exit 1.
    func startFailure(_ what: String) -> ExitCode {
        var lines = ["up: \(what)"]
        let said = supervisorErrors
        if !said.isEmpty { lines += ["up: the supervisor said:"] + said.map { "    \($0)" } }
        lines.append("up: its log: \(supervisors.map { log(supervisor: $0) }.joined(separator: ", "))")
        return Self.failure(lines.joined(separator: "\n"))
    }
}
