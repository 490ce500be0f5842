import ArgumentParser
import ContainmentBench
import ContainmentRuntime

/// `containment bench [MODE]`: every figure of the runtime beside its baseline, measured in one run on this machine —
/// or one group of them alone. The drivers are the ContainmentBench library's; this is their command line.
struct BenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Measure the model, raw ZeroMQ and Containment in one run, each figure beside its baseline.",
        discussion: """
            Starts its own processes (echo and subscriber peers, a supervisor and hosts) in a fresh directory and \
            stops them. Prints a table (or --json) and whether each target is met; exits 0 either way. Without a \
            mode, every figure (`bench all`); a mode measures one group alone. See docs/BENCH.md for what each \
            figure measures.
            """,
        subcommands: [
            Mode<All>.self, Mode<Model>.self, Mode<Core>.self, Mode<Loop>.self, Mode<Codec>.self, Mode<Bus>.self,
            Mode<Host>.self,
            Mode<Calls>.self, Mode<Creation>.self, Mode<Durability>.self, Mode<Replicated>.self, Mode<Peer>.self,
        ],
        defaultSubcommand: Mode<All>.self
    )

    /// One mode: its name, and what it measures (``BenchMode/abstract``).
    protocol Described {
        static var mode: BenchMode { get }
    }
    enum All: Described { static let mode = BenchMode.all }
    enum Model: Described { static let mode = BenchMode.model }
    enum Core: Described { static let mode = BenchMode.core }
    enum Loop: Described { static let mode = BenchMode.loop }
    enum Codec: Described { static let mode = BenchMode.codec }
    enum Bus: Described { static let mode = BenchMode.bus }
    enum Host: Described { static let mode = BenchMode.host }
    enum Calls: Described { static let mode = BenchMode.calls }
    enum Creation: Described { static let mode = BenchMode.creation }
    enum Durability: Described { static let mode = BenchMode.durability }
    enum Replicated: Described { static let mode = BenchMode.replicated }
    enum Peer: Described { static let mode = BenchMode.peer }

    struct Mode<Which: Described>: ParsableCommand {
        static var configuration: CommandConfiguration {
            CommandConfiguration(commandName: Which.mode.rawValue, abstract: Which.mode.abstract)
        }

        @OptionGroup var arguments: BenchArguments

        func run() throws {
            // The replicated journal's figures need etcd's client, which only `containment-etcd` links.
            if Which.mode == .replicated { _ = try EtcdSupport.required(by: "containment bench replicated") }
            try Bench.run(Which.mode, arguments.options)
        }
    }
}

/// What every mode of `bench` takes (each uses those its figures need).
struct BenchArguments: ParsableArguments {
    @Flag(help: "Scaled down to run in seconds (a smoke test; figures are rough).") var quick = false
    @Flag(help: "Print the figures as JSON.") var json = false
    @Option(help: "Round trips timed for each latency figure (default 20000; quick 2000).") var roundTrips: Int?
    @Option(
        help: """
            Pipelined requests the throughput figures are measured over, after a tenth more to warm up (default \
            400000; quick 40000): each raw and Containment figure over all of them in 4 rounds, event delivery and \
            each journal's over an eighth.
            """
    )
    var requests: Int?
    @Option(help: "Pipelined clients (DEALERs).") var clients = 4
    @Option(help: "Requests each pipelined client keeps outstanding.") var window = 16
    @Option(help: "Messages each raw PUB→SUB run publishes (default 500000; quick 50000).") var pubSubMessages: Int?
    @Option(help: "Steps of the model's recorded stream (default 200000; quick 20000).") var modelCommands: Int?
    @Option(help: "Controllers to create (default 1000000; quick 5000).") var controllers: Int?
    @Option(help: "Hosts they are created over (default 16; quick 4).") var hosts: Int?
    @Option(help: "Creations per batch.") var batch = 100
    @Option(help: "set_alpha commands (each one event) per request while event delivery is measured (even).")
    var eventsPerRequest = 16
    @Option(help: "Events in the journal recovered (default 1000000; quick 50000).") var recoveryEvents: Int?
    @Option(help: "Controllers in the checkpoint recovered (default 1000000; quick 50000).")
    var recoveryControllers: Int?
    @Option(
        help:
            "Callbacks sent through one host per content figure, a quarter per busy one (default 200000; quick 20000)."
    )
    var hostCallbacks: Int?
    @Option(
        help: """
            Subscribers that never read, connected while event delivery is measured: the supervisor's resident size \
            before, at the peak and after they leave, and whether the measured subscribers still see every event.
            """
    )
    var stalledSubscribers = 0
    @Option(help: "Kills of the leader timed by `bench replicated` (default 20; quick 3).") var failovers: Int?
    @Flag(help: "Keep the working directory (peer logs, reports).") var keep = false

    func validate() throws {
        for (name, value) in [
            ("--round-trips", roundTrips), ("--pub-sub-messages", pubSubMessages), ("--model-commands", modelCommands),
            ("--controllers", controllers), ("--hosts", hosts), ("--clients", clients), ("--window", window),
            ("--batch", batch), ("--events-per-request", eventsPerRequest), ("--recovery-events", recoveryEvents),
            ("--recovery-controllers", recoveryControllers), ("--host-callbacks", hostCallbacks),
            ("--failovers", failovers), ("--requests", requests),
        ] where (value ?? 1) < 1 {
            throw ValidationError("\(name) must be at least 1")
        }
        if stalledSubscribers < 0 { throw ValidationError("--stalled-subscribers must not be negative") }
        if !eventsPerRequest.isMultiple(of: 2) { throw ValidationError("--events-per-request must be even") }
    }

    var options: BenchOptions {
        var options = BenchOptions()
        options.quick = quick
        options.json = json
        options.roundTrips = roundTrips
        options.requests = requests
        options.clients = clients
        options.window = window
        options.pubSubMessages = pubSubMessages
        options.modelCommands = modelCommands
        options.controllers = controllers
        options.hosts = hosts
        options.batch = batch
        options.eventsPerRequest = eventsPerRequest
        options.recoveryEvents = recoveryEvents
        options.recoveryControllers = recoveryControllers
        options.hostCallbacks = hostCallbacks
        options.stalledSubscribers = stalledSubscribers
        options.failovers = failovers
        options.etcdStore = EtcdSupport.current?.store
        options.keep = keep
        return options
    }
}
