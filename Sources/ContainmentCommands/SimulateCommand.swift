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
    @Option(help: "A client's mean pause between two commands (default: 2.5ms for 10s, the duration / 4000 beyond).")
    var think: String?
    @Option(help: "Faults to inject, comma-separated (all, none, or: \(Self.kinds)).") var faults = "all"
    @Option(help: "How often a fault is injected on average, in simulated time (1s, 500ms).") var faultEvery = "1s"
    @Option(help: "Hosts.") var hosts = 3
    @Option(help: "Clients.") var clients = 4
    @Option(help: "Controllers, over the clients' pools.") var controllers = 60
    @Option(
        help: ArgumentHelp(
            "Each seed's world: drawn (each seed draws its own shape), or single or replicated, with contended, answering, late-reader, constraints, more-tabs.",
            valueName: "drawn | single|replicated[,contended][,answering]"
        )
    )
    var world: String?
    @Flag(help: "One pool for every client: their commands race on the same controllers (as stress --contended).")
    var contended = false
    @Flag(help: "Forms whose code answers their loads and layouts, now and then too late (as stress --answering).")
    var answering = false
    @Flag(help: "Two supervisors on a simulated etcd: the leader killed, stopped, cut off; the standby takes over.")
    var replicated = false
    @Flag(help: "Print every step of each seed's world.") var trace = false
    @Flag(help: "Print every check, not only those that failed.") var verbose = false

    static let kinds = FaultKind.allCases.map(\.rawValue).joined(separator: ", ")

    func run() throws {
        if let status = try SimulationRuns.inDeterministicChild() {
            if status != 0 { throw ExitCode(status) }
            return
        }
        var settings = SimulationSettings()
        func parsed(_ text: String, _ option: String) throws -> Duration {
            guard let value = SimulationRuns.duration(text) else {
                throw ValidationError("--\(option) \(text): a positive number of ms, s, m or h")
            }
            return value
        }
        (settings.duration, settings.think, settings.faultEvery) = try (
            parsed(duration, "duration"), think.map { try parsed($0, "think") }, parsed(faultEvery, "fault-every")
        )
        settings.seed = seed
        guard settings.pin(world: world, replicated: replicated, contended: contended, answering: answering) else {
            throw ValidationError("--world \(world ?? ""): drawn, or single or replicated (and contended …)")
        }
        (settings.hosts, settings.clients, settings.controllers, settings.trace) = (hosts, clients, controllers, trace)
        guard let kinds = FaultKind.named(faults) else {
            throw ValidationError("--faults \(faults): one of \(Self.kinds)")
        }
        settings.faults = kinds
        let began = ContinuousClock.now
        let passed = SimulationRuns.run(settings, seeds: seeds, jobs: jobs, full: verbose) { print($0) }
        FileHandle.standardError.write(Data("simulate: \(ContinuousClock.now - began) of real time\n".utf8))
        if !passed { throw ExitCode(1) }
    }
}
