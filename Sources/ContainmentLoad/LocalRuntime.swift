import ContainmentBus
import ContainmentConfig
import ContainmentRuntime
import Foundation
import ZeroMQ

/// A runtime of this binary's own for `stress` and `bench`: a supervisor and hosts as child processes, in a fresh run
/// directory (logs under `logs/`), stopped with SIGTERM like any operator would.
public final class LocalRuntime {
    public let config: RuntimeConfig
    public let hostNames: [String]
    /// The supervisor's process: of a replicated runtime, supervisor `a`'s (``supervisors`` holds each).
    var supervisor: Process { supervisors[0].process }
    /// Every supervisor, by name (one, `supervisor`, unless replicated: `a` and `b`).
    private(set) var supervisors: [(name: String, process: Process)] = []
    /// A replicated runtime's etcd (``init(hosts:settings:keep:timeout:supervised:replicated:)``).
    private var etcd: LocalEtcd?
    private var store: (any EtcdStore)?
    /// Leaders killed (SIGKILL) and started again as standbys (``killLeader()``).
    public private(set) var leaderKills = 0
    private(set) var hosts: [String: Process] = [:]
    private let keep: Bool
    /// The run directory and settings its processes are given: a client of this runtime needs them too.
    public let environment: [String: String]
    /// Each supervisor's command line, for starting it again.
    private var supervisorCommands: [String: [String]] = [:]
    /// Supervisors killed and started again (``restartSupervisor()``).
    public private(set) var supervisorRestarts = 0
    /// The supervisor starts the hosts and restarts them (`--start-hosts`): they are not this process's children.
    public let supervised: Bool
    /// Hosts killed on purpose (``killHost(_:)``), and stalled (``stallHost(_:)``).
    public private(set) var hostKills = 0
    public private(set) var hostStalls = 0
    /// Each killed host's last killed process: until the supervisor has another up, the host is not back (it may
    /// not have noticed the death yet).
    public private(set) var killedPIDs: [String: Int32] = [:]

    /// The path of this very executable, so the daemons run the same build.
    public static var executable: String {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
    }

    /// Starts the supervisor and `hosts` hosts (`h0`, `h1`, …) and returns once every host is connected.
    /// `settings` is extra runtime YAML (Config/runtime.yaml's keys); `keep` leaves the run directory behind.
    /// `supervised`: the supervisor starts the hosts (and starts each again when it dies) instead of this process.
    /// `replicated`: a replicated runtime (`journal: etcd`) — three etcd members and supervisors `a` (which leads
    /// first) and `b`, reached through the store it makes.
    package init(
        hosts count: Int,
        settings: String = "",
        keep: Bool = false,
        timeout: Duration = .seconds(30),
        supervised: Bool = false,
        replicated: ((EtcdSettings) throws -> any EtcdStore)? = nil
    ) throws {
        let run = FileManager.default.temporaryDirectory.appendingPathComponent(
            "containment-load-\(getpid())-\(UInt32.random(in: 0..<UInt32.max))"
        ).path
        try FileManager.default.createDirectory(atPath: run + "/logs", withIntermediateDirectories: true)
        let configPath = run + "/runtime.yaml"
        var settings = settings
        var names = ["supervisor"]
        if let replicated {
            var etcdEnvironment = ProcessInfo.processInfo.environment
            etcdEnvironment["CONTAINMENT_RUN_DIR"] = run
            let etcd = try LocalEtcd(
                count: 3,
                directory: run + "/etcd",
                logs: run + "/logs",
                environment: etcdEnvironment,
                store: replicated
            )
            self.etcd = etcd
            names = ["a", "b"]
            settings += """

                journal: etcd
                etcd: {endpoints: [\(etcd.endpoints.joined(separator: ", "))], prefix: \(Self.etcdPrefix)}
                supervisors:
                  - {name: a, command: "ipc://\(run)/a-command.sock", events: "ipc://\(run)/a-events.sock"}
                  - {name: b, command: "ipc://\(run)/b-command.sock", events: "ipc://\(run)/b-events.sock"}

                """
        }
        try settings.write(toFile: configPath, atomically: true, encoding: .utf8)
        var environment = ProcessInfo.processInfo.environment
        environment["CONTAINMENT_RUN_DIR"] = run
        environment["CONTAINMENT_CONFIG"] = configPath
        config = try RuntimeConfig.load(from: configPath, environment: environment)
        hostNames = (0..<count).map { "h\($0)" }
        self.keep = keep
        self.environment = environment
        self.supervised = supervised
        // The hosts are named by a topology: the supervisor registers only those (acceptUnknownHosts).
        let topology = run + "/hosts.yaml"
        try "hosts: [\(hostNames.joined(separator: ", "))]\ncontrollers: []\n".write(
            toFile: topology,
            atomically: true,
            encoding: .utf8
        )
        if case .etcd(let etcdSettings) = config.journalStore, let replicated {
            store = try replicated(etcdSettings)
        }
        for name in names {
            var arguments =
                Self.supervisorArguments(run, name: names.count > 1 ? name : nil) + ["--topology", topology]
            if supervised { arguments += ["--start-hosts"] }
            supervisorCommands[name] = arguments
            supervisors.append(
                (
                    name,
                    try Self.spawn(arguments, log: run + "/logs/\(Self.logName(name)).log", environment: environment)
                )
            )
            // The first leads: the next starts once it does.
            if names.count > 1, supervisors.count == 1 {
                let deadline = ContinuousClock.now + timeout
                while (try? leader()) != name, ContinuousClock.now < deadline { Thread.sleep(forTimeInterval: 0.05) }
            }
        }
        for name in hostNames where !supervised {
            hosts[name] = try Self.spawn(
                ["host", "--name", name, "--pid-file", run + "/host-\(name).pid", "--log-level", "warning"],
                log: run + "/logs/host-\(name).log",
                environment: environment
            )
        }
        do {
            try waitForHosts(timeout: timeout)
        } catch {
            stop()
            throw error
        }
    }

    private static func supervisorArguments(_ run: String, name: String?) -> [String] {
        ["supervisor"] + (name.map { ["--name", $0] } ?? [])
            + ["--pid-file", run + "/\(logName(name ?? "supervisor")).pid", "--log-level", "warning"]
    }

    private static func logName(_ supervisor: String) -> String {
        supervisor == "supervisor" ? supervisor : "supervisor-\(supervisor)"
    }

    /// Of a replicated runtime: the supervisor that leads now, by its name (nil: none, or not replicated).
    public func leader() throws -> String? {
        guard let store else { return nil }
        return try store.range(EtcdKeys(prefix: Self.etcdPrefix).leader).kvs.first
            .flatMap { LeaderRecord(bytes: $0.value) }?.name
    }

    /// Of a replicated runtime: who leads, and each standby with how far it lags (nil: not replicated).
    package func replication() throws -> ReplicationStatus? {
        guard let store else { return nil }
        return try ReplicationStatus.read(from: store, prefix: Self.etcdPrefix)
    }

    /// A replicated runtime's keys in etcd begin with this.
    private static let etcdPrefix = "/containment/load"

    /// Of a replicated runtime: kills the supervisor that leads with SIGKILL and starts it again, on its own name (it
    /// stands by, behind whichever supervisor took over). Returns once it is killed; false when none leads.
    @discardableResult
    public func killLeader() throws -> Bool {
        guard let name = try leader(), let index = supervisors.firstIndex(where: { $0.name == name }),
            let arguments = supervisorCommands[name]
        else { return false }
        kill(supervisors[index].process.processIdentifier, SIGKILL)
        supervisors[index].process.waitUntilExit()
        leaderKills += 1
        supervisorRestarts += 1
        supervisors[index].process = try Self.spawn(
            arguments,
            log: logs + "/\(Self.logName(name)).log",
            environment: environment
        )
        return true
    }

    /// The journal's entries, from its directory or etcd.
    package func journalEntries() throws -> [JournalEntry] {
        if let store { return try JournalReplay.entries(from: store, keys: EtcdKeys(prefix: Self.etcdPrefix)) }
        return try JournalReplay.entries(at: config.journalPath)
    }

    /// The host processes of `runDirectory` running now, by name: each process whose command line gives a pid file in
    /// it (`--pid-file RUN/host-NAME.pid`). Its command line is there from its start, before it writes that file.
    package static func hostProcesses(of runDirectory: String) -> [(name: String, pid: Int32)] {
        let prefix = runDirectory + "/host-"
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap { entry -> (name: String, pid: Int32)? in
            guard let pid = Int32(entry), pid != getpid(),
                let line = FileManager.default.contents(atPath: "/proc/\(entry)/cmdline")
            else { return nil }
            let arguments = line.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
            guard let flag = arguments.firstIndex(of: "--pid-file"), flag + 1 < arguments.count,
                arguments[flag + 1].hasPrefix(prefix), arguments[flag + 1].hasSuffix(".pid")
            else { return nil }
            return (String(arguments[flag + 1].dropFirst(prefix.count).dropLast(4)), pid)
        }
    }

    /// A host's pid, from its pid file.
    public func hostPID(_ name: String) -> Int32? {
        (try? String(contentsOfFile: config.runDirectory + "/host-\(name).pid", encoding: .utf8))
            .flatMap { Int32($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
    }

    /// Kills host `name` with SIGKILL (supervised: its supervisor starts it again).
    public func killHost(_ name: String) {
        guard let pid = hostPID(name) else { return }
        kill(pid, SIGKILL)
        hostKills += 1
        killedPIDs[name] = pid
    }

    /// A host's pid, whoever started it.
    public func pid(ofHost name: String) -> Int32? {
        supervised ? hostPID(name) : hosts[name]?.processIdentifier
    }

    /// Stalls host `name` (SIGSTOP) until ``resumeHost(_:)``: alive, silent.
    public func stallHost(_ name: String) {
        guard let pid = pid(ofHost: name) else { return }
        kill(pid, SIGSTOP)
        hostStalls += 1
    }

    public func resumeHost(_ name: String) {
        guard let pid = pid(ofHost: name) else { return }
        kill(pid, SIGCONT)
    }

    /// Every daemon's name and pid, supervisor first (supervised hosts by their pid files).
    public var daemons: [(name: String, pid: Int32)] {
        guard supervised else { return processes.map { ($0.name, $0.process.processIdentifier) } }
        return supervisors.map { (Self.logName($0.name), $0.process.processIdentifier) }
            + hostNames.map { ($0, hostPID($0) ?? 0) }
    }

    /// Kills the supervisor with SIGKILL (no clean stop: the worst moment is whatever moment it is) and starts a new
    /// one on the same run directory, as `scripts/up.sh` would; returns at once (the new one recovers the journal
    /// while clients resend).
    public func restartSupervisor() throws {
        kill(supervisor.processIdentifier, SIGKILL)
        supervisor.waitUntilExit()
        supervisorRestarts += 1
        supervisors[0].process = try Self.spawn(
            supervisorCommands[supervisors[0].name] ?? [],
            log: logs + "/\(Self.logName(supervisors[0].name)).log",
            environment: environment
        )
    }

    /// Starts a daemon, its output appended to `log`.
    private static func spawn(_ arguments: [String], log: String, environment: [String: String]) throws -> Process {
        guard FileManager.default.fileExists(atPath: log) || FileManager.default.createFile(atPath: log, contents: nil)
        else {
            throw LoadError("cannot create \(log)")
        }
        let output = try FileHandle(forWritingTo: URL(fileURLWithPath: log))
        try output.seekToEnd()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = environment
        process.standardOutput = output
        process.standardError = output
        process.standardInput = FileHandle.nullDevice
        // The child has its own copy of the log's descriptor; this process's is closed (restarts leak none).
        defer { try? output.close() }
        try process.run()
        return process
    }

    /// Polls snapshots until every host is up.
    private func waitForHosts(timeout: Duration) throws {
        let clock = ContinuousClock()
        let deadline = clock.now + timeout
        let context = try Context()
        var missing = Set(hostNames)
        while clock.now < deadline {
            if !supervisors.contains(where: { $0.process.isRunning }) {
                throw LoadError("the supervisor exited at start; see \(logs)")
            }
            if let notUp = hostsNotUp(context: context) {
                missing = notUp
                if missing.isEmpty { return }
            }
            Thread.sleep(forTimeInterval: 0.05)
        }
        throw LoadError("hosts \(missing.sorted().joined(separator: ", ")) did not connect in time; see \(logs)")
    }

    /// The hosts not registered (up) with the supervisor that serves now, from one snapshot; nil when no supervisor
    /// answers one within `timeout` (it is starting, or none leads yet).
    public func hostsNotUp(context: Context, timeout: Duration = .seconds(1)) -> Set<String>? {
        guard let client = try? CommandClient(context: context, endpoints: config.commandEndpoints, timeout: timeout),
            let snapshot = try? client.snapshot()
        else { return nil }
        return Set(hostNames).subtracting(snapshot.hosts.filter(\.up).map(\.name))
    }

    public var logs: String { config.runDirectory + "/logs" }

    /// Every daemon, supervisors first (a replicated runtime's: `supervisor-a`, `supervisor-b`).
    public var processes: [(name: String, process: Process)] {
        supervisors.map { (Self.logName($0.name), $0.process) }
            + hostNames.compactMap { name in hosts[name].map { (name, $0) } }
    }

    /// What each daemon uses now, read from /proc.
    public func sample() -> [ProcessSample] {
        processes.map { ProcessSample(name: $0.name, pid: $0.process.processIdentifier) }
    }

    /// SIGTERM to every daemon, hosts first; SIGKILL to any still running after `grace`. Removes the run directory
    /// unless asked to keep it (at the start, or now: `keepRunDirectory`). Returns what was not clean: daemons that did
    /// not exit 0 after SIGTERM, sockets or pid files left behind.
    @discardableResult
    public func stop(grace: Duration = .seconds(10), keepRunDirectory: Bool = false) -> [String] {
        var unclean: [String] = []
        // Supervised hosts: the supervisor first (it would start a stopped host again), then each host process of this
        // run directory — found after the supervisors stopped, so one started at the last moment (a restart after a
        // kill, its pid file not written yet) is stopped too.
        // A replicated runtime's leader last: stopped before it, a standby would take over (and start the hosts).
        if let leading = try? leader() {
            supervisors = supervisors.filter { $0.name != leading } + supervisors.filter { $0.name == leading }
        }
        for (name, process) in (supervised ? processes : processes.reversed()) {
            guard process.isRunning else {
                if process.terminationStatus != 0 { unclean.append("\(name) (exit \(process.terminationStatus))") }
                continue
            }
            process.terminate()
            let clock = ContinuousClock()
            let deadline = clock.now + grace
            while process.isRunning, clock.now < deadline { Thread.sleep(forTimeInterval: 0.01) }
            if process.isRunning {
                kill(process.processIdentifier, SIGKILL)
                process.waitUntilExit()
                unclean.append("\(name) (killed after \(grace))")
            } else if process.terminationStatus != 0 {
                unclean.append("\(name) (exit \(process.terminationStatus))")
            }
        }
        let hostPIDs = supervised ? Self.hostProcesses(of: config.runDirectory) : []
        for (name, pid) in hostPIDs where kill(pid, 0) == 0 {
            kill(pid, SIGTERM)
            let clock = ContinuousClock()
            let deadline = clock.now + grace
            while kill(pid, 0) == 0, clock.now < deadline { Thread.sleep(forTimeInterval: 0.01) }
            if kill(pid, 0) == 0 {
                kill(pid, SIGKILL)
                unclean.append("\(name) (killed after \(grace))")
            }
        }
        store?.close()
        etcd?.stop()
        let files = (try? FileManager.default.contentsOfDirectory(atPath: config.runDirectory)) ?? []
        for file in files where file.hasSuffix(".sock") || file.hasSuffix(".pid") {
            unclean.append("\(file) left in \(config.runDirectory)")
        }
        if !keep, !keepRunDirectory { try? FileManager.default.removeItem(atPath: config.runDirectory) }
        return unclean
    }
}

/// One daemon's use of memory and descriptors, from /proc.
public struct ProcessSample: Sendable, Codable {
    public var name: String
    public var pid: Int32
    public var alive: Bool
    /// Resident memory, KiB (VmRSS).
    public var residentKiB: Int
    /// The most resident memory it ever had, KiB (VmHWM, the high-water mark).
    public var peakKiB: Int
    /// Open file descriptors.
    public var descriptors: Int
    /// Time on a CPU so far, nanoseconds (``cpuNanos(of:)``).
    public var cpuNanos: UInt64

    public init(name: String, pid: Int32) {
        self.name = name
        self.pid = pid
        let status = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
        func field(_ key: String) -> Substring? {
            status.split(separator: "\n").first { $0.hasPrefix(key) }?.dropFirst(key.count)
                .split(whereSeparator: { $0 == " " || $0 == "\t" }).first
        }
        // A zombie (state Z) has exited; only its parent has not collected it yet.
        alive = field("State:").map { $0 != "Z" } ?? false
        residentKiB = field("VmRSS:").flatMap { Int($0) } ?? 0
        peakKiB = field("VmHWM:").flatMap { Int($0) } ?? 0
        descriptors = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd").count) ?? 0
        cpuNanos = Self.cpuNanos(of: pid)
    }

    /// The time process `pid` has spent on a CPU, nanoseconds (0 when it is gone): its threads alive to the
    /// scheduler's nanosecond (`/proc/PID/task/TID/schedstat`, the first field), and those that ended — a checkpoint's
    /// writer, say — in clock ticks (`/proc/PID/stat`'s `utime` + `stime` count every thread the process ever had).
    public static func cpuNanos(of pid: Int32) -> UInt64 {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
        var (aliveNanos, aliveTicks): (UInt64, UInt64) = (0, 0)
        for task in tasks {
            let text = (try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/schedstat", encoding: .utf8)) ?? ""
            aliveNanos += text.split(separator: " ").first.flatMap { UInt64($0) } ?? 0
            aliveTicks += ticks(of: "/proc/\(pid)/task/\(task)/stat")
        }
        let allTicks = ticks(of: "/proc/\(pid)/stat")
        let tick = 1_000_000_000 / UInt64(max(1, sysconf(Int32(_SC_CLK_TCK))))
        return aliveNanos + (allTicks > aliveTicks ? (allTicks - aliveTicks) * tick : 0)
    }

    /// The CPU time of `pid` since `before` (a ``cpuNanos(of:)`` of it): never negative, though a thread that ends
    /// meanwhile moves from nanoseconds to ticks.
    public static func cpuNanos(of pid: Int32, since before: UInt64) -> UInt64 {
        let now = cpuNanos(of: pid)
        return now > before ? now - before : 0
    }

    /// `utime` + `stime` of a `stat` file, in clock ticks: its 14th and 15th fields, counted after the command's name
    /// (in parentheses, and it may hold spaces).
    private static func ticks(of path: String) -> UInt64 {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8), let close = text.lastIndex(of: ")") else {
            return 0
        }
        // After ") " comes the state, field 3: utime and stime are the 12th and 13th from there.
        let fields = text[text.index(after: close)...].split(separator: " ")
        guard fields.count > 12 else { return 0 }
        return (UInt64(fields[11]) ?? 0) + (UInt64(fields[12]) ?? 0)
    }

}

/// Why a stress or bench run could not go on.
public struct LoadError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}

/// Writes to standard error (progress lines and notes).
func standardError(_ text: String) {
    FileHandle.standardError.write(Data(text.utf8))
}
