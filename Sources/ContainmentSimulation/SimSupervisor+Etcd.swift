import ContainmentBus
import ContainmentRuntime
import Logging

/// A supervisor of a replicated world (``SimulationSettings/replicated``): standing by, leading, and the check that
/// it speaks only while it leads.
extension SimSupervisor {
    static let standbyPoll: Duration = .milliseconds(200)
    private static let logger = Logger(label: "containment.simulation") { _ in SwiftLogNoOpLogHandler() }

    /// Recovers from etcd and stands by: its socket answers `notLeader`; it looks at once, then every 200 ms.
    func standBy() {
        guard let etcd else { return }
        do {
            let recovery = try Recovery.load(from: etcd, keys: keys, config: config, logger: Self.logger)
            standby = (recovery, nil)
        } catch {
            sim.fail("supervisor \(name) cannot recover from etcd: \(error)")
            return
        }
        leadership = EtcdLeadership(
            store: etcd,
            keys: keys,
            record: LeaderRecord(name: name, pid: 0, command: endpoint, events: "sim://events-\(name)"),
            leaseSeconds: sim.settings.leaseSeconds,
            now: { [base = sim.base, clock = sim.scheduler.clock] in base + clock.now }
        )
        bind()
        lookLater(sim.scheduler.duration(.zero, Self.standbyPoll))
    }

    private func lookLater(_ delay: Duration) {
        looks += 1
        let (incarnation, token) = (incarnation, looks)
        sim.scheduler.after(delay, "supervisor \(name) looks at etcd") { [unowned self] in
            guard self.incarnation == incarnation, looks == token else { return }
            look()
        }
    }

    /// A standby's look (as ``ReplicatedSupervisor``'s): catches up with the journal, reads the leader, and
    /// campaigns when none leads; the winner serves.
    func look() {
        guard !paused, var (recovery, _) = standby, let leadership, let etcd else { return }
        do {
            try recovery.catchUp(from: etcd, keys: keys)
            switch try recovery.look(leadership) {
            case .won:
                lead(recovery, leadership)
                return
            case .follows(let leader):
                // A record naming its own endpoint is a dead incarnation's: none leads, then (StandbyResponder).
                standby = (recovery, leader?.command == endpoint ? nil : leader)
            }
        } catch {
            sim.fail("supervisor \(name) standing by: \(error)")
        }
        lookLater(Self.standbyPoll)
    }

    /// Won: its standby socket closes, its new epoch is journaled in etcd, and it serves.
    private func lead(_ recovery: Recovery, _ leadership: EtcdLeadership) {
        guard let etcd else { return }
        var recovery = recovery
        recovery.beginLeading()
        standby = nil
        unbind()
        etcdJournal = EtcdJournal(store: etcd, keys: keys, leadership: leadership, next: recovery.segment)
        sim.log("supervisor \(name) leads (fence \(leadership.fence))")
        serve(recovery)
    }

    /// Its leadership is lost (an append fenced, its lease lapsed): it resigns, and stands by again.
    func stepDown() {
        sim.log("supervisor \(name) no longer leads: \(lastFailure ?? "")")
        leadership?.resign()
        let (wasServing, bound) = (driver != nil, incarnation)
        unbind()
        driver = nil
        etcdJournal = nil
        leadership = nil
        if wasServing, let bound { sim.supervisorStopped(bound) }
        standBy()
    }

    func renewLater() {
        let incarnation = incarnation
        sim.scheduler.after(.seconds(sim.settings.leaseSeconds) / 3, "supervisor \(name) renews its lease") {
            [unowned self] in
            guard self.incarnation == incarnation, driver != nil else { return }
            if !paused { renew() }
            renewLater()
        }
    }

    func renew() {
        guard let leadership, !leadership.renew() else { return }
        sim.log("supervisor \(name): its lease lapsed")
    }

    /// What a standby answers every request: `notLeader`, naming the leader it knows.
    func answerNotLeader(_ batch: ArraySlice<(peer: [UInt8], bytes: [UInt8])>, leader: LeaderRecord?) {
        let refusal = SupervisorMessage.notLeader(standby: name, leader: leader.map { ($0.name, $0.command) })
        for (peer, bytes) in batch {
            guard let link = links[peer], link.open, link.unread < Simulation.peerQueue else { continue }
            sim.send(refusal.bytes(requestID: SupervisorMessage.requestID(of: bytes)), toPeerOn: link)
        }
    }

    /// One leader at a time: a supervisor sends nothing once etcd's election key is gone or another's.
    func checkStillLeads(_ what: @autoclosure () -> String) {
        guard let etcd, let leadership else { return }
        guard etcd.createRevision(of: keys.leader) != leadership.fence else { return }
        sim.noteDeposed(
            "supervisor \(name) \(what()) after it lost the leadership (fence "
                + "\(leadership.fence))"
        )
    }
}
