import ContainmentBus
import ContainmentConfig
import ContainmentRuntime

/// A supervisor process of the simulated world: the real ``SupervisorCore`` and ``SupervisorDriver``, in a
/// ``SupervisorWorld`` of simulated sockets and disk. It handles what arrived in batches of up to 128 messages, as its
/// loop does, then carries the step out; time passes for it as its loop would wake. It can be killed (everything not
/// on the disk is gone) and started again, recovering from its journal, and stopped (SIGSTOP) and continued.
///
/// Of a replicated world (``SimulationSettings/replicated``) it journals to the simulated etcd instead, through the
/// real ``EtcdJournal`` (each batch fenced on its election key) and ``EtcdLeadership`` (its lease, renewed every sixth
/// of it; its own clock): it stands by — recovered from etcd, answering every request `notLeader` naming the leader,
/// looking every 200 ms as ``ReplicatedSupervisor`` does (``Recovery/look(_:)``) — until its campaign wins; then it
/// binds its socket anew and serves, until its lease lapses or an append is fenced, and stands by again.
final class SimSupervisor {
    unowned let sim: Simulation
    let name: String
    let endpoint: String
    let config: RuntimeConfig
    let hostNames: [String]
    let disk = SimDisk()
    /// Of a replicated world: the etcd it journals to, and its own connection to it (which a fault can cut).
    let etcd: SimEtcd?
    let connection: SimEtcdConnection?
    static let keys = EtcdKeys(prefix: "/sim")
    var keys: EtcdKeys { Self.keys }
    var driver: SupervisorDriver?
    /// Of a replicated world: standing by, its following of the journal and the election, and the leader it follows
    /// (nil: none it knows); leading, its lease and its journal.
    var follower: StandbyFollower?
    var follows: LeaderRecord?
    /// When its next turn as a standby comes.
    var nextTurn: Duration?
    var leadership: EtcdLeadership?
    var etcdJournal: EtcdJournal?
    /// Leading: the journal's records when it began, and at the latest checkpoint (its own, or the one it recovered
    /// from), as ``SupervisorLoop`` counts them.
    var etcdRecords = (atStart: 0, atCheckpoint: 0)
    /// Its checkpoint writer is busy (a checkpoint handed to it is not written yet).
    var checkpointing = false
    /// Processes started so far (a killed one's threads, its checkpoint writer's included, die with it).
    private(set) var lives = 0
    /// The socket bound now (nil: the process is not running); links to an older one are dead.
    private(set) var incarnation: Int?
    private var terms = 0
    private(set) var links: [[UInt8]: Link] = [:]
    private var inbox: [(peer: [UInt8], bytes: [UInt8])] = []
    private var handling = false
    private var nextWake: Duration?
    /// The standby's next look (one chain of looks, across pauses).
    var looks = 0
    /// Stopped (SIGSTOP): what arrives waits, and nothing it would do on its own (ticks, renewals, looks) happens.
    private(set) var paused = false
    /// Its loop waits in an append to etcd (cut off from it) until then: what the step sends is held until it returns.
    var blockedUntil: Duration?
    var held: [() -> Void] = []
    /// The append it waits in fails when it returns: then it stands by.
    var failsWhenUnblocked = false
    /// Continued while its append had returned: it goes on once it runs.
    var unblockOnResume = false
    /// A standby that cannot reach etcd says so to whoever asks.
    var etcdUnreachable = false
    /// Why its last term ended on its own (the journal failed, or its leadership was lost), if it did.
    var lastFailure: String?
    /// Terms served (a process started, or a standby that won).
    var starts: Int { terms }

    init(sim: Simulation, name: String, config: RuntimeConfig, hosts: [String], etcd: SimEtcd?) {
        self.sim = sim
        self.name = name
        endpoint = "sim://supervisor-\(name)"
        var config = config
        config.commandEndpoint = endpoint
        config.supervisorName = name
        self.config = config
        hostNames = hosts
        self.etcd = etcd
        connection = etcd.map(SimEtcdConnection.init(store:))
    }

    /// Running: serving, or standing by.
    var isRunning: Bool { incarnation != nil }
    /// Serving: the one whose core the world's checks read.
    var isServing: Bool { driver != nil }
    var isStandingBy: Bool { follower != nil }
    var core: SupervisorCore? { driver?.core }

    /// Starts a process: it recovers from the disk and journals its new epoch before it serves; of a replicated
    /// world, it recovers from etcd and stands by.
    func start() {
        guard incarnation == nil else { return }
        paused = false
        if etcd != nil {
            standBy()
            return
        }
        let recovery: Recovery
        do {
            let (checkpoint, records) = disk.recoverable
            recovery = try Recovery.replaying(Array(records), checkpoint: checkpoint, config: config)
        } catch {
            sim.fail("supervisor \(name) cannot recover its journal: \(error)")
            return
        }
        serve(recovery)
    }

    /// A new epoch from `recovery`, journaled before its socket is bound; then it serves.
    func serve(_ recovery: Recovery) {
        var core = SupervisorCore(recovery: recovery, config: config, at: sim.time)
        core.expect(hosts: hostNames)
        var driver = SupervisorDriver(core)
        do {
            try driver.begin(in: self)
        } catch {
            // The start record was not written: this process never served. Another is started (or it stands by).
            if etcd != nil {
                stepDown()
            } else {
                stop(restartAfter: .milliseconds(500))
            }
            return
        }
        terms += 1
        bind()
        self.driver = driver
        sim.supervisorServes(self)
        wake(at: sim.scheduler.now + config.heartbeatInterval)
        if leadership != nil { renewLater() }
    }

    /// Kills the process (SIGKILL): its connections and what it had not written are gone (a leader's lease lapses in
    /// etcd on its own).
    func kill(restartAfter delay: Duration) {
        guard incarnation != nil else { return }
        stop(restartAfter: delay)
    }

    private func stop(restartAfter delay: Duration) {
        lives += 1
        checkpointing = false
        let (wasServing, bound) = (driver != nil, incarnation)
        unbind()
        driver = nil
        // Killed: its watch's stream ends with it; its report stays until its lease lapses.
        follower?.lostWatch()
        follower = nil
        leadership = nil
        etcdJournal = nil
        paused = false
        if wasServing, let bound { sim.supervisorStopped(bound) }
        sim.scheduler.after(delay, "supervisor \(name) starts again") { [unowned self] in start() }
    }

    func pause() { paused = true }

    /// Continues a stopped process: its lease's thread and its loop wake in an order the seed draws.
    func resume() {
        guard paused else { return }
        paused = false
        if unblockOnResume {
            unblockOnResume = false
            unblock()
        }
        let renewFirst = sim.scheduler.chance(0.5)
        if renewFirst, leadership != nil, driver != nil { renew() }
        if driver != nil {
            tick()
            if !inbox.isEmpty { drainLater() }
        } else if incarnation != nil {
            drainLater()
            turn()
        }
        if !renewFirst, leadership != nil, driver != nil { renew() }
    }

    // MARK: Sockets

    func bind() {
        sim.nextIncarnation += 1
        incarnation = sim.nextIncarnation
        sim.supervisorBound(self)
    }

    /// Its socket closes: every connection drops (what was written may still arrive, the rest is lost).
    func unbind() {
        for link in links.values.sorted(by: { $0.routingID.lexicographicallyPrecedes($1.routingID) }) {
            link.close(supervisorDied: true)
            link.end.dropped(link)
        }
        links = [:]
        inbox = []
        handling = false
        nextWake = nil
        incarnation = nil
        blockedUntil = nil
        held = []
        failsWhenUnblocked = false
        unblockOnResume = false
    }

    func accept(_ link: Link) { links[link.routingID] = link }

    /// A peer's message arrives: handled with the others that came meanwhile.
    func arrived(_ bytes: [UInt8], on link: Link) {
        guard link.open, link.incarnation == incarnation else { return }
        inbox.append((link.routingID, bytes))
        guard !paused else { return }
        drainLater()
    }

    func drainLater() {
        guard !handling else { return }
        handling = true
        let incarnation = incarnation
        sim.scheduler.after(.microseconds(20), "supervisor \(name) reads its socket") { [unowned self] in
            guard self.incarnation == incarnation else { return }
            drain()
        }
    }

    /// Up to 128 messages, then the step carried out; again while more wait.
    private func drain() {
        handling = false
        guard !paused, blockedUntil == nil else { return }
        let batch = inbox.prefix(128)
        inbox.removeFirst(batch.count)
        if driver == nil {
            answerNotLeader(batch)
        } else {
            for (peer, bytes) in batch {
                driver?.handle(.message([peer, bytes], role: nil), in: self)
            }
            carryOut()
        }
        if !inbox.isEmpty { drainLater() }
    }

    /// Time passes for the core (transitions, heartbeats, retries), then its step is carried out.
    func tick() {
        guard driver != nil, !paused, blockedUntil == nil else { return }
        driver?.retryReplies(in: self)
        driver?.tick(in: self)
        carryOut()
    }

    private func carryOut() {
        driver?.flush(self)
        guard let driver else { return }
        sim.replyQueuePeak = max(sim.replyQueuePeak, driver.replies.peak)
        if let failure = driver.failure {
            lastFailure = failure.description
            if blockedUntil != nil {
                failsWhenUnblocked = true
                return
            }
            if etcd != nil {
                stepDown()
            } else {
                stop(restartAfter: .seconds(1))
            }
            return
        }
        var wait = driver.core.nextWakeUp(at: sim.time.now)
        if let retry = driver.nextReplyTry { wait = min(wait, retry - sim.time.now) }
        wake(at: sim.scheduler.now + max(.microseconds(100), wait))
    }

    private func wake(at time: Duration) {
        if let next = nextWake, next <= time, next > sim.scheduler.now { return }
        nextWake = time
        let incarnation = incarnation
        sim.scheduler.at(time, "supervisor \(name) ticks") { [unowned self] in
            guard self.incarnation == incarnation, nextWake == time else { return }
            nextWake = nil
            tick()
        }
    }

}

extension SimSupervisor: SupervisorWorld {
    var time: SupervisorTime { sim.time }

    func stepBegins(_ step: SupervisorStep, core: SupervisorCore) {
        for line in step.logs {
            let metadata = line.metadata.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
            sim.log("supervisor \(name) \(line.level): \(line.message) \(metadata.joined(separator: " "))")
        }
    }

    func journal(_ records: [[UInt8]]) throws(JournalFailure) {
        if let etcdJournal {
            try journal(records, to: etcdJournal)
            return
        }
        do {
            try disk.write(records) { count in Int.random(in: 0...count, using: &sim.scheduler.random) }
        } catch {
            throw JournalFailure(description: error.message)
        }
    }

    /// Nothing goes out once its lease may have lapsed, by its own clock (``EtcdLeadership/isValid``).
    var barred: JournalFailure? {
        guard let leadership, !leadership.isValid, sim.settings.sabotage != .leaderIgnoresItsLease else { return nil }
        return JournalFailure(description: "its lease may have lapsed: it stops acknowledging")
    }

    func failed(_ failure: JournalFailure) {
        sim.log("supervisor \(name) stops: \(failure.description)")
    }

    func publish(topic: [UInt8], body: ArraySlice<UInt8>) {
        let body = Array(body)
        goesOut { [self] in
            checkStillLeads("published an event")
            sim.publish([topic, body], from: self)
        }
    }

    func heartbeat(_ body: [UInt8]) {
        goesOut { [self] in
            checkStillLeads("published a heartbeat")
            sim.publish([Publication.heartbeatFrame, body], from: self)
        }
    }

    func send(_ body: [UInt8], to peer: [UInt8], delivery: Bool) -> SendOutcome {
        guard let link = links[peer], link.open else { return .gone }
        guard link.unread < Simulation.peerQueue else {
            sim.scheduler.note("supervisor \(name): the queue toward a peer is full")
            return .full
        }
        goesOut { [self] in
            guard link.open else { return }
            checkStillLeads(delivery ? "delivered callbacks" : "answered a peer")
            sim.send(body, toPeerOn: link)
        }
        return .sent
    }

    /// What a step sends goes out now, or — its loop waiting in an append to etcd — once the append returns.
    private func goesOut(_ send: @escaping () -> Void) {
        if blockedUntil == nil { send() } else { held.append(send) }
    }

    var metricsText: [UInt8] { [] }

    /// After the step's messages went out, as the loop does: a checkpoint when `checkpointEvery` records were written
    /// since the last (whole, or not at all: written off the loop's thread and renamed into place); of a replicated
    /// world, to etcd (``checkpointToEtcd(_:journal:)``).
    func stepCarriedOut(core: SupervisorCore) throws(JournalFailure) {
        let every = sim.settings.checkpointEvery
        if let etcdJournal {
            checkpointToEtcd(core, journal: etcdJournal)
            return
        }
        guard every > 0, disk.sinceCheckpoint >= every else { return }
        disk.writeCheckpoint(try core.checkpointBytes(records: disk.durable.count, timeUnixNanos: sim.time.unixNanos))
        sim.scheduler.note("supervisor writes a checkpoint after \(disk.durable.count) records")
    }
}
