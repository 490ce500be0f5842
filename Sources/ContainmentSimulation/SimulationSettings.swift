import ContainmentWorkload
import Foundation

/// What a simulated run is made of: its seed, how long it runs in simulated time, the size of the world, and which
/// faults it may inject (`containment simulate`'s options).
package struct SimulationSettings: Sendable {
    package var seed: UInt64 = 1
    /// Simulated time the clients send commands for (faults are injected meanwhile); then every fault heals and the
    /// world settles before the checks.
    package var duration: Duration = .seconds(10)
    package var hosts = 3
    package var clients = 4
    /// Controllers in all, spread over the clients' pools.
    package var controllers = 60
    /// Subscribers besides the reference one (which keeps every event for the checks).
    package var subscribers = 1
    /// How long a client pauses, on average, between an answer and its next command (drawn between none and twice
    /// this): the load. 2.5 ms keeps a client busy (~100 commands a simulated second). Nil: by the duration
    /// (``meanThink``).
    package var think: Duration?
    /// The mean pause: ``think``, or by default 2.5 ms for a run of 10 s and in proportion beyond (the duration /
    /// 4,000: 150 ms for 10 minutes), so a client sends about as many commands in a long run as in a short one, and a
    /// long run spends its time on faults, timers and recoveries rather than on commands.
    package var meanThink: Duration { think ?? max(.microseconds(2_500), duration / 4_000) }
    /// Every client draws over one shared pool, so their commands race on the same controllers (`stress
    /// --contended`); a client's replica cannot see the others', so its replies are judged by the journal's replay.
    package var contended = false
    /// The content controllers are forms whose code answers their loads and layouts (`stress --answering`): each host
    /// answers the supervisor's questions after a delay the seed draws, now and then past `answerTimeout`.
    package var answering = false
    /// One more client asks for snapshots in bursts and reads its replies late (``SimReader``): they back up into the
    /// supervisor's own queue for it, within `replyQueueBytes` (issue 42, finding 3).
    package var lateReader = false
    /// The clients draw layout constraints too (SPEC §16): added, refused as unsatisfiable, removed with their views.
    package var constraints = false
    /// The clients give tab containers more children than their bars show and select through More (SPEC §16).
    package var moreTabs = false
    /// Whether a client's replica cannot foresee its replies, so that the journal's replay judges them.
    package var judgedByReplay: Bool { contended || answering }
    /// Each seed draws the shape of its world (``world(seed:)``) — swarm testing, as TigerBeetle's VOPR does: the
    /// flags `replicated`, `contended` and `answering` are then the seed's, not these.
    package var drawsWorld = false
    /// Two supervisors journal to a simulated etcd (`journal: etcd`): one leads on a lease, the other stands by and
    /// takes over when the lease lapses (the leader killed or stopped); hosts and clients follow the leader.
    package var replicated = false
    /// The leader's lease, in seconds (`etcd.leaseSeconds`).
    package var leaseSeconds = 2
    /// Of the clients' commands, how many are invalid on purpose.
    package var invalidRatio = 0.1
    /// The faults it may inject; each kind is drawn in turn at random times.
    package var faults: Set<FaultKind> = Set(FaultKind.allCases)
    /// The faults that apply to this world: of a replicated one, not those of a supervisor's own disk; of one
    /// supervisor, not etcd's.
    var injectable: Set<FaultKind> {
        faults.subtracting(replicated ? FaultKind.diskFaults : FaultKind.etcdFaults)
    }
    /// How often a fault is injected on average, in simulated time.
    package var faultEvery: Duration = .seconds(1)
    /// The supervisor writes a checkpoint after this many records (0: never); a restarted one recovers from the latest
    /// and replays only the records after it, as on a real disk.
    package var checkpointEvery = 500
    /// Keep a line per thing that happened (`--trace`).
    package var trace = false
    /// A defect planted on purpose, to show that the checks find it (the simulator's own tests).
    package var sabotage: Sabotage?

    package init() {}

    /// The settings of seed `seed`'s world: these, with `seed`; when ``drawsWorld``, its shape drawn from the seed (a
    /// stream of its own, so the world's own draws are those of the same shape given by flags): replicated half the
    /// time, contended a quarter, answering a quarter, with a late reader a quarter, drawing layout constraints a
    /// quarter, giving tab containers more tabs than fit a quarter.
    package func world(seed: UInt64) -> SimulationSettings {
        var one = self
        one.seed = seed
        guard drawsWorld else { return one }
        var random = SplitMix64(seed: seed ^ 0x5357_4152_4d5f_5348)  // "SWARM_SH": the shape's own stream
        one.replicated = Bool.random(using: &random)
        one.contended = Int.random(in: 0..<4, using: &random) == 0
        one.answering = Int.random(in: 0..<4, using: &random) == 0
        one.lateReader = Int.random(in: 0..<4, using: &random) == 0
        // Drawn last, so that every other draw of a seed stays what it was before constraints were drawn.
        one.constraints = Int.random(in: 0..<4, using: &random) == 0
        // Drawn after it for the same reason.
        one.moreTabs = Int.random(in: 0..<4, using: &random) == 0
        return one
    }

    /// Pins the world's shape as `simulate` is told (`--world`, and its flags), or leaves each seed to draw its own
    /// when none is given (or `--world drawn`); false when `world` names no shape.
    package mutating func pin(world: String?, replicated: Bool, contended: Bool, answering: Bool) -> Bool {
        let parts = Set((world ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) })
        guard
            parts.isSubset(of: [
                "drawn", "single", "replicated", "contended", "answering", "late-reader", "constraints", "more-tabs",
            ]),
            !(parts.contains("single") && parts.contains("replicated")),
            !parts.contains("drawn") || parts.count == 1
        else { return false }
        drawsWorld = (world == nil || parts.contains("drawn")) && !(replicated || contended || answering)
        self.replicated = replicated || parts.contains("replicated")
        self.contended = contended || parts.contains("contended")
        self.answering = answering || parts.contains("answering")
        lateReader = parts.contains("late-reader")
        constraints = parts.contains("constraints")
        moreTabs = parts.contains("more-tabs")
        return true
    }

    /// `replicated, answering`: the world's shape as a report names it.
    package var shape: String {
        ([replicated ? "replicated" : "single"] + (contended ? ["contended"] : []) + (answering ? ["answering"] : [])
            + (lateReader ? ["late reader"] : []) + (constraints ? ["constraints"] : [])
            + (moreTabs ? ["more tabs"] : []))
            .joined(separator: ", ")
    }

    /// The fault kinds some seed of a run may inject: of its one world, or — each drawing its own — of both.
    var everyInjectable: Set<FaultKind> { drawsWorld ? faults : injectable }
}

/// A defect the world can be made to have, so a test sees the checks fail.
package enum Sabotage: Sendable {
    /// A host drops one callback instead of handing it to its actor.
    case dropCallback
    /// The disk loses a synced record of an accepted command (a lying disk).
    case loseAcknowledgedRecord
    /// A replicated world's leader sends what a step holds without asking whether its lease may have lapsed by its own
    /// clock (``EtcdLeadership/isValid`` without its clock): stopped past its lease and continued, it still speaks.
    case leaderIgnoresItsLease
    /// A replicated world's leader renews its lease every third of it (as before issue 42), not every sixth: an etcd
    /// election longer than two thirds of the lease outlasts what it last renewed.
    case renewsEveryThirdOfTheLease
}

/// A fault the world can inject.
package enum FaultKind: String, CaseIterable, Sendable, Comparable {
    /// A supervisor killed with SIGKILL between two steps, and started again (replicated: mostly the leader; it comes
    /// back as a standby).
    case supervisorCrash
    /// A supervisor stopped (SIGSTOP) for a while, then continued (replicated: mostly the leader, whose lease may lapse
    /// meanwhile; it must then acknowledge nothing more).
    case supervisorPause
    /// The supervisor killed while writing a step's records: a prefix of them reached the disk, no reply went out.
    case tornWrite
    /// The disk full (ENOSPC) at a write: the supervisor stops (fail-stop) and is started again.
    case diskFull
    /// A sync that fails (EIO): the supervisor stops; what it wrote may or may not be on the disk.
    case syncError
    /// A supervisor cut off from etcd for a while (replicated: mostly the leader): its appends wait, its lease is not
    /// renewed; healed in time it goes on, else its lease lapses and the standby takes over.
    case etcdCut
    /// etcd unreachable from every supervisor for a while, its leases lapsing on time (a majority of its members
    /// away from them).
    case etcdOutage
    /// etcd's members electing a new raft leader (its leader killed, a majority kept): nothing answered for up to
    /// five sixths of the supervisors' lease, no lease lapsing meanwhile, and every lease extended when the new leader
    /// takes office (etcd's lessor on promotion). The supervisors' leader must ride it out (issue 42, item 2).
    case etcdElection
    /// A host process killed with SIGKILL, and started again (a new pid).
    case hostCrash
    /// A host stopped (SIGSTOP) for a while, then continued.
    case hostPause
    /// A host's actors behind for a while (slow controller code, full mailboxes): its dispatcher finishes nothing;
    /// past the bound of jobs waiting, the host reads nothing of the supervisor's while it beats on, and the
    /// supervisor's queue toward it fills (back-pressure, ``HostCore/readsSupervisor``).
    case slowActors
    /// A host cut off from the supervisor for a while, its messages held both ways until the cut heals.
    case partition
    /// A host's connection dropped (the process lives): what the ROUTER queued for it is lost; ZeroMQ connects again,
    /// and the supervisor, seeing a new connection, has it greet again.
    case hostDisconnect
    /// A client's connection dropped: what the ROUTER queued for it is lost; it connects again.
    case clientDisconnect
    /// The network slow for a while: every message delayed much longer.
    case delay

    package static func < (a: FaultKind, b: FaultKind) -> Bool { a.rawValue < b.rawValue }

    /// The faults of a supervisor's own disk (not of a replicated world, whose journal is etcd's).
    static let diskFaults: Set<FaultKind> = [.tornWrite, .diskFull, .syncError]
    /// The kinds a `--faults` list names: `all`, `none`, or kinds separated by commas; nil when one is unknown.
    package static func named(_ list: String) -> Set<FaultKind>? {
        let names = list.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        if names == ["all"] { return Set(allCases) }
        if names == ["none"] { return [] }
        let kinds = names.map(FaultKind.init(rawValue:))
        return kinds.contains(nil) ? nil : Set(kinds.compactMap { $0 })
    }

    /// The faults of etcd (only of a replicated world).
    static let etcdFaults: Set<FaultKind> = [.etcdCut, .etcdOutage, .etcdElection]
}
