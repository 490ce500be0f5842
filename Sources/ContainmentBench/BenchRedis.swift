import ContainmentConfig
import ContainmentLoad
import Foundation

/// Redis beside Containment (`bench peer`): the durable single-threaded sequencer a user would reach for instead —
/// Debian's `redis-server` with its append-only file synced before each reply (`appendfsync always`) or once a
/// second (`everysec`), on a unix socket in the bench's directory (the disk Containment's journal is on), driven by
/// `redis-benchmark` in Containment's shapes: one client one request at a time, and `clients` clients each with
/// `window` requests outstanding, each a SET of a value the size of Containment's request.
struct RedisPeer {
    /// `always` or `everysec`: when Redis syncs its append-only file.
    let fsync: String
    let socket: String
    let process: Process

    /// Starts `redis-server` with `fsync`, its files in `directory/redis-FSYNC`, and returns once it answers.
    static func start(fsync: String, directory: String) throws -> RedisPeer {
        let server = try executable(.name("redis-server"))
        let own = "\(directory)/redis-\(fsync)"
        try FileManager.default.createDirectory(atPath: own, withIntermediateDirectories: true)
        let socket = "\(own)/redis.sock"
        let process = Process()
        // Its signals at their default: started with this thread's mask, it would ignore the SIGTERM that stops it.
        process.setCommandWithDefaultSignals(
            server,
            [
                "--port", "0", "--unixsocket", socket, "--unixsocketperm", "700", "--dir", own, "--save", "",
                "--appendonly", "yes", "--appendfsync", fsync, "--daemonize", "no", "--logfile", "\(own)/redis.log",
            ]
        )
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let peer = RedisPeer(fsync: fsync, socket: socket, process: process)
        // Polled every 10 ms: serving once its socket answers a PING (the append-only file is open by then).
        let deadline = ContinuousClock.now + .seconds(20)
        while ContinuousClock.now < deadline, process.isRunning {
            if FileManager.default.fileExists(atPath: socket),
                (try? run(.name("redis-cli"), ["-s", socket, "ping"])) == "PONG"
            {
                return peer
            }
            Thread.sleep(forTimeInterval: 0.01)
        }
        peer.stop()
        throw LoadError("redis-server (appendfsync \(fsync)) did not serve; see \(own)/redis.log")
    }

    /// SIGTERM (Redis syncs and exits), then SIGKILL after 10 s, so that a Redis that ignores it cannot hold the
    /// bench; polled every 10 ms.
    func stop() {
        if process.isRunning { process.terminate() }
        for _ in 0..<1_000 where process.isRunning { Thread.sleep(forTimeInterval: 0.01) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }

    /// `redis-benchmark` of `requests` SETs of `bytes`-byte values by `clients` clients, each `pipeline` outstanding.
    /// Also times Redis's own use of a CPU meanwhile, per SET.
    func benchmark(clients: Int, pipeline: Int, requests: Int, bytes: Int) throws -> RedisRun {
        let before = ProcessSample.cpuNanos(of: process.processIdentifier)
        let csv = try Self.run(
            .name("redis-benchmark"),
            [
                "-s", socket, "-t", "set", "-n", String(requests), "-c", String(clients), "-P", String(pipeline),
                "-d", String(bytes), "--csv",
            ]
        )
        var run = try RedisRun(csv: csv)
        run.cpuMicros =
            Double(ProcessSample.cpuNanos(of: process.processIdentifier, since: before)) / Double(requests) / 1_000
        return run
    }

    /// A program found by its name on the PATH (as Subprocess's `Executable.name`).
    enum Program {
        case name(String)

        var name: String {
            switch self {
            case .name(let name): name
            }
        }
    }

    /// The path of `program` on the PATH, or a clear error naming what installs it.
    static func executable(_ program: Program) throws -> String {
        let name = program.name
        guard let found = ExecutablePath.find(name) else {
            throw LoadError("\(name) is not installed (bash scripts/setup.sh \(name) installs it)")
        }
        return found
    }

    /// Runs `name ARGUMENTS` to its end; its standard output, trimmed, or an error with what it said.
    private static func run(_ program: Program, _ arguments: [String]) throws -> String {
        let name = program.name
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try executable(program))
        process.arguments = arguments
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let said = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw LoadError("\(name) \(arguments.joined(separator: " ")) failed: \(said)")
        }
        return text.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}

/// What one `redis-benchmark` run reports (`--csv`): requests per second and latency percentiles, in µs.
struct RedisRun: Codable, Sendable {
    var perSecond: Double
    var p50: Double
    var p99: Double
    /// redis-server's time on a CPU per SET, µs (every thread of it).
    var cpuMicros = 0.0

    init(perSecond: Double, p50: Double, p99: Double, cpuMicros: Double) {
        self.perSecond = perSecond
        self.p50 = p50
        self.p99 = p99
        self.cpuMicros = cpuMicros
    }

    /// Reads the CSV's header and its SET row: `"test","rps",…,"p50_latency_ms",…,"p99_latency_ms",…`.
    init(csv: String) throws {
        let lines = csv.split(whereSeparator: \.isNewline).map {
            $0.split(separator: ",").map { $0.trimmingCharacters(in: CharacterSet(charactersIn: "\"")) }
        }
        guard let header = lines.first, let row = lines.dropFirst().first(where: { $0.first == "SET" }) else {
            throw LoadError("redis-benchmark printed no SET figure: \(csv)")
        }
        func value(_ name: String) throws -> Double {
            guard let index = header.firstIndex(of: name), index < row.count, let value = Double(row[index]) else {
                throw LoadError("redis-benchmark printed no \(name): \(csv)")
            }
            return value
        }
        perSecond = try value("rps")
        // A run within one of redis-benchmark's milliseconds has no rate it can tell.
        guard perSecond.isFinite else { throw LoadError("redis-benchmark's run was too short to time: \(csv)") }
        p50 = try value("p50_latency_ms") * 1_000
        p99 = try value("p99_latency_ms") * 1_000
    }

    /// Two runs' mean: one before Containment's figures, one after, so that a change in the machine's load during
    /// the bench falls on both sides alike.
    static func mean(_ a: RedisRun, _ b: RedisRun) -> RedisRun {
        RedisRun(
            perSecond: (a.perSecond + b.perSecond) / 2,
            p50: (a.p50 + b.p50) / 2,
            p99: (a.p99 + b.p99) / 2,
            cpuMicros: (a.cpuMicros + b.cpuMicros) / 2
        )
    }
}

/// Redis's figures with one fsync policy: a round trip (one client, one at a time) and pipelined throughput.
struct RedisFigure: Codable, Sendable {
    var fsync: String
    var roundTrip: RedisRun
    var pipelined: RedisRun
}
