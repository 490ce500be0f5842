import ArgumentParser
import ContainmentBench

/// `containment bench-peer`: the other process of `containment bench`'s measurements (hidden).
struct BenchPeerCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench-peer",
        abstract: "The other end of `containment bench`'s measurements (started by bench itself).",
        shouldDisplay: false,
        subcommands: [Echo.self, Subscribe.self, Stamp.self, Relay.self]
    )

    struct Echo: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Answer every request on a ROUTER.")

        @Option(help: "The endpoint to bind.") var endpoint: String
        @Option(help: "A file holding the reply frame (default: echo the request).") var replyFile: String?
        @Option(help: "Write each drained batch of requests here, O_DSYNC, before answering.") var syncFile: String?
        @Option(help: "Create this file once bound.") var readyFile: String?

        func run() throws {
            try BenchPeers.echo(endpoint: endpoint, replyFile: replyFile, syncFile: syncFile, readyFile: readyFile)
        }
    }

    struct Subscribe: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Count events on a SUB and report the rate.")

        @Option(help: "The endpoint to connect to.") var endpoint: String
        @Option(help: "Create this file on the first message.") var readyFile: String
        @Option(help: "Write the report (JSON) here when done.") var reportFile: String
        @Option(help: "Stop after this many measured messages (or 30 s after the last; 0: on --idle-ms).") var count = 0
        @Option(help: "Without --count: stop this long after the last measured message.") var idleMs = 1_000
        @Option(help: "Give up when nothing measured arrived for this long from the start.") var maxWaitMs = 120_000
        @Option(help: "The SUB's receive high-water mark (0: unlimited).") var highWaterMark = 0

        func run() throws {
            try BenchPeers.subscribe(
                endpoint: endpoint,
                readyFile: readyFile,
                reportFile: reportFile,
                count: count,
                idleMs: idleMs,
                maxWaitMs: maxWaitMs,
                highWaterMark: highWaterMark
            )
        }
    }

    struct Stamp: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Answer every message with its arrival time.")

        @Option(help: "The endpoint to bind.") var endpoint: String
        @Option(help: "Create this file once bound.") var readyFile: String?

        func run() throws { try BenchPeers.stamp(endpoint: endpoint, readyFile: readyFile) }
    }

    struct Relay: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Pass messages on to a backend and answers back.")

        @Option(help: "The endpoint clients connect to.") var frontend: String
        @Option(help: "The endpoint to pass messages on to.") var backend: String
        @Option(help: "Write each drained batch here, O_DSYNC, before passing it on.") var syncFile: String?
        @Option(help: "Create this file once bound.") var readyFile: String?

        func run() throws {
            try BenchPeers.relay(frontend: frontend, backend: backend, syncFile: syncFile, readyFile: readyFile)
        }
    }
}
