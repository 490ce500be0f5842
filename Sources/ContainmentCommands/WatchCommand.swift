import ArgumentParser
import ContainmentCtl
import ContainmentHost
import ContainmentBus
import ContainmentClient
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
        var settings = EventWatch.Settings()
        settings.topics = topic
        settings.controllers = Set(controller)
        settings.fromStart = fromStart
        settings.count = count
        settings.idleTimeout = idleTimeout.map { .milliseconds(Int64($0 * 1000)) }
        let watch = EventWatch(config: config, keys: try runtime.clientKeys(of: config), settings: settings)
        do {
            try watch.run(show)
        } catch EventWatch.Failure.refused {
            show(
                .notice(
                    "the supervisor refused this subscriber: it has maxSubscribers connected, or (with CURVE) this key is not allowed"
                )
            )
            throw ExitStatus.unreachable
        }
    }

    /// Lines (or JSON objects) on standard output, unbuffered so a pipe sees each as it comes; notices and gaps on
    /// standard error too.
    func show(_ output: EventWatch.Output) {
        func write(_ line: String) { FileHandle.standardOutput.write(Data((line + "\n").utf8)) }
        switch output {
        case .snapshot(let tree):
            write(
                json
                    ? "{\"snapshot\":\(tree.json())}"
                    : "snapshot at seq \(tree.seq)\n\(tree.rendered())\nlive events after seq \(tree.seq)"
            )
        case .event(let event):
            write(json ? event.json : event.line)
        case .gap(let seqs):
            FileHandle.standardError.write(
                Data("watch: GAP: events \(seqs.lowerBound)…\(seqs.upperBound) were lost (a slow subscriber?)\n".utf8)
            )
            if json { write(JSONText.encode(["gap": [seqs.lowerBound, seqs.upperBound]])) }
        case .notice(let text):
            FileHandle.standardError.write(Data("watch: \(text)\n".utf8))
            if json { write(JSONText.encode(["notice": text])) }
        case .ready:
            // Tells a script or test that the subscription is in place.
            if let readyFile { _ = FileManager.default.createFile(atPath: readyFile, contents: Data()) }
        }
    }
}
