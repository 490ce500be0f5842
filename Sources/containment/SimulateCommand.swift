import ArgumentParser
import ContainmentSimulation
import Foundation

/// `containment simulate`: the whole runtime in one thread under a seeded scheduler of faults (docs/SIMULATION.md).
struct SimulateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "simulate",
        abstract: "Run the runtime in a simulated world per seed, inject faults, check the history against the model.",
        discussion: """
            The real supervisor and host cores, `stress`'s clients and subscribers, on a simulated network, disk and \
            clock: supervisors killed and torn in a write, disks full, hosts killed, stopped and cut off, connections \
            dropped, the network slowed — each drawn from the seed. Every run ends with `stress`'s checks. The same \
            seed prints the same lines; a failure names its seed, and `--seed N --trace` replays it step by step.
            """
    )

    @Option(help: "The first seed.") var seed: UInt64 = 1
    @Option(help: "How many seeds to run, from --seed on.") var seeds = 1
    @Option(help: "Seeds run at once, each world on its own thread (default: the machine's cores).")
    var jobs = ProcessInfo.processInfo.activeProcessorCount
    @Option(help: "Simulated time each seed's clients run under faults (10s, 10m, 500ms).") var duration = "10s"
    @Option(help: "A client's mean pause between an answer and its next command: the load (2.5ms, 250ms).")
    var think = "2.5ms"
    @Option(help: "Faults to inject, comma-separated (all, none, or: \(Self.kinds)).") var faults = "all"
    @Option(help: "How often a fault is injected on average, in simulated time (1s, 500ms).") var faultEvery = "1s"
    @Option(help: "Hosts.") var hosts = 3
    @Option(help: "Clients.") var clients = 4
    @Option(help: "Controllers, over the clients' pools.") var controllers = 60
    @Flag(help: "One pool for every client: their commands race on the same controllers (as stress --contended).")
    var contended = false
    @Flag(help: "Forms whose code answers their loads and layouts, now and then too late (as stress --answering).")
    var answering = false
    @Flag(
        help: ArgumentHelp(
            "Two supervisors on a simulated etcd: one leads on a lease, the other stands by and takes over (journal: etcd).",
            discussion: "Hosts and clients follow the leader; a killed or stopped leader's lease lapses; disk faults"
                + " do not apply."
        )
    )
    var replicated = false
    @Flag(help: "Print every step of each seed's world.") var trace = false
    @Flag(help: "Print every check, not only those that failed.") var verbose = false

    static let kinds = FaultKind.allCases.map(\.rawValue).joined(separator: ", ")

    func run() throws {
        // Swift seeds its hashing per process: with it, the core's dictionaries are walked in another order each run.
        // The world runs in a child with deterministic hashing, so the same seed prints the same bytes.
        if ProcessInfo.processInfo.environment["SWIFT_DETERMINISTIC_HASHING"] == nil {
            let child = Process()
            child.executableURL = URL(fileURLWithPath: "/proc/self/exe")
            child.arguments = Array(CommandLine.arguments.dropFirst())
            child.environment = ProcessInfo.processInfo.environment.merging(["SWIFT_DETERMINISTIC_HASHING": "1"]) { $1 }
            try child.run()
            child.waitUntilExit()
            if child.terminationStatus != 0 { throw ExitCode(child.terminationStatus) }
            return
        }
        var settings = SimulationSettings()
        guard let duration = SimulationRuns.duration(duration) else {
            throw ValidationError("--duration \(duration): a positive number of ms, s, m or h")
        }
        guard let think = SimulationRuns.duration(think) else {
            throw ValidationError("--think \(think): a positive number of ms, s, m or h")
        }
        guard let faultEvery = SimulationRuns.duration(faultEvery) else {
            throw ValidationError("--fault-every \(faultEvery): a positive number of ms, s, m or h")
        }
        settings.seed = seed
        settings.duration = duration
        settings.faultEvery = faultEvery
        settings.think = think
        settings.contended = contended
        settings.answering = answering
        settings.replicated = replicated
        (settings.hosts, settings.clients, settings.controllers, settings.trace) = (hosts, clients, controllers, trace)
        let names = faults.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        if names != ["all"] {
            let kinds = names == ["none"] ? [] : names.map(FaultKind.init(rawValue:))
            guard !kinds.contains(nil) else { throw ValidationError("--faults \(faults): one of \(Self.kinds)") }
            settings.faults = Set(kinds.compactMap { $0 })
        }
        let began = ContinuousClock.now
        let passed = SimulationRuns.run(settings, seeds: seeds, jobs: jobs, full: verbose) { print($0) }
        FileHandle.standardError.write(Data("simulate: \(ContinuousClock.now - began) of real time\n".utf8))
        if !passed { throw ExitCode(1) }
    }
}
