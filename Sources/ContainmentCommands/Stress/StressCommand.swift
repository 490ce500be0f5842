import ArgumentParser
import ContainmentLoad
import ContainmentHost
import ContainmentModel
import ContainmentConfig
import ContainmentRuntime
import Foundation

/// `containment stress`: many clients, many hosts, random commands from the whole of SPEC.md, and afterwards proof
/// that nothing was lost, doubled, reordered or allowed that the model forbids.
struct StressCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stress",
        abstract: "Drive a runtime with concurrent clients sending random commands, then check it against the model.",
        discussion: """
            Starts a supervisor and --hosts hosts of its own (or, with --attach, uses the runtime of \
            CONTAINMENT_RUN_DIR), creates --controllers controllers of every kind spread over the hosts, and lets \
            --clients clients, each on its own thread and connection, send random commands — valid and invalid — for \
            --ops operations or --duration seconds. Then it checks that replaying the journal through the model gives \
            the very events published, every reply and the final tree; that every subscriber saw every event once; that \
            each actor received its callbacks in SPEC order; and that no daemon crashed or leaked. Exits 1 on any \
            failure. The same --seed and settings send the same commands (compare the stream digest).
            """
    )

    @Option(help: "Host processes to start.") var hosts = 4
    @Option(help: "Controllers to create, split evenly over the clients (every kind in each client's share).")
    var controllers = 1_000
    @Option(help: "Concurrent clients, each with its own connection and thread.") var clients = 8
    @Option(help: "Operations in all (split evenly over the clients). Default: run for --duration.") var ops: Int?
    @Option(help: "Seconds to run when --ops is not given.") var duration = 10.0
    @Option(help: "The seed of every client's command stream.") var seed: UInt64 = 1
    @Option(help: "The share of operations that are deliberately invalid, beside the generator's own.")
    var invalidRatio = 0.1
    @Option(help: "Subscribers that must each see every event exactly once.") var subscribers = 2
    @Option(help: "The prefix of every controller the run creates.") var prefix = "s"
    @Flag(
        help: """
            Every client draws from one shared pool of controllers, so commands race on the same controllers; the \
            replies are judged against the journal's replay at their seq.
            """
    )
    var contended = false
    @Flag(
        help: """
            The pool's content controllers are forms, whose code answers loadView and viewWillLayoutSubviews (SPEC \
            §15): commands wait for the hosts' answers, at most answerTimeoutMs.
            """
    )
    var answering = false
    @Option(
        help: ArgumentHelp(
            "Kill the supervisor with SIGKILL every SECONDS while the clients run, and restart it on the same run "
                + "directory; never again before every host is registered with the restarted one (not with --attach).",
            valueName: "seconds"
        )
    )
    var killSupervisorEvery: Double?
    @Option(
        help: ArgumentHelp(
            "Run a replicated runtime (three etcd members, supervisors a and b: journal: etcd) and kill the supervisor "
                + "that leads with SIGKILL every SECONDS while the clients run; it comes back as a standby, the other "
                + "takes over; never again before every host is registered with the new leader (not with --attach).",
            valueName: "seconds"
        )
    )
    var killLeaderEvery: Double?
    @Option(
        help: ArgumentHelp(
            "Kill a random host with SIGKILL every SECONDS while the clients run; the supervisor starts it again "
                + "(the hosts are the supervisor's; not with --attach).",
            valueName: "seconds"
        )
    )
    var killHostEvery: Double?
    @Option(
        help: ArgumentHelp(
            "Stall a random host with SIGSTOP every SECONDS, for half that long (then SIGCONT), while the clients "
                + "run (not with --attach).",
            valueName: "seconds"
        )
    )
    var stopHostEvery: Double?
    @Flag(help: "Use the runtime already running (CONTAINMENT_RUN_DIR, --config) instead of starting one.")
    var attach = false
    @Flag(help: "Keep the run directory (logs, journal) of the runtime it starts.") var keep = false
    @Flag(help: "Print the summary as JSON.") var json = false
    @Flag(help: "No progress line.") var quiet = false
    @OptionGroup var runtime: RuntimeOptions

    func validate() throws {
        guard hosts >= 1, clients >= 1, subscribers >= 1 else {
            throw ValidationError("--hosts, --clients and --subscribers must be at least 1")
        }
        guard controllers >= clients * 8 else { throw ValidationError("--controllers must be at least 8 per client") }
        guard (0...1).contains(invalidRatio) else { throw ValidationError("--invalid-ratio must be within 0…1") }
        guard ops.map({ $0 >= 0 }) ?? (duration > 0) else {
            throw ValidationError("--ops or --duration must be positive")
        }
        guard ContainmentState.isValidName(prefix) else { throw ValidationError("--prefix must be a valid id") }
        if let stopHostEvery {
            guard stopHostEvery > 0 else { throw ValidationError("--stop-host-every must be positive") }
            guard !attach else { throw ValidationError("--stop-host-every needs a runtime of its own (no --attach)") }
        }
        if let killHostEvery {
            guard killHostEvery > 0 else { throw ValidationError("--kill-host-every must be positive") }
            guard !attach else { throw ValidationError("--kill-host-every needs a runtime of its own (no --attach)") }
        }
        if let killLeaderEvery {
            guard killLeaderEvery > 0 else { throw ValidationError("--kill-leader-every must be positive") }
            guard !attach else { throw ValidationError("--kill-leader-every needs a runtime of its own (no --attach)") }
            guard killSupervisorEvery == nil else {
                throw ValidationError("--kill-leader-every and --kill-supervisor-every do not go together")
            }
        }
        if let killSupervisorEvery {
            guard killSupervisorEvery > 0 else { throw ValidationError("--kill-supervisor-every must be positive") }
            guard !attach else {
                throw ValidationError("--kill-supervisor-every needs a runtime of its own (no --attach)")
            }
        }
    }

    func run() throws {
        let started = ContinuousClock.now
        let local: LocalRuntime?
        let config: RuntimeConfig
        if attach {
            local = nil
            config = try runtime.load()
        } else {
            // A replicated run needs etcd's client, which only `containment-etcd` links.
            let replicated = try killLeaderEvery.map { _ in try EtcdSupport.required(by: "--kill-leader-every").store }
            settings.note(
                killLeaderEvery == nil
                    ? "starting a supervisor and \(hosts) hosts"
                    : "starting three etcd members, supervisors a and b, and \(hosts) hosts"
            )
            let launched = try LocalRuntime(
                hosts: hosts,
                // Every segment kept: the checks replay the journal from its first record.
                // Stalled hosts are declared down (and given what they missed when they resume) within 2 s.
                // Its subscribers are the instrument that checks every seq: the supervisor keeps all they have not read.
                // Each actor keeps its last 16 callbacks: an actor whose digest differs is shown what differs.
                settings: "callbackHistory: 16\nrequestTimeoutMs: 30000\njournalRetain: 0\nsubscriberQueue: 1000000\n"
                    + "heartbeatTimeoutMs: \(stopHostEvery == nil ? 5000 : 2000)\n",
                keep: keep,
                supervised: killHostEvery != nil,
                replicated: replicated
            )
            local = launched
            config = launched.config
        }
        let run = StressRun(settings: settings, config: config, local: local)
        let summary: StressSummary
        do {
            summary = try run.execute(started: started)
        } catch {
            // The run could not be judged: its logs say why, so its run directory is kept.
            if let local {
                local.stop(keepRunDirectory: true)
                FileHandle.standardError.write(
                    Data("stress: the run directory (logs, journal) is kept: \(local.config.runDirectory)\n".utf8)
                )
            }
            throw error
        }
        if json {
            try printJSON(summary)
        } else {
            print(summary.table)
        }
        if !summary.passed { throw ExitCode.failure }
    }

    /// The options as the run takes them.
    var settings: StressSettings {
        var settings = StressSettings()
        settings.controllers = controllers
        settings.clients = clients
        settings.ops = ops
        settings.duration = duration
        settings.seed = seed
        settings.invalidRatio = invalidRatio
        settings.subscribers = subscribers
        settings.prefix = prefix
        settings.quiet = quiet
        settings.killSupervisorEvery = killSupervisorEvery
        settings.killLeaderEvery = killLeaderEvery
        settings.contended = contended
        settings.answering = answering
        settings.killHostEvery = killHostEvery
        settings.stopHostEvery = stopHostEvery
        return settings
    }
}
