import ContainmentModel
import Foundation
import Yams

/// The runtime's settings: where the sockets are, how long to wait, how often hosts beat. A `Sendable` value with
/// defaults; ``load(from:environment:)`` reads `Config/runtime.yaml`'s keys (documented there) over them.
public struct RuntimeConfig: Sendable, Equatable {
    /// Sockets, pid files, logs and the journal (`CONTAINMENT_RUN_DIR`; default `$TMPDIR/containment-$USER`).
    public var runDirectory: String
    /// The supervisor's ROUTER: commands, snapshots, host registration.
    public var commandEndpoint: String
    /// The supervisor's PUB: every event.
    public var eventEndpoint: String
    /// How long a client waits for a reply.
    public var requestTimeout: Duration = .seconds(5)
    /// How long a standard container's animated switch runs (SPEC §13; key `animationDurationMs`).
    public var animationDuration: Duration = .milliseconds(350)
    /// How many items a tab container's bar shows before the last becomes More (SPEC §16; key `maxVisibleTabs`).
    public var maxVisibleTabs = 5
    /// How long a command waits for controllers' code to answer its questions (SPEC §15; key `answerTimeoutMs`):
    /// then what is unanswered is taken as nothing, and `answerTimedOut` names it.
    public var answerTimeout: Duration = .milliseconds(1_000)
    /// How often a host tells the supervisor it is alive.
    public var heartbeatInterval: Duration = .milliseconds(500)
    /// After this long without a heartbeat, the supervisor declares a host down.
    public var heartbeatTimeout: Duration = .milliseconds(2_000)
    /// The journal's directory: its segments (key `journal`).
    public var journalPath: String
    /// When the journal's writes are made durable: `batch` (default), `interval`, `none`.
    public var journalSync: JournalSync = .batch
    /// How the daemons write their logs: `text` (default) or `json` (`--log-format` overrides it).
    public var logFormat: LogFormat = .text
    /// The TCP port the supervisor serves Prometheus metrics on (`GET /metrics`); 0: none (default).
    public var metricsPort = 0
    /// The address it listens on for them.
    public var metricsBind = "127.0.0.1"
    /// Where `containment-web traces` sends the spans of traced commands over OTLP/HTTP (an OpenTelemetry
    /// collector, Jaeger or Tempo: `http://127.0.0.1:4318`, to which `/v1/traces` is added); "": none (default).
    public var otlpEndpoint = ""
    /// With `journalSync: interval`, the longest time a written record stays unsynced.
    public var journalSyncInterval: Duration = .milliseconds(100)
    /// A journal segment is closed and the next begun past this size.
    public var journalSegmentBytes = 64 << 20
    /// A checkpoint of the whole state is written after this many journal records (0: never), so recovery replays at
    /// most about this many records after loading it.
    public var checkpointEvery = 100_000
    /// How many checkpoints are kept, with the segments recovery from the oldest of them needs; older segments are
    /// removed (0: keep every segment and checkpoint).
    public var journalRetain = 2
    /// How many requests' answers the supervisor remembers per client id (a resend of one is answered again).
    public var dedupWindow = 64
    /// How many client ids it remembers (the least recently active are forgotten first).
    public var dedupClients = 4_096
    /// How many bytes the remembered answers' events may take together (64 MiB); past it the oldest answers are kept
    /// without their events — still never applied again — and so is any answer over 64 KiB (docs/OPERATIONS.md).
    public var answerCacheBytes = 64 << 20
    /// How many bytes of replies the supervisor keeps for one peer that reads them slower than they come (4 MiB),
    /// besides the few messages libzmq holds for it; past half of it, snapshots for that peer are refused
    /// (`limitExceeded`) until it catches up, and past all of it replies are dropped (docs/OPERATIONS.md).
    public var replyQueueBytes = 4 << 20
    /// When a host process the supervisor started (`supervisor --start-hosts`) ends: started again per this mode, at
    /// most `maxRestarts` times within `restartWindow`, else given up on (`hostFailed`).
    public var hostRestart = RestartMode.permanent
    public var maxRestarts = 5
    public var restartWindow: Duration = .seconds(10)
    /// How many callbacks a controller actor's mailbox holds; a host whose actor's mailbox is full stops taking
    /// deliveries until it has room (a slow host, not unbounded memory).
    public var mailboxCapacity = 1_024
    /// How many of its most recent callbacks each controller actor keeps for `inspect` (every callback is counted in
    /// its digest regardless).
    public var callbackHistory = 64
    /// How many callbacks the supervisor keeps for a host that is down (or slow to take them) until it is back; past
    /// that it drops them and brings the host up to date with `restored` when it returns (bounded memory).
    public var pendingDeliveries = 65_536
    /// Limits on what a peer may send (`limitExceeded`, docs/SECURITY.md): a message's size (larger ones cost the
    /// sender its connection: libzmq's `ZMQ_MAXMSGSIZE`), every text in a request (an id, a name, a title), the
    /// commands of one request, and how many of them may concern one host.
    public var maxMessageBytes = 1 << 20
    public var maxTextBytes = 256
    public var maxBatch = 1_000
    public var maxHostShare = 500
    /// How many events the supervisor queues for one subscriber that reads slower than they come (libzmq's send
    /// high-water mark on its PUB); past that, that subscriber loses events and sees the gap in their seqs.
    public var subscriberQueue = 10_000
    /// How many subscribers may be connected at once; more are refused at the handshake (ZAP).
    public var maxSubscribers = 128
    /// Let a host that neither the topology nor the journal names register (any peer that says `Hello` with a new
    /// name, without CURVE); off by default: such a `Hello` is refused `unauthorized`, and a create may not name such a
    /// host.
    public var acceptUnknownHosts = false
    /// Bind `tcp://` endpoints without CURVE (docs/SECURITY.md): anyone who reaches the port is then trusted.
    public var insecure = false
    /// CURVE on both sockets, with the keys and the allow-list (`curve` in runtime.yaml); `nil`: no CURVE.
    public var curve: CurveSettings?

    /// Where the journal lives: the directory `journalPath` (default), or etcd (`journal: etcd` and an `etcd` section;
    /// docs/DURABILITY.md, "Replicated").
    public var journalStore = JournalStore.directory
    /// With `journal: etcd`, the supervisors that share this runtime (runtime.yaml `supervisors`): one leads, the others
    /// stand by. Empty: one supervisor, on `command` and `events`.
    public var supervisors: [SupervisorEntry] = []
    /// Which of ``supervisors`` this process is (`supervisor --name`), once chosen with ``selecting(supervisor:)``.
    public var supervisorName: String?

    /// The file these settings were read from, absolute (`nil`: the defaults): the supervisor passes it on to the
    /// hosts it starts.
    public var path: String?

    public init(runDirectory: String) {
        self.runDirectory = runDirectory
        commandEndpoint = "ipc://\(runDirectory)/command.sock"
        eventEndpoint = "ipc://\(runDirectory)/events.sock"
        journalPath = "\(runDirectory)/journal"
    }

    /// `CONTAINMENT_RUN_DIR`, or `$TMPDIR/containment-$USER` (`/tmp` when `TMPDIR` is unset).
    public static func defaultRunDirectory(
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> String {
        if let directory = environment["CONTAINMENT_RUN_DIR"], !directory.isEmpty { return directory }
        let temporary = environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        let user = environment["USER"] ?? environment["LOGNAME"] ?? String(getuid())
        return "\(temporary.hasSuffix("/") ? String(temporary.dropLast()) : temporary)/containment-\(user)"
    }

    /// The defaults for the run directory, then the keys of the YAML file at `path` (or `CONTAINMENT_CONFIG`), with
    /// `{run}` in a value replaced by the run directory.
    public static func load(
        from path: String? = nil,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws -> RuntimeConfig {
        let run = defaultRunDirectory(environment: environment)
        var config = RuntimeConfig(runDirectory: run)
        guard let path = path ?? environment["CONTAINMENT_CONFIG"].flatMap({ $0.isEmpty ? nil : $0 }) else {
            return config
        }
        let text: String
        do {
            text = try String(contentsOfFile: path, encoding: .utf8)
        } catch {
            throw ConfigError("Cannot read the runtime configuration \(path): \(error.localizedDescription)")
        }
        config.path = URL(fileURLWithPath: path).standardizedFileURL.path
        let file: File
        do {
            // A file of comments only (or nothing) sets nothing: every key is optional. (Composed, not loaded: Yams's
            // `load` traps on a mapping key that is itself a collection — `{n}: 10` — found by scripts/fuzz.sh.)
            guard try Yams.compose(yaml: text) != nil else { return config }
            try StrictKeys.check(text, against: keySchema)
            file = try YAMLDecoder().decode(File.self, from: text)
        } catch let error as ConfigError {
            throw StrictKeys.located(error, in: path)
        } catch {
            throw ConfigError("The runtime configuration \(path) is not valid: \(error)")
        }
        func expand(_ value: String) -> String { value.replacingOccurrences(of: "{run}", with: run) }
        if let value = file.command { config.commandEndpoint = expand(value) }
        if let value = file.events { config.eventEndpoint = expand(value) }
        if let value = file.journal, value != "etcd" { config.journalPath = expand(value) }
        try config.readReplication(file.journal, file.etcd, file.supervisors, path: path, expand: expand)
        /// `value` when it is within `range` (what it feeds can take: a socket option, a timer, memory); a clear
        /// error naming the key, the range and why otherwise.
        func within(_ range: ClosedRange<Int>, _ key: String, _ number: FileNumber?, _ why: String = "") throws -> Int?
        {
            guard let number else { return nil }
            guard let value = number.value, range.contains(value) else {
                throw ConfigError(
                    "\(path): \(key) must be a whole number from \(range.lowerBound) to \(range.upperBound)\(why), not "
                        + "\(number.text)."
                )
            }
            return value
        }
        let hour = 3_600_000
        if let value = try within(1...hour, "requestTimeoutMs", file.requestTimeoutMs, " (an hour)") {
            config.requestTimeout = .milliseconds(value)
        }
        if let value = try within(1...600_000, "animationDurationMs", file.animationDurationMs, " (ten minutes)") {
            config.animationDuration = .milliseconds(value)
        }
        if let value = try within(2...100, "maxVisibleTabs", file.maxVisibleTabs, "") {
            config.maxVisibleTabs = value
        }
        if let value = try within(1...60_000, "answerTimeoutMs", file.answerTimeoutMs, " (a minute)") {
            config.answerTimeout = .milliseconds(value)
        }
        if let value = try within(10...60_000, "heartbeatIntervalMs", file.heartbeatIntervalMs, " (a minute)") {
            config.heartbeatInterval = .milliseconds(value)
        }
        if let value = try within(1...hour, "heartbeatTimeoutMs", file.heartbeatTimeoutMs, " (an hour)") {
            config.heartbeatTimeout = .milliseconds(value)
        }
        // A host is judged on its beats: a timeout shorter than two intervals declares a live host down between two.
        guard config.heartbeatTimeout >= config.heartbeatInterval * 2 else {
            throw ConfigError(
                "\(path): heartbeatTimeoutMs (\(config.heartbeatTimeout.milliseconds)) must be at least twice "
                    + "heartbeatIntervalMs (\(config.heartbeatInterval.milliseconds)): a live host would be declared "
                    + "down between two of its heartbeats."
            )
        }
        if let value = file.journalSync {
            guard let mode = JournalSync(rawValue: value) else {
                throw ConfigError("\(path): journalSync must be batch, interval or none, not \(value).")
            }
            config.journalSync = mode
        }
        if let number = file.metricsPort {
            guard let value = number.value, (0...65_535).contains(value) else {
                throw ConfigError(
                    "\(path): metricsPort must be a TCP port (1 to 65535), or 0 for none, not \(number.text)."
                )
            }
            config.metricsPort = value
        }
        if let value = file.metricsBind { config.metricsBind = value }
        if let value = file.otlpEndpoint {
            guard value.isEmpty || value.hasPrefix("http://") || value.hasPrefix("https://") else {
                throw ConfigError(
                    "\(path): otlpEndpoint must be an http:// or https:// URL, or \"\" for none, not \(value)."
                )
            }
            config.otlpEndpoint = value
        }
        if let value = file.logFormat {
            guard let format = LogFormat(rawValue: value) else {
                throw ConfigError("\(path): logFormat must be text or json, not \(value).")
            }
            config.logFormat = format
        }
        if let value = try within(1...60_000, "journalSyncIntervalMs", file.journalSyncIntervalMs, " (a minute)") {
            config.journalSyncInterval = .milliseconds(value)
        }
        if let value = try within(4096...(1 << 32), "journalSegmentBytes", file.journalSegmentBytes, " (4 GiB)") {
            config.journalSegmentBytes = value
        }
        if let value = try within(0...100_000_000, "checkpointEvery", file.checkpointEvery, " (0: never)") {
            config.checkpointEvery = value
        }
        if let value = try within(0...1_000, "journalRetain", file.journalRetain, " (0: keep all)") {
            config.journalRetain = value
        }
        if let value = try within(1...65_536, "dedupWindow", file.dedupWindow) { config.dedupWindow = value }
        if let value = try within(1...1_000_000, "dedupClients", file.dedupClients) { config.dedupClients = value }
        if let value = try within(0...(1 << 40), "answerCacheBytes", file.answerCacheBytes) {
            config.answerCacheBytes = value
        }
        if let value = try within(4096...(1 << 40), "replyQueueBytes", file.replyQueueBytes) {
            config.replyQueueBytes = value
        }
        if let value = try within(0...1_000_000, "callbackHistory", file.callbackHistory) {
            config.callbackHistory = value
        }
        if let value = try within(1...1_000_000, "mailboxCapacity", file.mailboxCapacity) {
            config.mailboxCapacity = value
        }
        if let value = try within(1...10_000_000, "pendingDeliveries", file.pendingDeliveries) {
            config.pendingDeliveries = value
        }
        // A request is journaled as one record: no larger than the journal's largest (JournalLimits.maxRecord).
        if let value = try within(1024...(64 << 20), "maxMessageBytes", file.maxMessageBytes, " (64 MiB)") {
            config.maxMessageBytes = value
        }
        if let value = try within(16...(1 << 20), "maxTextBytes", file.maxTextBytes, " (1 MiB)") {
            config.maxTextBytes = value
        }
        if let value = try within(1...100_000, "maxBatch", file.maxBatch) { config.maxBatch = value }
        if let value = try within(1...100_000, "maxHostShare", file.maxHostShare) { config.maxHostShare = value }
        if let value = try within(1...1_000_000, "subscriberQueue", file.subscriberQueue) {
            config.subscriberQueue = value
        }
        if let value = try within(1...10_000, "maxSubscribers", file.maxSubscribers) { config.maxSubscribers = value }
        if let value = file.insecure { config.insecure = value }
        if let value = file.acceptUnknownHosts { config.acceptUnknownHosts = value }
        if let entry = file.curve {
            guard let server = entry.server else {
                throw ConfigError("\(path): curve needs server (a key pair's path).")
            }
            config.curve = CurveSettings(
                server: expand(server),
                client: expand(entry.client ?? "{run}/keys/operator"),
                host: expand(entry.host ?? "{run}/keys/host-{host}"),
                allow: (entry.allow ?? []).map { (expand($0.key), $0.role) }
            )
        }
        if let value = file.hostRestart {
            guard let mode = RestartMode(rawValue: value) else {
                throw ConfigError("\(path): hostRestart must be permanent, transient or temporary, not \(value).")
            }
            config.hostRestart = mode
        }
        if let value = try within(0...10_000, "maxRestarts", file.maxRestarts) { config.maxRestarts = value }
        if let value = try within(1...86_400_000, "restartWindowMs", file.restartWindowMs, " (a day)") {
            config.restartWindow = .milliseconds(value)
        }
        return config
    }

    /// A supervisor may bind its endpoints: a `tcp://` one is open to the network, so it needs CURVE (`curve`) or
    /// `insecure: true` (docs/SECURITY.md).
    public func checkBindable() throws {
        for endpoint in [commandEndpoint, eventEndpoint] where endpoint.hasPrefix("tcp://") && !insecure && curve == nil
        {
            throw ConfigError(
                "\(endpoint) would be open to anyone who reaches it, without CURVE; configure curve, or set "
                    + "insecure: true in runtime.yaml to bind it anyway (docs/SECURITY.md)."
            )
        }
    }

    /// The keys runtime.yaml may hold: its types' own.
    package static let keySchema: KeySchema = {
        var top = KeySchema("the runtime configuration", File.CodingKeys.self)
        var curve = KeySchema("curve", CurveEntry.CodingKeys.self)
        curve.items["allow"] = KeySchema("an allow entry", AllowEntry.CodingKeys.self)
        top.mappings["curve"] = curve
        top.mappings["etcd"] = KeySchema("etcd", EtcdEntry.CodingKeys.self)
        top.items["supervisors"] = KeySchema("a supervisor", SupervisorFileEntry.CodingKeys.self, nameKey: "name")
        return top
    }()

    /// The keys of `Config/runtime.yaml`.
    package struct File: Decodable {
        var command: String?
        var events: String?
        var journal: String?
        var requestTimeoutMs: FileNumber?
        var animationDurationMs: FileNumber?
        var maxVisibleTabs: FileNumber?
        var answerTimeoutMs: FileNumber?
        var heartbeatIntervalMs: FileNumber?
        var heartbeatTimeoutMs: FileNumber?
        var callbackHistory: FileNumber?
        var mailboxCapacity: FileNumber?
        var pendingDeliveries: FileNumber?
        var maxMessageBytes: FileNumber?
        var maxTextBytes: FileNumber?
        var maxBatch: FileNumber?
        var maxHostShare: FileNumber?
        var subscriberQueue: FileNumber?
        var maxSubscribers: FileNumber?
        var insecure: Bool?
        var acceptUnknownHosts: Bool?
        var curve: CurveEntry?
        var etcd: EtcdEntry?
        var supervisors: [SupervisorFileEntry]?

        var hostRestart: String?
        var maxRestarts: FileNumber?
        var restartWindowMs: FileNumber?
        var journalSync: String?
        var logFormat: String?
        var metricsPort: FileNumber?
        var metricsBind: String?
        var otlpEndpoint: String?
        var journalSyncIntervalMs: FileNumber?
        var journalSegmentBytes: FileNumber?
        var checkpointEvery: FileNumber?
        var journalRetain: FileNumber?
        var dedupWindow: FileNumber?
        var dedupClients: FileNumber?
        var answerCacheBytes: FileNumber?
        var replyQueueBytes: FileNumber?

        enum CodingKeys: String, CodingKey, CaseIterable {
            case command, events, journal, requestTimeoutMs, animationDurationMs, maxVisibleTabs, answerTimeoutMs
            case heartbeatIntervalMs, heartbeatTimeoutMs, callbackHistory, mailboxCapacity, pendingDeliveries
            case maxMessageBytes, maxTextBytes, maxBatch, maxHostShare, subscriberQueue, maxSubscribers, insecure
            case acceptUnknownHosts, curve, hostRestart, maxRestarts, restartWindowMs, journalSync, logFormat
            case metricsPort, metricsBind, otlpEndpoint, journalSyncIntervalMs, journalSegmentBytes, checkpointEvery,
                journalRetain
            case dedupWindow, dedupClients, answerCacheBytes, replyQueueBytes, etcd, supervisors
        }
    }

    package struct CurveEntry: Decodable {
        var server: String?
        var client: String?
        var host: String?
        var allow: [AllowEntry]?

        enum CodingKeys: String, CodingKey, CaseIterable {
            case server, client, host, allow
        }
    }

    package struct AllowEntry: Decodable {
        var key: String
        var role: String

        enum CodingKeys: String, CodingKey, CaseIterable {
            case key, role
        }
    }
}

/// A configuration or topology file that cannot be used, with the reason.
public struct ConfigError: Error, CustomStringConvertible, Sendable {
    public let description: String
    public init(_ description: String) { self.description = description }
}

/// A number of runtime.yaml as written: a whole number, or the text of what is not one (too large for 64 bits, a
/// fraction, a word), so that the error names the key and its range either way — not a decoder's type mismatch.
package struct FileNumber: Decodable {
    package let value: Int?
    package let text: String

    package init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let whole = try? container.decode(Int.self) {
            (value, text) = (whole, String(whole))
        } else if let written = try? container.decode(String.self) {
            (value, text) = (nil, written)
        } else {
            (value, text) = (nil, "a value that is not a number")
        }
    }
}

extension RuntimeConfig {
    /// The model's settings from this configuration: how long animated switches run and how many tabs a bar shows.
    /// The supervisor, the topology's check and recovery's replay all take them, so a replay decides as the
    /// supervisor did.
    package func configure(_ state: inout ContainmentState) {
        state.animationDuration = Double(animationDuration.milliseconds) / 1_000
        state.maxVisibleTabs = maxVisibleTabs
    }
}
