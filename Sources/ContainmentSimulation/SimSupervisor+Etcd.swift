import ContainmentBus
import ContainmentConfig
import ContainmentRuntime
import Logging

/// A supervisor of a replicated world (``SimulationSettings/replicated``): standing by, leading, and the check that
/// it speaks only while it leads.
extension SimSupervisor {
    private static let logger = Logger(label: "containment.simulation") { _ in SwiftLogNoOpLogHandler() }

    /// Stands by: its socket answers `notLeader`; it recovers from etcd (again every 200 ms while etcd cannot be
    /// reached), then turns as ``ReplicatedSupervisor``'s standby does (``StandbyFollower``): at once, then when its
    /// watch saw a change (a few milliseconds later), or 200 ms after its last turn.
    func standBy() {
        bind()
        recover()
    }

    private func recover() {
        guard let connection, incarnation != nil else { return }
        let recovery: Recovery
        do {
            recovery = try Recovery.load(from: connection, keys: keys, config: config, logger: Self.logger)
        } catch let error as EtcdError where error.kind == .unreachable {
            etcdUnreachable = true
            let incarnation = incarnation
            sim.scheduler.after(StandbyFollower.poll, "supervisor \(name) tries etcd again") { [unowned self] in
                guard self.incarnation == incarnation, follower == nil else { return }
                recover()
            }
            return
        } catch {
            sim.fail("supervisor \(name) cannot recover from etcd: \(error)")
            return
        }
        etcdUnreachable = false
        sim.log(
            "supervisor \(name) stands by, recovered from etcd: "
                + (recovery.checkpoint.map { "the checkpoint of batch \($0), then " } ?? "")
                + "\(recovery.journalRecords - recovery.checkpointRecords) records replayed"
        )
        let leadership = EtcdLeadership(
            store: connection,
            keys: keys,
            record: LeaderRecord(name: name, pid: 0, command: endpoint, events: "sim://events-\(name)"),
            leaseSeconds: sim.settings.leaseSeconds,
            now: { [base = sim.base, clock = sim.scheduler.clock] in base + clock.now }
        )
        self.leadership = leadership
        follower = StandbyFollower(
            recovery: recovery,
            leadership: leadership,
            reportSeconds: sim.settings.leaseSeconds * 2,
            config: config,
            logger: Self.logger
        )
        follows = nil
        nextTurn = nil
        turnLater(sim.scheduler.duration(.zero, StandbyFollower.poll))
    }

    /// Its next turn `delay` from now, unless one comes sooner.
    private func turnLater(_ delay: Duration) {
        let at = sim.scheduler.now + delay
        if let next = nextTurn, next > sim.scheduler.now, next <= at { return }
        nextTurn = at
        looks += 1
        let (incarnation, token) = (incarnation, looks)
        sim.scheduler.at(at, "supervisor \(name) looks at etcd") { [unowned self] in
            guard self.incarnation == incarnation, looks == token else { return }
            nextTurn = nil
            turn()
        }
    }

    /// Its watch saw a change: it turns a moment later (the watch's stream, then its thread).
    func watchSawChange() {
        guard follower?.watch.map({ ($0 as? SimConnectionWatch)?.isPending == true }) == true else { return }
        turnLater(sim.scheduler.duration(.microseconds(100), .milliseconds(2)))
    }

    /// A standby's turn (``StandbyFollower``): what its watch saw (the journal followed), then its report, its
    /// watch, and its look at the election key — campaigning when none leads; the winner serves. While etcd cannot be
    /// reached it says so to whoever asks.
    func turn() {
        guard !paused, var follower, let leadership else { return }
        let recoveredAgain = follower.recoveredAgain
        defer {
            if follower.recoveredAgain > recoveredAgain {
                sim.log("supervisor \(name) lagged past a checkpoint's retention: recovered from the checkpoint")
            }
        }
        do {
            try follower.saw(follower.watch?.next(timeout: .zero) ?? [])
            switch try follower.turn() {
            case .won:
                etcdUnreachable = false
                lead(follower, leadership)
                return
            case .follows(let leader):
                follows = leader
                etcdUnreachable = false
            }
        } catch let error as EtcdError {
            if error.kind == .unreachable {
                etcdUnreachable = true
                follows = nil
            }
            follower.lostWatch()
        } catch {
            sim.fail("supervisor \(name) standing by: \(error)")
        }
        self.follower = follower
        turnLater(StandbyFollower.poll)
    }

    /// Won: its report withdrawn, its standby socket closes, its new epoch is journaled in etcd, and it serves.
    private func lead(_ follower: StandbyFollower, _ leadership: EtcdLeadership) {
        guard let connection else { return }
        var follower = follower
        follower.end()
        var recovery = follower.recovery
        recovery.beginLeading()
        self.follower = nil
        unbind()
        etcdJournal = EtcdJournal(store: connection, keys: keys, leadership: leadership, next: recovery.segment)
        etcdRecords = (recovery.journalRecords, recovery.checkpointRecords)
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

    /// After a step, as ``SupervisorLoop`` does with an ``EtcdCheckpointer``: when `checkpointEvery` records were
    /// appended since the last and its writer is idle, a checkpoint of the core now, which the real writer writes to
    /// etcd (fenced on the election key) and then removes what the older ones needed — off the loop's thread: some
    /// time the seed draws later, the loop going on meanwhile; not at all if the process was killed first. Its
    /// standbys recover from it, and one that lagged past the retention recovers from it again.
    func checkpointToEtcd(_ core: SupervisorCore, journal: EtcdJournal) {
        let every = sim.settings.checkpointEvery
        let records = etcdRecords.atStart + journal.appended
        guard every > 0, !checkpointing, records - etcdRecords.atCheckpoint >= every, let leadership, let connection
        else { return }
        etcdRecords.atCheckpoint = records
        checkpointing = true
        let checkpoint = Checkpoint(
            of: core,
            nextSegment: journal.segment,
            records: records,
            timeUnixNanos: sim.time.unixNanos
        )
        let writer = EtcdCheckpointer(
            store: connection,
            keys: keys,
            leadership: leadership,
            retain: config.journalRetain,
            logger: Self.logger
        )
        writeLater(checkpoint, batch: journal.segment, with: writer, life: lives)
    }

    private func writeLater(_ checkpoint: Checkpoint, batch: Int, with writer: EtcdCheckpointer, life: Int) {
        let delay = sim.scheduler.duration(.zero, .milliseconds(50))
        sim.scheduler.after(delay, "supervisor \(name)'s checkpoint writer") { [unowned self] in
            guard lives == life else { return }
            guard !paused else { return writeLater(checkpoint, batch: batch, with: writer, life: life) }
            checkpointing = false
            do {
                let removed = try writer.writeNow(checkpoint)
                sim.log(
                    "supervisor \(name) wrote a checkpoint to etcd (batch \(batch), \(removed) older "
                        + "removed)"
                )
            } catch {
                sim.log("supervisor \(name)'s checkpoint was not written: \(error)")
            }
        }
    }

    /// The next renewal, as the leader's thread makes it (``EtcdLeadership/nextRenewal(after:leaseSeconds:renewals:)``).
    func renewLater(after renewal: EtcdLeadership.Renewal = .renewed) {
        let incarnation = incarnation
        let renewals = sim.settings.sabotage == .renewsEveryThirdOfTheLease ? 3 : EtcdLeadership.renewalsPerLease
        let delay = EtcdLeadership.nextRenewal(
            after: renewal,
            leaseSeconds: sim.settings.leaseSeconds,
            renewals: renewals
        )
        sim.scheduler.after(delay, "supervisor \(name) renews its lease") { [unowned self] in
            guard self.incarnation == incarnation, driver != nil else { return }
            renewLater(after: paused ? .renewed : renew())
        }
    }

    /// Renews its lease once.
    @discardableResult
    func renew() -> EtcdLeadership.Renewal {
        guard let leadership else { return .lost }
        let renewal = leadership.renewOnce()
        if renewal == .lost || (renewal == .unanswered && !leadership.isValid) {
            sim.log("supervisor \(name): its lease lapsed")
        }
        return renewal
    }

    /// What a standby answers every request: `notLeader`, naming the leader it knows (none while it cannot reach
    /// etcd: then it says so).
    func answerNotLeader(_ batch: ArraySlice<(peer: [UInt8], bytes: [UInt8])>) {
        let leader = etcdUnreachable ? nil : follows
        let refusal = SupervisorMessage.notLeader(
            standby: name,
            leader: leader.map { ($0.name, $0.command) },
            etcdUnreachable: etcdUnreachable
        )
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

    // MARK: Cut off from etcd

    /// A step's records, appended to etcd in one fenced batch. Cut off from etcd, its loop waits in the append
    /// (``EtcdJournal`` tries again while its lease may hold): the append goes through when the cut heals in time —
    /// and what the step sends goes out then — or fails once the lease may have lapsed, and it stands by. The
    /// scheduler stands still inside a step, so the wait is the time until the append returns, nothing of the step
    /// going out meanwhile and nothing more read.
    func journal(_ records: [[UInt8]], to journal: EtcdJournal) throws(JournalFailure) {
        guard let connection, !records.isEmpty, let healed = connection.cutUntil else {
            for record in records { try journal.append(serialized: record) }
            try journal.flush()
            return
        }
        let validUntil = leadership?.validUntil.map { $0 - sim.base } ?? sim.scheduler.now
        guard healed < validUntil else {
            block(until: max(validUntil, sim.scheduler.now))
            throw JournalFailure(
                description: "etcd: a journal batch could not be appended while this supervisor's lease held (cut off"
                    + " from etcd): it stops acknowledging"
            )
        }
        block(until: healed)
        try connection.afterHealing { () throws(JournalFailure) in
            for record in records { try journal.append(serialized: record) }
            try journal.flush()
        }
    }

    private func block(until end: Duration) {
        blockedUntil = end
        let incarnation = incarnation
        sim.scheduler.at(end, "supervisor \(name)'s append to etcd returns") { [unowned self] in
            guard self.incarnation == incarnation, blockedUntil == end else { return }
            unblock()
        }
    }

    /// The append returned: what the step sent goes out, in order; then it goes on, or — the append failed — stands
    /// by.
    func unblock() {
        guard !paused else {
            unblockOnResume = true
            return
        }
        blockedUntil = nil
        // As the driver does once the journal returns: nothing goes out if the lease may have lapsed meanwhile.
        if let barred {
            held = []
            lastFailure = barred.description
            failsWhenUnblocked = true
        }
        let sends = held
        held = []
        for send in sends { send() }
        if failsWhenUnblocked {
            failsWhenUnblocked = false
            stepDown()
            return
        }
        tick()
        drainLater()
    }
}
