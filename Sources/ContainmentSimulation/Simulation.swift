import ContainmentBus
import ContainmentLoad
import ContainmentModel
import ContainmentConfig
import ContainmentRuntime
import ContainmentWorkload

/// A whole runtime in one process, on one thread, under a seeded scheduler (FoundationDB's simulator, TigerBeetle's
/// VOPR): the real supervisor core and driver, hosts running the real host core, `stress`'s clients and subscribers,
/// on a simulated network, disk and clock, with faults injected by the seed. The same seed makes the same run, to the
/// byte; ``run()`` ends with `stress`'s checks of the history against the model.
package final class Simulation {
    package let settings: SimulationSettings
    let scheduler: Scheduler
    let config: RuntimeConfig
    let base = ContinuousClock.now
    /// The supervisor processes: one, or (replicated) two sharing `etcd`.
    private(set) var supervisors: [SimSupervisor] = []
    private(set) var etcd: SimEtcd?
    private(set) var hosts: [SimHost] = []
    private(set) var clients: [SimClient] = []
    private var setup: SimClient?
    private(set) var subscribers: [SimSubscriber] = []
    var nextRoutingID = 0
    /// Sockets bound so far by any supervisor process (a link reaches one of them).
    var nextIncarnation = 0
    /// What a supervisor sent after it lost the leadership (one leader at a time): how many, the first few.
    private(set) var deposedSends = 0
    /// Commands refused for want of a host (and tried again), and of those how many while every host process was live
    /// — running, not stopped, reachable, reading (issue 42: a supervisor that took over refused commands for hosts
    /// that had not greeted it yet).
    var hostRefusals = (all: 0, hostsLive: 0)
    private(set) var deposed: [String] = []
    /// Messages on their way between a peer and the supervisor.
    var inFlight = 0
    var nextPID: Int32 = 100
    /// Until when the network is slow (a `delay` fault).
    var slowNetworkUntil: Duration?
    /// No etcd election begins before then: one lease after the last ended (two in a row are one longer election, which
    /// the leader is not documented to ride out).
    private var electionsQuietUntil: Duration = .zero
    /// When every fault was healed (the liveness check counts from there).
    private(set) var healedAt: Duration?
    /// Faults injected, by kind.
    private(set) var injected: [FaultKind: Int] = [:]
    /// What went wrong in the world itself (a message nobody can decode, a setup refused): the run fails.
    private(set) var problems: [String] = []
    /// What was logged, kept for a trace.
    private(set) var logs: [String] = []
    /// Whether the planted defect (``SimulationSettings/sabotage``) did its harm.
    var sabotaged = false
    /// Messages queued for one peer at most (the ROUTER's high-water mark).
    static let peerQueue = 64
    /// The client that asks for snapshots in bursts and reads late.
    private(set) var reader: SimReader?
    /// The most bytes any supervisor kept for one peer's unread replies (``ReplyQueues/peak``).
    var replyQueuePeak = 0

    package init(_ settings: SimulationSettings) {
        self.settings = settings
        scheduler = Scheduler(seed: settings.seed, tracing: settings.trace)
        var config = RuntimeConfig(runDirectory: "/simulated")
        // Small enough for the slow reader's snapshots of a simulated tree to fill (``SimReader``).
        config.replyQueueBytes = 64 << 10
        config.commandEndpoint = "sim://supervisor"
        config.eventEndpoint = "sim://events"
        self.config = config
    }

    /// The time now, as the processes read it.
    var time: SupervisorTime {
        SupervisorTime(now: base + scheduler.now, unixNanos: 1_800_000_000_000_000_000 + scheduler.now.nanos)
    }

    func log(_ line: @autoclosure () -> String) {
        if settings.trace { logs.append("\(Scheduler.format(scheduler.now)) \(line())") }
    }

    func fail(_ problem: String) {
        if problems.count < 8 { problems.append("\(Scheduler.format(scheduler.now)): \(problem)") }
    }

    func noteDeposed(_ send: String) {
        deposedSends += 1
        if deposed.count < 8 { deposed.append("\(Scheduler.format(scheduler.now)): \(send)") }
    }

    /// The supervisor serving now, as far as the world's checks go (one that is stopped is not).
    var leader: SimSupervisor? { supervisors.first { $0.isServing && !$0.paused } }

    /// Every supervisor's command endpoint, as hosts and clients are given them.
    var endpoints: [String] { supervisors.map(\.endpoint) }

    /// Runs the world: setup, commands under faults for `duration`, every fault healed, the world settled; then the
    /// checks.
    package func run() -> SimulationReport {
        let names = (0..<settings.hosts).map { "h\($0)" }
        etcd = settings.replicated ? SimEtcd(clock: scheduler.clock, archiving: SimSupervisor.keys.journalPrefix) : nil
        supervisors = (settings.replicated ? ["a", "b"] : ["a"]).map {
            SimSupervisor(sim: self, name: $0, config: config, hosts: names, etcd: etcd)
        }
        subscribers = (0...settings.subscribers).map { SimSubscriber(sim: self, index: $0, keepsPayloads: $0 == 0) }
        if let etcd {
            // A watch's stream hands a change to its standby's thread as soon as etcd commits it.
            var seen = etcd.revision
            scheduler.afterEach = { [unowned self, unowned etcd] in
                guard etcd.revision != seen else { return }
                seen = etcd.revision
                for supervisor in supervisors { supervisor.watchSawChange() }
            }
        }
        for supervisor in supervisors { supervisor.start() }
        hosts = names.map { SimHost(sim: self, name: $0) }
        for host in hosts {
            scheduler.after(scheduler.duration(.zero, .milliseconds(50)), "host \(host.name) starts") { host.start() }
        }
        let (pools, creations) = makePools()
        let setup = SimClient(sim: self, index: -1, stress: nil, script: setupRequests(creations, hosts: names))
        self.setup = setup
        scheduler.after(.milliseconds(100), "setup starts") { setup.start() }
        clients = pools.enumerated().map { index, pool in
            var stress = StressClient(
                index: index,
                pool: pool,
                foreign: pools.count > 1 && !settings.contended
                    ? Array(pools[(index + 1) % pools.count].all.prefix(32)) : [],
                prefix: "s-c",
                seed: settings.seed,
                invalidRatio: settings.invalidRatio,
                // Answering code changes what a client's replica cannot see: its replies are judged by the replay.
                contended: settings.judgedByReplay,
                constraints: settings.constraints,
                moreTabs: settings.moreTabs
            )
            stress.adopt(creations[settings.contended ? 0 : index])
            return SimClient(sim: self, index: index, stress: stress)
        }
        // The setup first; then the clients, and the faults, until the run's end.
        let setupDeadline = Duration.seconds(60)
        while !setup.isDone, scheduler.now < setupDeadline, problems.isEmpty {
            scheduler.run(until: scheduler.now + .milliseconds(10))
        }
        guard setup.isDone else {
            fail("the setup did not finish in \(setupDeadline)")
            return report(settled: .zero)
        }
        let started = scheduler.now
        reader = settings.lateReader ? SimReader(sim: self) : nil
        for client in clients { client.start() }
        reader?.start()
        scheduleFault(until: started + settings.duration)
        scheduler.run(until: started + settings.duration)
        for client in clients { client.drawing = false }
        reader?.drawing = false
        reader?.readAll()
        healEverything()
        let settled = settle()
        if settings.sabotage == .loseAcknowledgedRecord { sabotaged = supervisors[0].disk.loseAnAcceptedRecord() }
        return report(settled: settled)
    }

    // MARK: The world's pools

    /// Each client's pool and the creations of its controllers, as `stress` makes them (at least 4 a pool).
    private func makePools() -> (pools: [CommandPool], creations: [[Request]]) {
        ClientPools(
            prefix: "s-c",
            clients: settings.clients,
            controllers: settings.controllers,
            contended: settings.contended,
            answering: settings.answering,
            seed: settings.seed,
            minimum: 4
        ).split
    }

    /// The pools' creations, spread over the hosts in turn, in requests of 250.
    private func setupRequests(_ creations: [[Request]], hosts: [String]) -> [[ClientCommand]] {
        let commands = creations.joined().enumerated().map { index, request in
            ClientCommand(request, host: hosts[index % hosts.count])
        }
        return stride(from: 0, to: commands.count, by: 250).map { Array(commands[$0..<min($0 + 250, commands.count)]) }
    }

    // MARK: Processes coming and going

    /// A supervisor process bound its command socket: peers whose connection to that endpoint dropped connect again
    /// (ZeroMQ reconnects within ~100 ms).
    func supervisorBound(_ supervisor: SimSupervisor) {
        for host in hosts {
            scheduler.after(scheduler.duration(.milliseconds(10), .milliseconds(100)), "host \(host.name) reconnects") {
                host.reconnect(to: supervisor)
            }
        }
        for client in clients + [setup].compactMap({ $0 }) {
            scheduler.after(scheduler.duration(.milliseconds(10), .milliseconds(100)), "client reconnects") {
                client.reconnect(to: supervisor)
            }
        }
    }

    /// A supervisor began serving: subscribers connect to it (a replicated runtime's follow its leader).
    func supervisorServes(_ supervisor: SimSupervisor) {
        guard let incarnation = supervisor.incarnation else { return }
        for subscriber in subscribers { subscriber.connect(to: incarnation) }
    }

    /// The supervisor serving on socket `incarnation` stopped: its subscribers' connections are gone.
    func supervisorStopped(_ incarnation: Int) {
        for subscriber in subscribers { subscriber.disconnect(from: incarnation) }
    }

    /// An event or a heartbeat of a serving supervisor, to every subscriber connected to it.
    func publish(_ frames: [[UInt8]], from supervisor: SimSupervisor) {
        guard let incarnation = supervisor.incarnation else { return }
        for subscriber in subscribers { subscriber.publish(frames, from: incarnation) }
    }

    // MARK: Faults

    private func scheduleFault(until end: Duration) {
        let kinds = settings.injectable.sorted()
        guard !kinds.isEmpty else { return }
        let gap = scheduler.duration(settings.faultEvery / 2, settings.faultEvery * 3 / 2)
        guard scheduler.now + gap < end else { return }
        scheduler.after(gap, "a fault") { [unowned self] in
            inject(kinds[Int.random(in: 0..<kinds.count, using: &scheduler.random)])
            scheduleFault(until: end)
        }
    }

    /// A supervisor a fault hits: mostly the one serving, sometimes a standby.
    private func struck(among running: [SimSupervisor]) -> SimSupervisor? {
        if let leader, running.contains(where: { $0 === leader }), scheduler.chance(0.8) { return leader }
        return running.randomElement(using: &scheduler.random)
    }

    private func inject(_ kind: FaultKind) {
        let running = hosts.filter(\.isRunning)
        var target = ""
        switch kind {
        case .supervisorCrash:
            guard let supervisor = struck(among: supervisors.filter(\.isRunning)) else { return }
            supervisor.kill(restartAfter: scheduler.duration(.milliseconds(100), .seconds(2)))
            target = " \(supervisor.name)"
        case .supervisorPause:
            guard let supervisor = struck(among: supervisors.filter { $0.isRunning && !$0.paused }) else { return }
            supervisor.pause()
            target = " \(supervisor.name)"
            scheduler.after(scheduler.duration(.milliseconds(300), .seconds(5)), "supervisor continues") {
                supervisor.resume()
            }
        case .etcdCut:
            guard let supervisor = struck(among: supervisors.filter(\.isRunning)) else { return }
            supervisor.connection?.cutOff(until: scheduler.now + scheduler.duration(.milliseconds(300), .seconds(5)))
            target = " \(supervisor.name)"
        case .etcdOutage:
            let end = scheduler.now + scheduler.duration(.milliseconds(300), .seconds(3))
            for supervisor in supervisors { supervisor.connection?.cutOff(until: end) }
        case .etcdElection:
            // Up to what the leader is documented to ride out (docs/DURABILITY.md): five sixths of its lease, less 100
            // ms. Fixed here, not derived from the renewal rate: fewer renewals per lease would not ride it out.
            guard let etcd, !etcd.isElecting, scheduler.now >= electionsQuietUntil else { return }
            let longest = .seconds(settings.leaseSeconds) * 5 / 6 - .milliseconds(100)
            let end = scheduler.now + scheduler.duration(.milliseconds(300), longest)
            electionsQuietUntil = end + .seconds(settings.leaseSeconds)
            etcd.elect(until: end)
            for supervisor in supervisors { supervisor.connection?.cutOff(until: end) }
            scheduler.at(end, "etcd elected a leader") { etcd.elected() }
        case .tornWrite: supervisors[0].disk.armed = .torn
        case .diskFull: supervisors[0].disk.armed = .full
        case .syncError: supervisors[0].disk.armed = .syncError
        case .hostCrash:
            guard let host = running.randomElement(using: &scheduler.random) else { return }
            host.kill()
            target = " \(host.name)"
            scheduler.after(scheduler.duration(.milliseconds(100), .seconds(2)), "host \(host.name) starts again") {
                host.start()
            }
        case .hostPause:
            guard let host = running.filter({ !$0.paused }).randomElement(using: &scheduler.random) else { return }
            host.pause()
            target = " \(host.name)"
            scheduler.after(scheduler.duration(.milliseconds(300), .seconds(5)), "host \(host.name) continues") {
                host.resume()
            }
        case .slowActors:
            guard let host = running.filter({ $0.behindUntil == nil }).randomElement(using: &scheduler.random) else {
                return
            }
            host.fallBehind(for: scheduler.duration(.milliseconds(300), .seconds(5)))
            target = " \(host.name)"
        case .partition:
            guard let host = running.filter({ !$0.partitioned }).randomElement(using: &scheduler.random) else {
                return
            }
            host.cutOff()
            target = " \(host.name)"
            scheduler.after(scheduler.duration(.milliseconds(300), .seconds(5)), "host \(host.name) reachable") {
                host.heal()
            }
        case .hostDisconnect:
            guard let host = running.randomElement(using: &scheduler.random) else { return }
            host.disconnect()
            target = " \(host.name)"
        case .clientDisconnect:
            guard let client = clients.randomElement(using: &scheduler.random) else { return }
            client.disconnect()
            target = " client \(client.index)"
        case .delay:
            slowNetworkUntil = scheduler.now + scheduler.duration(.milliseconds(500), .seconds(3))
        }
        injected[kind, default: 0] += 1
        log("fault: \(kind.rawValue)\(target)")
    }

    /// The run's end: every fault heals — hosts continue and are reachable, the network is fast, a disk fault not gone
    /// off is disarmed, every process runs.
    private func healEverything() {
        slowNetworkUntil = nil
        if etcd?.isElecting == true { etcd?.elected() }
        for supervisor in supervisors {
            supervisor.disk.armed = nil
            supervisor.connection?.heal()
            supervisor.resume()
        }
        for host in hosts {
            host.resume()
            host.catchUp()
            host.heal()
            if !host.isRunning { host.start() }
        }
        for supervisor in supervisors where !supervisor.isRunning { supervisor.start() }
        healedAt = scheduler.now
    }

    /// Runs until every client is answered, every host registered and no transition runs; then a probe that every
    /// subscriber must see. Returns how long that took.
    private func settle() -> Duration {
        let began = scheduler.now
        let deadline = began + .seconds(60)
        func quiet() -> Bool {
            guard var core = leader?.core, !clients.contains(where: \.isWaiting),
                supervisors.allSatisfy({ $0.isServing || $0.isStandingBy })
            else { return false }
            let snapshot = core.snapshot()
            // Every host process welcomed, and known up as that process (not its predecessor's connection).
            let registered = hosts.allSatisfy { host in
                host.isRegistered && snapshot.hosts.contains { $0.name == host.name && $0.up && $0.pid == host.pid }
            }
            return registered && snapshot.transitionCount == 0 && inFlight == 0
        }
        while !quiet(), scheduler.now < deadline { scheduler.run(until: scheduler.now + .milliseconds(10)) }
        if !quiet() { fail("the world did not settle within 60 s of the faults healing") }
        // A probe: a refused destroy publishes a ruleViolation, which every subscriber (connected by now) must see.
        if let setup, let seq = leader?.core?.seq {
            setup.probe()
            func heard() -> Bool {
                let last = leader?.core?.seq ?? 0
                return last > seq && subscribers.allSatisfy { $0.seen.last >= last }
            }
            while !heard(), scheduler.now < deadline { scheduler.run(until: scheduler.now + .milliseconds(10)) }
        }
        scheduler.run(until: scheduler.now + .milliseconds(10))
        return scheduler.now - began
    }
}
