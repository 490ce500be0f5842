import ContainmentConfig
import Foundation
import Logging

/// The local hosts a supervisor runs (`supervisor --start-hosts`): each a `containment host` child process of this
/// executable, or the program its topology entry names (`command`), its pid file and log in the run directory, started
/// again by its ``RestartPolicy`` when it ends. A host still running from before (the supervisor crashed and was
/// started again) is adopted, not doubled: its end is seen by its pid. A supervisor that stops cleanly (SIGTERM,
/// `containment down`) stops them first (``stopAll(timeout:)``); one that crashes leaves them running, to be adopted.
/// A replicated runtime's leader leaves them to the supervisor that takes over.
final class HostSupervisor {
    /// What became of a host that ended.
    struct Ended {
        var host: String
        var exit: HostExit
        var decision: RestartPolicy.Decision
    }

    private struct Child {
        /// The program and its first arguments (the topology's `command`), or `nil`: `containment host`.
        var command: [String]?
        var process: Process?
        /// It could not be started at all (no such program, not executable): why; an exit, as a shell's 127.
        var launchError: String?
        /// A host running from before, not a child: watched by its pid.
        var adopted: Int32?
        var policy: RestartPolicy
        var given: Bool = false
        /// Ended, and to be started again then (``restartDelay`` later).
        var restartAt: ContinuousClock.Instant?
    }

    /// How long after a host ended it is started again (systemd's `RestartSec` default): a supervisor told to stop at
    /// the same moment as its hosts (`systemctl stop`: SIGTERM to the whole control group) stops before it would
    /// start one again, leaving no orphan.
    static let restartDelay: Duration = .milliseconds(100)

    private let config: RuntimeConfig
    private let logger: Logger
    private let executable: String
    private var children: [String: Child] = [:]
    private let clock = ContinuousClock()

    /// The topology's local hosts (not its remote ones), each with its restart policy: the topology's settings for
    /// it over runtime.yaml's.
    init(topology: Topology, config: RuntimeConfig, logger: Logger) {
        self.config = config
        self.logger = logger
        executable =
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
            ?? CommandLine.arguments[0]
        for host in topology.localHosts {
            let policy = topology.restartPolicy(of: host, config: config)
            children[host] = Child(
                command: topology.hostSettings[host]?.command,
                policy: RestartPolicy(mode: policy.mode, maxRestarts: policy.maxRestarts, window: policy.window)
            )
        }
    }

    var isEmpty: Bool { children.isEmpty }

    func pidFile(_ host: String) -> String { config.runDirectory + "/host-\(host).pid" }

    /// Starts every host not already running (those running are adopted).
    func startAll() {
        for host in children.keys.sorted() {
            if let pid = Self.livePID(in: pidFile(host)) {
                children[host]?.adopted = pid
                logger.info("host already running: adopted", metadata: ["host.name": "\(host)", "host.pid": "\(pid)"])
            } else {
                start(host)
            }
        }
    }

    /// The hosts that ended since the last call, each with what its policy decided (a restart starts it again
    /// ``restartDelay`` later, on a later call).
    func poll() -> [Ended] {
        var ended: [Ended] = []
        let now = clock.now
        for host in children.keys.sorted() where children[host]?.restartAt.map({ $0 <= now }) == true {
            children[host]?.restartAt = nil
            start(host)
        }
        for host in children.keys.sorted() {
            guard var child = children[host], !child.given, let exit = Self.exit(of: child) else { continue }
            child.process = nil
            child.adopted = nil
            child.launchError = nil
            let decision = child.policy.decide(exit, at: clock.now)
            if case .giveUp = decision { child.given = true }
            children[host] = child
            ended.append(Ended(host: host, exit: exit, decision: decision))
            logger.warning(
                "host ended",
                metadata: [
                    "host.name": "\(host)", "host.exit": "\(exit.description)", "restart.decision": "\(decision)",
                ]
            )
            if decision == .restart { children[host]?.restartAt = now + Self.restartDelay }
        }
        return ended
    }

    /// Stops every host it runs (started or adopted) with SIGTERM, together, and waits for them; one still running
    /// after `timeout` is killed (SIGKILL) and its pid file removed. Returns each host it stopped, with how.
    func stopAll(timeout: Duration = .seconds(10)) -> [(host: String, killed: Bool)] {
        var running: [(host: String, pid: Int32)] = []
        for host in children.keys.sorted() {
            guard let child = children[host] else { continue }
            if let process = child.process, process.isRunning {
                running.append((host, process.processIdentifier))
            } else if let pid = child.adopted, kill(pid, 0) == 0 {
                running.append((host, pid))
            }
            children[host]?.restartAt = nil
            children[host]?.given = true  // never started again
        }
        for (_, pid) in running { kill(pid, SIGTERM) }
        let deadline = clock.now + timeout
        func alive(_ host: String, _ pid: Int32) -> Bool {
            if let process = children[host]?.process { return process.isRunning }
            return kill(pid, 0) == 0
        }
        // Polled every 50 ms: a host that stops is seen within that.
        while clock.now < deadline, running.contains(where: { alive($0.host, $0.pid) }) {
            usleep(50_000)
        }
        var stopped: [(host: String, killed: Bool)] = []
        for (host, pid) in running {
            let killed = alive(host, pid)
            if killed {
                kill(pid, SIGKILL)
                children[host]?.process?.waitUntilExit()
                try? FileManager.default.removeItem(atPath: pidFile(host))
                logger.error("host ignored SIGTERM; killed", metadata: ["host.name": "\(host)", "host.pid": "\(pid)"])
            }
            stopped.append((host, killed))
        }
        if !stopped.isEmpty {
            logger.info(
                "supervisor stopped its hosts",
                metadata: [
                    "host.names":
                        "\(stopped.map { $0.killed ? "\($0.host) (killed)" : $0.host }.joined(separator: ", "))"
                ]
            )
        }
        return stopped
    }

    private static func exit(of child: Child) -> HostExit? {
        if let error = child.launchError { return HostExit(status: 127, signal: nil, launchError: error) }
        if let process = child.process {
            guard !process.isRunning else { return nil }
            return process.terminationReason == .uncaughtSignal
                ? HostExit(status: nil, signal: process.terminationStatus)
                : HostExit(status: process.terminationStatus, signal: nil)
        }
        if let pid = child.adopted {
            return kill(pid, 0) == 0 || errno == EPERM ? nil : HostExit(status: nil, signal: nil)
        }
        return nil
    }

    private func start(_ host: String) {
        let logs = config.runDirectory + "/logs"
        try? FileManager.default.createDirectory(atPath: logs, withIntermediateDirectories: true)
        let log = logs + "/host-\(host).log"
        if !FileManager.default.fileExists(atPath: log) {
            _ = FileManager.default.createFile(atPath: log, contents: nil)
        }
        let process = Process()
        // The topology's program for it, else this executable's `host`; either takes `containment host`'s flags.
        let command = children[host]?.command ?? [executable, "host"]
        // Its signals at their default: an app's host that handles SIGTERM its own way sees it (this thread blocks it).
        process.setCommandWithDefaultSignals(
            command[0],
            command.dropFirst() + [
                "--name", host, "--pid-file", pidFile(host), "--log-format", config.logFormat.rawValue,
            ]
        )
        // The run directory and the settings this supervisor runs with, whatever its own environment said.
        var environment = ProcessInfo.processInfo.environment
        environment["CONTAINMENT_RUN_DIR"] = config.runDirectory
        environment["CONTAINMENT_CONFIG"] = config.path ?? ""
        process.environment = environment
        process.standardInput = FileHandle.nullDevice
        let output = FileHandle(forWritingAtPath: log)
        if let output {
            output.seekToEndOfFile()
            process.standardOutput = output
            process.standardError = output
        }
        // The child has its own copy of the log's descriptor: the supervisor's is closed, so restarts leak none.
        defer { try? output?.close() }
        do {
            // A program that is not there, said as such: through env it would start and exit 127 instead.
            guard FileManager.default.isExecutableFile(atPath: command[0]) else {
                throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: command[0]])
            }
            try process.run()
            children[host]?.process = process
            logger.info("host started", metadata: ["host.name": "\(host)", "host.pid": "\(process.processIdentifier)"])
        } catch {
            // Counted as an exit (127), so its restart policy decides, and gives up in the end (hostFailed).
            children[host]?.launchError = "\(command[0]): \(error.localizedDescription)"
            logger.error(
                "cannot start host",
                metadata: ["host.name": "\(host)", "host.command": "\(command[0])", "error.message": "\(error)"]
            )
        }
    }

    /// The pid a pid file names, when that process is alive.
    private static func livePID(in path: String) -> Int32? {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8),
            let pid = Int32(text.trimmingCharacters(in: .whitespacesAndNewlines)), pid > 0,
            kill(pid, 0) == 0
        else { return nil }
        return pid
    }
}
