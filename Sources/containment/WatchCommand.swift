import ArgumentParser
import ContainmentBus
import ContainmentModel
import Foundation
import ZeroMQ

/// `containment watch`: the event stream, live (or a snapshot first, then live), with gaps reported loudly.
struct WatchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "watch",
        abstract: "Print lifecycle events as the supervisor publishes them.",
        discussion: """
            Topics are CATEGORY/EVENT/CONTROLLER with CATEGORY one of callbacks, structure, presentation, \
            containers, runtime; --topic subscribes to a prefix (e.g. callbacks or callbacks/viewWillAppear). Every \
            event carries a gap-free sequence number: without --topic, a missing number is reported on standard \
            error (and as a {"gap": …} object with --json).
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
        let subscriber = try context.socket(.sub)
        try subscriber.set(.receiveHighWaterMark, to: 0)
        try subscriber.connect(config.eventEndpoint)
        for prefix in topic.isEmpty ? [""] : topic { try subscriber.subscribe(prefix) }
        if let idleTimeout { try subscriber.set(.receiveTimeout, to: .milliseconds(Int64(idleTimeout * 1000))) }
        var printer = EventPrinter(json: json, controllers: Set(controller), checkGaps: topic.isEmpty, limit: count)
        if fromStart {
            // The Clone pattern: subscribe first, then take the snapshot, then skip what it already holds. If events
            // between the snapshot and the first one received are missing (the subscription was not yet in place),
            // take a newer snapshot and print it: a later snapshot replaces the earlier one.
            let client = try CommandClient(
                context: context,
                endpoint: config.commandEndpoint,
                timeout: config.requestTimeout
            )
            try await Task.sleep(for: .milliseconds(100))
            var tree = TreeView(snapshot: try client.snapshot())
            printer.printSnapshot(tree)
            markReady()
            var first = true
            while !printer.done, let frames = try subscriber.receive() {
                guard frames.count == 2, let event = try? WireEvent.decode(frames[1]) else { continue }
                if event.seq <= tree.seq { continue }
                if first, topic.isEmpty, event.seq > tree.seq + 1 {
                    tree = TreeView(snapshot: try client.snapshot())
                    printer.printSnapshot(tree)
                    if event.seq <= tree.seq { continue }
                }
                first = false
                tree.apply(event)
                printer.print(event)
            }
        } else {
            // A subscription reaches the publisher shortly after the connection: give it that moment.
            try await Task.sleep(for: .milliseconds(100))
            markReady()
            while !printer.done, let frames = try subscriber.receive() {
                guard frames.count == 2, let event = try? WireEvent.decode(frames[1]) else { continue }
                printer.print(event)
            }
        }
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
