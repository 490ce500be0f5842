import ArgumentParser
import ContainmentHost
import ContainmentBus
import ContainmentClient
import ContainmentModel
import ContainmentRuntime
import Foundation

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

    @Option(
        help: """
            Create this file once the subscription is seen to work (its first heartbeat or event; after three \
            heartbeat intervals of silence at the latest) and, with --from-start, the snapshot is printed.
            """
    )
    var readyFile: String?

    @OptionGroup var runtime: RuntimeOptions

    func run() async throws {
        let config = try runtime.load()
        let keys = try runtime.clientKeys(of: config)
        // Wake at least every heartbeat interval, to notice silence. Bounded: a reader slower than the events makes
        // the supervisor drop some for it, which shows as a gap (or a heartbeat's seq) and is caught up by snapshot,
        // instead of this process growing without bound.
        let wake = idleTimeout.map { min(config.heartbeatInterval, .milliseconds(Int64($0 * 1000))) }
        let subscriber = try EventSocket(
            ownContextTo: config.eventEndpoint,
            keys: keys,
            topics: topic,
            bound: Self.receiveBound,
            wake: wake ?? config.heartbeatInterval
        )
        var printer = EventPrinter(json: json, controllers: Set(controller), checkGaps: topic.isEmpty, limit: count)
        // With --from-start the state is taken once the subscription is seen working (three heartbeats at most).
        var follower = CloneFollower(
            fromStart: fromStart,
            checkGaps: topic.isEmpty,
            joinWait: config.heartbeatInterval * 3
        ) {
            try CommandClient(
                ownContextTo: config.commandEndpoint,
                timeout: config.requestTimeout,
                curve: keys
            )
            .snapshot()
        }
        let clock = ContinuousClock()
        // Ready once the subscription is seen to work (the first heartbeat or event through it) or, from a silent
        // supervisor, after three heartbeat intervals: a script that acts once the file exists misses nothing.
        let started = clock.now
        var ready = false
        func becomeReady() {
            guard !ready else { return }
            ready = true
            markReady()
        }
        var lastHeard = clock.now
        var lastEvent = clock.now
        var silent = false
        let idleLimit = idleTimeout.map { Duration.milliseconds(Int64($0 * 1000)) }
        // Silence longer than this (three heartbeats) means the supervisor is gone or stuck.
        let silenceLimit = config.heartbeatInterval * 3
        while !printer.done {
            if let idleLimit, clock.now - lastEvent >= idleLimit { return }
            let received = try subscriber.receive()
            let heard: Bool =
                switch received {
                case .event, .heartbeat: true
                default: false
                }
            // A heartbeat or an event always finds the follower begun, the state shown before it.
            if try follower.join(heard: heard, now: clock.now) { printer.show(follower.take()) }
            switch received {
            case .refused:
                printer.notice(
                    "the supervisor refused this subscriber: it has maxSubscribers connected, or (with CURVE) this key "
                        + "is not allowed"
                )
                throw ExitStatus.unreachable
            case .nothing:
                if clock.now - started >= config.heartbeatInterval * 3 { becomeReady() }
                let quiet = clock.now - lastHeard
                if !silent, quiet >= silenceLimit {
                    silent = true
                    printer.notice("no word from the supervisor for \(quiet.components.seconds) s (is it down?)")
                }
                continue
            case .undecodable:
                continue
            case .heartbeat(let beat):
                becomeReady()
                lastHeard = clock.now
                if silent {
                    silent = false
                    printer.notice("the supervisor is heard again")
                }
                try follower.heartbeat(beat)
            case .event(let event, _):
                becomeReady()
                lastHeard = clock.now
                lastEvent = lastHeard
                if silent {
                    silent = false
                    printer.notice("the supervisor is heard again")
                }
                try follower.receive(event)
            }
            printer.show(follower.take())
        }
    }

    static let receiveBound = 10_000
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

    /// What the follower gave, in order (stopping at the limit).
    mutating func show(_ outputs: [CloneFollower.Output]) {
        for output in outputs where !done {
            switch output {
            case .snapshot(let snapshot): printSnapshot(TreeView(snapshot: snapshot))
            case .event(let event): print(event)
            case .skipped(let seq): lastSeq = seq
            case .notice(let text): notice(text)
            }
        }
    }

    /// One line on standard error (and a {"notice": …} object with --json).
    func notice(_ text: String) {
        FileHandle.standardError.write(Data("watch: \(text)\n".utf8))
        if json { FileHandle.standardOutput.write(Data((JSONText.encode(["notice": text]) + "\n").utf8)) }
    }

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
