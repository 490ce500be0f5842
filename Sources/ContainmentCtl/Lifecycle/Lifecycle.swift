import ArgumentParser
import ContainmentConfig
import Foundation

/// What `up` and `down` do to a run directory's daemons: start the supervisor detached, and stop every daemon found by
/// its pid file or by its environment, checking that nothing is left.
final class Lifecycle {
    let config: RuntimeConfig
    /// runtime.yaml as given (`--config`, else CONTAINMENT_CONFIG), absolute, for the daemons it starts.
    private let configPath: String?
    /// Where the supervisor's log stood when it was started: its reasons for failing are after.
    private var logStart: UInt64 = 0

    init(config: RuntimeConfig, configPath: String?) {
        self.config = config
        self.configPath = (configPath ?? ProcessInfo.processInfo.environment["CONTAINMENT_CONFIG"])
            .flatMap { $0.isEmpty ? nil : Self.absolute($0) }
    }

    var runDirectory: String { config.runDirectory }
    var supervisorPIDFile: String { runDirectory + "/supervisor.pid" }
    private var supervisorLog: String { runDirectory + "/logs/supervisor.log" }

    /// This executable: the supervisor and its hosts run it too.
    static let executable =
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]

    /// `path` made absolute against the working directory.
    static func absolute(_ path: String) -> String {
        path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
    }

    /// The pid a pid file names, while that process runs.
    static func livePID(_ file: String) -> Int32? {
        guard let text = try? String(contentsOfFile: file, encoding: .utf8),
            let pid = Int32(text.trimmingCharacters(in: .whitespacesAndNewlines)), pid > 0, kill(pid, 0) == 0
        else { return nil }
        return pid
    }

    /// `message` on standard error, and exit status 1.
    static func failure(_ message: String) -> ExitCode {
        FileHandle.standardError.write(Data((message + "\n").utf8))
        return ExitCode(1)
    }

    /// The environment of what it runs: this run directory and these settings, whatever the caller's said.
    private var environment: [String: String] {
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

    /// The supervisor of `topology`, started in a session of its own (`setsid`: no terminal's hang-up reaches it),
    /// appending to its log.
    func startSupervisor(topology: String) throws -> Process {
        try FileManager.default.createDirectory(atPath: runDirectory + "/logs", withIntermediateDirectories: true)
        if !FileManager.default.fileExists(atPath: supervisorLog) {
            _ = FileManager.default.createFile(atPath: supervisorLog, contents: nil)
        }
        let log = try FileHandle(forWritingTo: URL(fileURLWithPath: supervisorLog))
        defer { try? log.close() }
        logStart = try log.seekToEnd()
        let arguments = ["supervisor", "--topology", topology, "--start-hosts", "--pid-file", supervisorPIDFile]
        let process = Process()
        let setsid = "/usr/bin/setsid"
        if FileManager.default.isExecutableFile(atPath: setsid) {
            process.executableURL = URL(fileURLWithPath: setsid)
            process.arguments = [Self.executable] + arguments
        } else {
            process.executableURL = URL(fileURLWithPath: Self.executable)
            process.arguments = arguments
        }
        process.environment = environment
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = log
        process.standardError = log
        try process.run()
        return process
    }

    /// The supervisor's log since it was started.
    private var logSinceStart: String {
        guard let log = FileHandle(forReadingAtPath: supervisorLog) else { return "" }
        defer { try? log.close() }
        try? log.seek(toOffset: logStart)
        return String(decoding: (try? log.readToEnd()) ?? Data(), as: UTF8.self)
    }

    /// Whether its restart policy gave up on a host since the supervisor was started (`hostFailed`): it will not
    /// connect.
    var aHostFailed: Bool { logSinceStart.contains("host failed: not restarted again") }

    /// A start that failed: what, the supervisor's own reasons (its errors since it was started), its log; exit 1.
    func startFailure(_ what: String) -> ExitCode {
        var lines = ["up: \(what)"]
        let said = logSinceStart.split(whereSeparator: \.isNewline)
            .filter { $0.contains("error") || $0.contains("critical") || $0.contains("Error:") }
            .suffix(3)
        if !said.isEmpty { lines += ["up: the supervisor said:"] + said.map { "    \($0)" } }
        lines.append("up: its log: \(supervisorLog)")
        return Self.failure(lines.joined(separator: "\n"))
    }

    /// Stops every daemon: containment-web's servers, the supervisor (which stops the hosts it started), any host
    /// left, and any daemon of the run directory without a pid file; then removes what was left behind. What it
    /// stopped, and each thing that was not as it should be.
    func stopAll() -> (stopped: [String], problems: [String]) {
        var stopped: [String] = []
        var problems: [String] = []
        let files = (try? FileManager.default.contentsOfDirectory(atPath: runDirectory)) ?? []
        let hostFiles = files.filter { $0.hasPrefix("host-") && $0.hasSuffix(".pid") }.sorted()
        func hostName(_ file: String) -> String { String(file.dropFirst("host-".count).dropLast(".pid".count)) }
        for web in ["inspector", "metrics"] where files.contains("\(web).pid") {
            stop(pidFile: "\(runDirectory)/\(web).pid", name: web, stopped: &stopped, problems: &problems)
        }
        let running = hostFiles.filter { Self.livePID("\(runDirectory)/\($0)") != nil }
        if files.contains("supervisor.pid") {
            stop(pidFile: supervisorPIDFile, name: "supervisor", stopped: &stopped, problems: &problems)
            let byIt = running.filter { !FileManager.default.fileExists(atPath: "\(runDirectory)/\($0)") }
            if !byIt.isEmpty { stopped.append("the hosts it stopped (\(byIt.map(hostName).joined(separator: ", ")))") }
        }
        for file in hostFiles where FileManager.default.fileExists(atPath: "\(runDirectory)/\(file)") {
            stop(
                pidFile: "\(runDirectory)/\(file)",
                name: "host \(hostName(file))",
                stopped: &stopped,
                problems: &problems
            )
        }
        for (pid, role) in daemonsWithoutPIDFile() {
            problems.append("\(role) (pid \(pid)) ran without a pid file; stopped")
            terminate(pid)
        }
        let left = ((try? FileManager.default.contentsOfDirectory(atPath: runDirectory)) ?? [])
            .filter { $0.hasSuffix(".pid") || $0.hasSuffix(".sock") }.sorted()
        if !left.isEmpty {
            problems.append("left behind, now removed: \(left.joined(separator: ", "))")
            for file in left { try? FileManager.default.removeItem(atPath: "\(runDirectory)/\(file)") }
        }
        return (stopped, problems)
    }

    private func stop(pidFile: String, name: String, stopped: inout [String], problems: inout [String]) {
        guard let text = try? String(contentsOfFile: pidFile, encoding: .utf8),
            let pid = Int32(text.trimmingCharacters(in: .whitespacesAndNewlines))
        else { return }
        guard kill(pid, 0) == 0 else {
            problems.append("\(name) (pid \(pid)) was not running; removed its stale pid file")
            try? FileManager.default.removeItem(atPath: pidFile)
            return
        }
        if terminate(pid) {
            stopped.append("\(name) (pid \(pid))")
        } else {
            problems.append("\(name) (pid \(pid)) ignored SIGTERM for 10 s; killed")
            try? FileManager.default.removeItem(atPath: pidFile)
        }
    }

    /// SIGTERM, then SIGKILL after 10 s; whether it stopped on its own. Polled every 0.1 s.
    @discardableResult
    private func terminate(_ pid: Int32) -> Bool {
        kill(pid, SIGTERM)
        for _ in 0..<100 {
            if kill(pid, 0) != 0 { return true }
            usleep(100_000)
        }
        kill(pid, SIGKILL)
        return false
    }

    /// This run directory's daemons (by their environment) that no pid file names: their pid and role.
    private func daemonsWithoutPIDFile() -> [(Int32, String)] {
        let mine = "CONTAINMENT_RUN_DIR=\(runDirectory)"
        var found: [(Int32, String)] = []
        for entry in (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? [] {
            guard let pid = Int32(entry), pid != getpid(),
                let environ = FileManager.default.contents(atPath: "/proc/\(entry)/environ"),
                environ.split(separator: 0).contains(where: { String(decoding: $0, as: UTF8.self) == mine }),
                let cmdline = FileManager.default.contents(atPath: "/proc/\(entry)/cmdline")
            else { continue }
            let words = cmdline.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
            let program = words.first ?? ""
            if words.contains(where: { $0.hasPrefix("\(runDirectory)/host-") }) {
                found.append((pid, "host"))  // an app's own host executable too
            } else if program.hasSuffix("containment") || program.hasSuffix("containment-web"),
                let role = words.dropFirst().first, ["supervisor", "host", "inspector", "metrics"].contains(role)
            {
                found.append((pid, role))
            }
        }
        return found
    }
}
