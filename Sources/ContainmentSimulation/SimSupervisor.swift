import ContainmentBus
import ContainmentRuntime

/// The supervisor process of the simulated world: the real ``SupervisorCore`` and ``SupervisorDriver``, in a
/// ``SupervisorWorld`` of simulated sockets and disk. It handles what arrived in batches of up to 128 messages, as its
/// loop does, then carries the step out; time passes for it as its loop would wake. It can be killed (everything not
/// on the disk is gone) and started again, recovering from its journal.
final class SimSupervisor {
    unowned let sim: Simulation
    let config: RuntimeConfig
    let hostNames: [String]
    let disk = SimDisk()
    private var driver: SupervisorDriver?
    /// The running process's number (nil: not running); links of an older one are dead.
    private(set) var incarnation: Int?
    private var started = 0
    private var links: [[UInt8]: Link] = [:]
    private var inbox: [(peer: [UInt8], bytes: [UInt8])] = []
    private var handling = false
    private var nextWake: Duration?
    /// Why its last process stopped on its own (the journal failed), if it did.
    private(set) var lastFailure: String?
    /// Processes started (the first included).
    var starts: Int { started }

    init(sim: Simulation, config: RuntimeConfig, hosts: [String]) {
        self.sim = sim
        self.config = config
        hostNames = hosts
    }

    var isRunning: Bool { driver != nil }
    var core: SupervisorCore? { driver?.core }

    /// Starts a process: it recovers from the disk and journals its new epoch before it serves.
    func start() {
        guard driver == nil else { return }
        let recovery: Recovery
        do {
            let (checkpoint, records) = disk.recoverable
            recovery = try Recovery.replaying(Array(records), checkpoint: checkpoint, config: config)
        } catch {
            sim.fail("the supervisor cannot recover its journal: \(error)")
            return
        }
        var core = SupervisorCore(recovery: recovery, config: config, at: sim.time)
        core.expect(hosts: hostNames)
        var driver = SupervisorDriver(core)
        do {
            try driver.begin(in: self)
        } catch {
            // The start record did not reach the disk: this process never served; another is started.
            stop(restartAfter: .milliseconds(500))
            return
        }
        started += 1
        incarnation = started
        self.driver = driver
        sim.supervisorStarted()
        wake(at: sim.scheduler.now + config.heartbeatInterval)
    }

    /// Kills the process (SIGKILL): its connections and what it had not written are gone.
    func kill(restartAfter delay: Duration) {
        guard driver != nil else { return }
        stop(restartAfter: delay)
    }

    private func stop(restartAfter delay: Duration) {
        driver = nil
        incarnation = nil
        for link in links.values { link.close(supervisorDied: true) }
        links = [:]
        inbox = []
        nextWake = nil
        sim.supervisorStopped()
        sim.scheduler.after(delay, "supervisor starts again") { [unowned self] in start() }
    }

    func accept(_ link: Link) { links[link.routingID] = link }

    /// A peer's message arrives: handled with the others that came meanwhile.
    func arrived(_ bytes: [UInt8], on link: Link) {
        guard link.open, link.incarnation == incarnation else { return }
        inbox.append((link.routingID, bytes))
        guard !handling else { return }
        handling = true
        sim.scheduler.after(.microseconds(20), "supervisor reads its socket") { [unowned self] in drain() }
    }

    /// Up to 128 messages, then the step carried out; again while more wait.
    private func drain() {
        handling = false
        guard driver != nil else { return }
        let batch = inbox.prefix(128)
        inbox.removeFirst(batch.count)
        for (peer, bytes) in batch {
            driver?.handle(.message([peer, bytes], role: nil), in: self)
        }
        carryOut()
        if !inbox.isEmpty {
            handling = true
            sim.scheduler.after(.microseconds(20), "supervisor reads its socket") { [unowned self] in drain() }
        }
    }

    /// Time passes for the core (transitions, heartbeats, retries), then its step is carried out.
    private func tick() {
        guard driver != nil else { return }
        driver?.tick(in: self)
        carryOut()
    }

    private func carryOut() {
        driver?.flush(self)
        guard let driver else { return }
        if let failure = driver.failure {
            lastFailure = failure.description
            stop(restartAfter: .seconds(1))
            return
        }
        wake(at: sim.scheduler.now + max(.microseconds(100), driver.core.nextWakeUp(at: sim.time.now)))
    }

    private func wake(at time: Duration) {
        if let next = nextWake, next <= time, next > sim.scheduler.now { return }
        nextWake = time
        let incarnation = incarnation
        sim.scheduler.at(time, "supervisor ticks") { [unowned self] in
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
            sim.log("supervisor \(line.level): \(line.message) \(metadata.joined(separator: " "))")
        }
    }

    func journal(_ records: [[UInt8]]) throws(JournalFailure) {
        do {
            try disk.write(records) { count in Int.random(in: 0...count, using: &sim.scheduler.random) }
        } catch {
            throw JournalFailure(description: error.message)
        }
    }

    var barred: JournalFailure? { nil }

    func failed(_ failure: JournalFailure) {
        sim.log("supervisor stops: \(failure.description)")
    }

    func publish(topic: [UInt8], body: [UInt8]) { sim.publish([topic, body]) }

    func heartbeat(_ body: [UInt8]) { sim.publish([Publication.heartbeatFrame, body]) }

    func send(_ body: [UInt8], to peer: [UInt8], delivery: Bool) -> SendOutcome {
        guard let link = links[peer], link.open else { return .gone }
        guard link.unread < Simulation.peerQueue else { return .full }
        sim.send(body, toPeerOn: link)
        return .sent
    }

    var metricsText: [UInt8] { [] }

    /// After the step's messages went out, as the loop does: a checkpoint when `checkpointEvery` records were written
    /// since the last (whole, or not at all: written off the loop's thread and renamed into place).
    func stepCarriedOut(core: SupervisorCore) throws(JournalFailure) {
        let every = sim.settings.checkpointEvery
        guard every > 0, disk.sinceCheckpoint >= every else { return }
        disk.writeCheckpoint(try core.checkpointBytes(records: disk.durable.count, timeUnixNanos: sim.time.unixNanos))
        sim.scheduler.note("supervisor writes a checkpoint after \(disk.durable.count) records")
    }
}
