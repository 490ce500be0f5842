import ArgumentParser
import ContainmentHost
import ContainmentBus
import ContainmentModel
import ContainmentRuntime
import Foundation
import ZeroMQ

/// `containment watch`: the event stream, live (or a snapshot first, then live), with gaps reported loudly.
struct WatchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "watch",
        abstract: "Print lifecycle events as the supervisor publishes them.",
        discussion: """
            Topics are CATEGORY/EVENT/CONTROLLER with CATEGORY one of callbacks, structure, presentation, \
            containers, messages, input, runtime; --topic subscribes to a prefix (e.g. callbacks or \
            callbacks/viewWillAppear). Every event carries a gap-free sequence number: without --topic, a missing \
            number is reported on standard error (and as a {"gap": …} object with --json).
            """
    )

    @Flag(help: "One JSON object per line (SPEC §10 names: seq, event, controller, …).")
    var json = false

    @Option(help: "Subscribe to a topic prefix (repeatable); default: everything.")
    var topic: [String] = []

    @Option(help: "Only events about this controller (repeatable).")
    var controller: [String] = []

    @Flag(help: "Start with a snapshot of the whole state, then the live events after it: nothing missed or doubled.")
    var fromStart = false

    @Option(help: "Exit after printing this many events.")
    var count: Int?

    @Option(help: "Exit after this many seconds without an event.")
    var idleTimeout: Double?

    @Option(help: "Create this file once subscribed (and, with --from-start, once the snapshot is printed).")
    var readyFile: String?

    @OptionGroup var runtime: RuntimeOptions

    func run() async throws {
        let config = try runtime.load()
        let context = try Context()
        let keys: CurveClientKeys?
        do {
            keys = try config.clientKeys()
        } catch let error as ConfigError {
            throw ValidationError(error.description)
        }
        let subscriber = try context.socket(.sub)
        if let keys { try subscriber.makeCurveClient(keys) }
        // Bounded: a reader slower than the events makes the supervisor drop some for it, which shows as a gap (or a
        // heartbeat's seq) and is caught up by snapshot, instead of this process growing without bound.
        try subscriber.set(.receiveHighWaterMark, to: Self.receiveBound)
        // A refusal at the handshake (maxSubscribers connected, or a key not allowed) is final: libzmq does not try
        // again, so it is said and watch exits instead of waiting in silence.
        let monitorEndpoint = "inproc://watch-subscriber-monitor"
        try subscriber.monitor(monitorEndpoint, events: [.handshakeFailedAuth])
        let monitor = try context.socket(.pair)
        try monitor.connect(monitorEndpoint)
        try subscriber.connect(config.eventEndpoint)
        for prefix in topic.isEmpty ? [""] : topic { try subscriber.subscribe(prefix) }
        try subscriber.subscribe(String(decoding: WireEvent.heartbeatTopic, as: UTF8.self))
        // Wake at least every heartbeat interval, to notice silence.
        let wake = idleTimeout.map { min(config.heartbeatInterval, .milliseconds(Int64($0 * 1000))) }
        try subscriber.set(.receiveTimeout, to: wake ?? config.heartbeatInterval)
        let printer = EventPrinter(json: json, controllers: Set(controller), checkGaps: topic.isEmpty, limit: count)
        var session = WatchSession(printer: printer, fromStart: fromStart) {
            try CommandClient(
                context: context,
                endpoint: config.commandEndpoint,
                timeout: config.requestTimeout,
                curve: keys
            )
            .snapshot()
        }
        // A subscription reaches the publisher shortly after the connection: give it that moment.
        try await Task.sleep(for: .milliseconds(100))
        if fromStart { try session.resnapshot(reason: nil) }
        markReady()
        let clock = ContinuousClock()
        var lastHeard = clock.now
        var lastEvent = clock.now
        var silent = false
        let idleLimit = idleTimeout.map { Duration.milliseconds(Int64($0 * 1000)) }
        // Silence longer than this (three heartbeats) means the supervisor is gone or stuck.
        let silenceLimit = config.heartbeatInterval * 3
        while !session.printer.done {
            if let idleLimit, clock.now - lastEvent >= idleLimit { return }
            if let frames = try monitor.receive(dontWait: true),
                SocketEvent(frames: frames)?.kind == .handshakeFailedAuth
            {
                session.notice(
                    "the supervisor refused this subscriber: it has maxSubscribers connected, or (with CURVE) this key "
                        + "is not allowed"
                )
                throw ExitStatus.unreachable
            }
            guard let frames = try subscriber.receive() else {
                let quiet = clock.now - lastHeard
                if !silent, quiet >= silenceLimit {
                    silent = true
                    session.notice("no word from the supervisor for \(quiet.components.seconds) s (is it down?)")
                }
                continue
            }
            guard frames.count == 2 else { continue }
            if silent {
                silent = false
                session.notice("the supervisor is heard again")
            }
            if frames[0] == WireEvent.heartbeatTopic {
                lastHeard = clock.now
                if let beat = try? Containment_V1_EventHeartbeat(serializedBytes: frames[1]) {
                    try session.heartbeat(beat)
                }
                continue
            }
            guard let event = try? WireEvent.decode(frames[1]) else { continue }
            lastHeard = clock.now
            lastEvent = lastHeard
            try session.receive(event, checkGaps: topic.isEmpty)
        }
    }

    /// Events the subscriber queues before the supervisor drops some for it.
    static let receiveBound = 10_000
}

/// What `watch` knows of the stream: the epoch and seq reached, and the tree (with --from-start). A restart (another
/// epoch), a gap or a heartbeat ahead of the last event is said in one line; with --from-start the tree is caught up
/// by a snapshot, without it the events simply go on (seqs are never reused; lost ones are reported as a gap).
struct WatchSession {
    var printer: EventPrinter
    let fromStart: Bool
    let takeSnapshot: () throws -> WireSnapshot
    var tree: TreeView?
    var epoch: UInt64?
    var lastSeq: UInt64?

    init(printer: EventPrinter, fromStart: Bool, snapshot: @escaping () throws -> WireSnapshot) {
        self.printer = printer
        self.fromStart = fromStart
        takeSnapshot = snapshot
    }

    /// Takes a snapshot: the state, its seq and epoch; printed with --from-start.
    mutating func resnapshot(reason: String?) throws {
        let snapshot = try takeSnapshot()
        if let reason {
            notice("\(reason); caught up by a snapshot at seq \(snapshot.seq) (epoch \(snapshot.epoch))")
        }
        epoch = snapshot.epoch
        lastSeq = snapshot.seq
        printer.lastSeq = snapshot.seq
        if fromStart {
            let view = TreeView(snapshot: snapshot)
            tree = view
            printer.printSnapshot(view)
        }
    }

    mutating func heartbeat(_ beat: Containment_V1_EventHeartbeat) throws {
        if let epoch, beat.epoch != epoch {
            try restarted(epoch, beat.epoch, seq: beat.seq)
        } else if let lastSeq, beat.seq > lastSeq, printer.checkGaps {
            if fromStart {
                try resnapshot(reason: "events \(lastSeq + 1)…\(beat.seq) were lost (a slow reader?)")
            } else {
                notice(
                    "events \(lastSeq + 1)…\(beat.seq) were lost (a slow reader?); going on from seq \(beat.seq + 1)"
                )
                self.lastSeq = beat.seq
                printer.lastSeq = beat.seq
            }
        } else if epoch == nil {
            epoch = beat.epoch
            if lastSeq == nil {
                lastSeq = beat.seq
                printer.lastSeq = beat.seq
            }
        }
    }

    /// Another epoch: the supervisor restarted. With --from-start the tree is taken again.
    private mutating func restarted(_ old: UInt64, _ new: UInt64, seq: UInt64) throws {
        if fromStart {
            try resnapshot(reason: "the supervisor restarted (epoch \(old) → \(new))")
        } else {
            notice("the supervisor restarted (epoch \(old) → \(new)); its events go on after seq \(lastSeq ?? 0)")
            epoch = new
        }
    }

    mutating func receive(_ event: WireEvent, checkGaps: Bool) throws {
        if let epoch, event.epoch != epoch {
            try restarted(epoch, event.epoch, seq: event.seq)
            if fromStart, event.seq <= lastSeq ?? 0 { return }
        }
        if epoch == nil { epoch = event.epoch }
        if fromStart {
            guard let last = lastSeq, event.seq > last else { return }  // already in the snapshot
            if checkGaps, event.seq > last + 1 {
                try resnapshot(reason: "events \(last + 1)…\(event.seq - 1) were lost (a slow reader?)")
                guard event.seq > lastSeq ?? 0 else { return }
            }
            tree?.apply(event)
        }
        lastSeq = max(lastSeq ?? 0, event.seq)
        printer.print(event)
    }

    /// One line on standard error (and a {"notice": …} object with --json).
    func notice(_ text: String) {
        FileHandle.standardError.write(Data("watch: \(text)\n".utf8))
        if printer.json { FileHandle.standardOutput.write(Data((JSONText.encode(["notice": text]) + "\n").utf8)) }
    }
}

extension WatchCommand {
    /// Tells a script or test that the subscription is in place.
    func markReady() {
        guard let readyFile else { return }
        _ = FileManager.default.createFile(atPath: readyFile, contents: Data())
    }
}

/// Prints events as lines or JSON, filters by controller, reports gaps.
struct EventPrinter {
    let json: Bool
    let controllers: Set<String>
    let checkGaps: Bool
    let limit: Int?
    var lastSeq: UInt64?
    var printed = 0

    init(json: Bool, controllers: Set<String>, checkGaps: Bool, limit: Int?) {
        self.json = json
        self.controllers = controllers
        self.checkGaps = checkGaps
        self.limit = limit
    }

    var done: Bool { limit.map { printed >= $0 } ?? false }

    mutating func printSnapshot(_ tree: TreeView) {
        lastSeq = tree.seq
        if json {
            write("{\"snapshot\":\(tree.json())}")
        } else {
            write("snapshot at seq \(tree.seq)\n\(tree.rendered())\nlive events after seq \(tree.seq)")
        }
    }

    mutating func print(_ event: WireEvent) {
        if checkGaps, let last = lastSeq, event.seq > last + 1 {
            let missing = "\(last + 1)…\(event.seq - 1)"
            FileHandle.standardError.write(Data("watch: GAP: events \(missing) were lost (a slow subscriber?)\n".utf8))
            if json { write(JSONText.encode(["gap": [last + 1, event.seq - 1]])) }
        }
        lastSeq = max(lastSeq ?? 0, event.seq)
        guard controllers.isEmpty || controllers.contains(event.controller) else { return }
        write(json ? event.json : event.line)
        printed += 1
    }

    /// Unbuffered, so a pipe sees each event as it comes.
    private func write(_ line: String) {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }
}
