import ContainmentBus
import Foundation
import Logging
import Synchronization
import ZeroMQ

/// A supervisor of a replicated runtime (`journal: etcd`), on its own thread: it stands by — recovered from etcd,
/// following the journal as the leader appends it (a watch), answering every request `notLeader` with the leader's
/// endpoint — until the leader's election key is gone and its own campaign wins; then it replays what it has not
/// applied, begins a new epoch and serves, journaling to etcd, for as long as its lease holds. A leader that loses its
/// lease (frozen, cut off from etcd, fenced) stops serving and stands by again; a stopped one resigns, so a standby
/// takes over at once.
final class ReplicatedSupervisor {
    let context: Context
    let config: RuntimeConfig
    let store: any EtcdStore
    let settings: EtcdSettings
    let keys: EtcdKeys
    let logger: Logger
    let stopping: StopFlag
    let record: LeaderRecord
    /// What to do once standing by the first time (write the pid file), and once leading (apply the topology on an
    /// empty journal, start the hosts).
    let onStandby: () throws -> Void
    let onLeading: (SupervisorLoop, Recovery) throws -> Void
    private var stoodBy = false
    /// How often a standby looks at the election key when no change woke it.
    static let standbyPoll: Duration = .milliseconds(200)

    init(
        context: Context,
        config: RuntimeConfig,
        store: any EtcdStore,
        settings: EtcdSettings,
        logger: Logger,
        stopping: StopFlag,
        onStandby: @escaping () throws -> Void,
        onLeading: @escaping (SupervisorLoop, Recovery) throws -> Void
    ) {
        self.context = context
        self.config = config
        self.store = store
        self.settings = settings
        keys = EtcdKeys(prefix: settings.prefix)
        self.logger = logger
        self.stopping = stopping
        self.onStandby = onStandby
        self.onLeading = onLeading
        record = LeaderRecord(
            name: config.supervisorName ?? "supervisor",
            pid: getpid(),
            command: config.commandEndpoint,
            events: config.eventEndpoint
        )
    }

    /// Stands by and leads in turn until stopped.
    func run(allow: [CurveKey: CurveSettings.Role]) throws {
        while !stopping.isSet {
            do {
                // Bound while it stands by, so a request is always answered: notLeader, naming the leader if known.
                let responder = try StandbyResponder(context: context, config: config, allow: allow, logger: logger)
                let won: (EtcdLeadership, Recovery)?
                do {
                    defer { responder.close() }
                    won = try standByUntilWon(responder)
                }
                guard let (leadership, recovery) = won else { return }
                try lead(leadership, recovery, allow: allow)
            } catch let error as ZMQError where error.code == .contextTerminated {
                // Stopped (SIGTERM) between two of its sockets: a clean stop.
                return
            }
        }
    }

    /// Recovers from etcd, then follows and campaigns until it wins (nil: stopped meanwhile).
    private func standByUntilWon(_ responder: StandbyResponder) throws -> (EtcdLeadership, Recovery)? {
        guard var recovery = try standBy(responder) else { return nil }
        if !stoodBy {
            stoodBy = true
            try onStandby()
        }
        let leadership = EtcdLeadership(store: store, keys: keys, record: record, leaseSeconds: settings.leaseSeconds)
        guard try campaignUntilWon(leadership, &recovery, responder) else { return nil }
        return (leadership, recovery)
    }

    /// Recovery from etcd, tried again while etcd cannot be reached (answering requests meanwhile); nil when stopped.
    private func standBy(_ responder: StandbyResponder) throws -> Recovery? {
        var delay = 0.05
        while !stopping.isSet {
            do {
                let recovery = try Recovery.load(from: store, keys: keys, config: config, logger: logger)
                logger.info(
                    "supervisor standing by",
                    metadata: [
                        "supervisor.name": "\(record.name)", "journal.batch": "\(recovery.segment - 1)",
                        "journal.checkpoint": "\(recovery.checkpoint.map(String.init) ?? "none")",
                        "controller.count": "\(recovery.replay.state.controllers.count)",
                    ]
                )
                return recovery
            } catch let error as EtcdError {
                logger.warning("etcd cannot be reached; trying again", metadata: ["error.message": "\(error)"])
                responder.setEtcdUnreachable()
                Thread.sleep(forTimeInterval: delay)
                delay = min(delay * 2, 1)
            }
        }
        return nil
    }

    /// Follows the journal (applying each batch the leader appends) and campaigns whenever no one leads; true once
    /// this supervisor won, with `recovery` caught up; false when stopped.
    private func campaignUntilWon(
        _ leadership: EtcdLeadership,
        _ recovery: inout Recovery,
        _ responder: StandbyResponder
    ) throws -> Bool {
        var watch: (any EtcdWatch)?
        defer { watch?.cancel() }
        var report = StandbyReport(store: store, key: keys.standby(record.name), seconds: settings.leaseSeconds * 2)
        defer { report.withdraw() }
        while !stopping.isSet {
            do {
                try report.tell(
                    StandbyRecord(
                        name: record.name,
                        pid: record.pid,
                        command: record.command,
                        applied: recovery.segment - 1
                    )
                )
                if watch == nil {
                    let revision = try store.range(keys.leader).revision
                    try recovery.follow(from: store, keys: keys, config: config, logger: logger)
                    watch = try store.watch(keys.root + "/", end: EtcdKeys.end(of: keys.root + "/"), from: revision + 1)
                }
                switch try recovery.look(leadership, config: config, logger: logger) {
                case .won: return true
                case .follows(let leader): responder.set(leader: leader)
                }
                let changes = try watch?.next(timeout: Self.standbyPoll) ?? []
                if changes.contains(where: { $0.put?.key.hasPrefix(keys.journalPrefix) == true }) {
                    try recovery.follow(from: store, keys: keys, config: config, logger: logger)
                }
            } catch let error as EtcdError {
                // The watch ended or etcd is away: look again from where recovery stands.
                logger.debug("standby: etcd", metadata: ["error.message": "\(error)"])
                if error.kind == .unreachable { responder.setEtcdUnreachable() }
                watch?.cancel()
                watch = nil
                Thread.sleep(forTimeInterval: 0.1)
            } catch let error as ZMQError where error.code == .contextTerminated {
                return false
            }
        }
        return false
    }

    /// Serves as the leader until its lease is lost or it is stopped.
    private func lead(_ leadership: EtcdLeadership, _ recovery: Recovery, allow: [CurveKey: CurveSettings.Role]) throws
    {
        var recovery = recovery
        recovery.beginLeading()
        _ = leadership.keepLeading(until: { [stopping] in stopping.isSet })
        let loop = try SupervisorLoop(
            context: context,
            config: config,
            logger: logger,
            allow: allow,
            recovery: recovery,
            journal: EtcdJournal(store: store, keys: keys, leadership: leadership, next: recovery.segment),
            checkpointer: EtcdCheckpointer(
                store: store,
                keys: keys,
                leadership: leadership,
                retain: config.journalRetain,
                logger: logger
            ),
            leadership: leadership
        )
        logger.notice(
            "supervisor leads",
            metadata: [
                "supervisor.name": "\(record.name)", "supervisor.epoch": "\(loop.core.epoch)",
                "journal.batch": "\(recovery.segment - 1)", "etcd.fence": "\(leadership.fence)",
            ]
        )
        try onLeading(loop, recovery)
        loop.run()
        if stopping.isSet {
            leadership.resign()
            return
        }
        // Its lease may still run (an append refused for another reason): handed over now rather than when it lapses.
        leadership.resign()
        logger.warning(
            "supervisor no longer leads: standing by",
            metadata: ["error.message": "\(loop.failure.map { "\($0)" } ?? "stopped")"]
        )
    }
}

/// What a standby's look at etcd came to.
package enum StandbyLook: Sendable, Equatable {
    /// No one led, and its campaign won: it leads now, caught up.
    case won
    /// It follows the leader named (nil: none leads — or the election key names this supervisor's own endpoint, a dead
    /// incarnation's left until its lease lapses: naming it would send hosts and clients back here, away from the
    /// leader to come).
    case follows(LeaderRecord?)
}

extension Recovery {
    /// A standby's look at the election key: when no one leads it campaigns, and once it wins it catches up with
    /// everything the last leader appended (whose lease lapsed before this campaign could win, and whose appends are
    /// fenced since). Each supervisor of a replicated runtime and each of a simulated world's look this way.
    package mutating func look(
        _ leadership: EtcdLeadership,
        config: RuntimeConfig,
        logger: Logger
    ) throws -> StandbyLook {
        let leader = try leadership.leader()
        guard leader == nil, try leadership.campaign() else {
            return .follows(leader?.command == leadership.record.command ? nil : leader)
        }
        try follow(from: leadership.store, keys: leadership.keys, config: config, logger: logger)
        return .won
    }
}

/// Set once the supervisor is told to stop.
final class StopFlag: Sendable {
    private let value = Mutex(false)
    var isSet: Bool { value.withLock { $0 } }
    func set() { value.withLock { $0 = true } }
}

/// A standby's report in etcd (``StandbyRecord``), under a lease of its own that it renews about every second: what
/// `containment status` shows of it, gone with it when it dies.
struct StandbyReport {
    let store: any EtcdStore
    let key: String
    let seconds: Int
    private var lease: Int64 = 0
    private var told: StandbyRecord?
    private var toldAt = ContinuousClock.now

    init(store: any EtcdStore, key: String, seconds: Int) {
        self.store = store
        self.key = key
        self.seconds = seconds
    }

    /// Writes `record` when it changed, and renews the lease about every second.
    mutating func tell(_ record: StandbyRecord) throws(EtcdError) {
        let now = ContinuousClock.now
        if lease != 0, now - toldAt >= .seconds(1) {
            toldAt = now
            if try store.keepAlive(lease) == 0 { (lease, told) = (0, nil) }
        }
        guard record != told else { return }
        if lease == 0 { lease = try store.grantLease(seconds: seconds).id }
        let bytes = (try? JSONEncoder().encode(record)).map { [UInt8]($0) } ?? []
        try store.put(key, bytes, lease: lease)
        told = record
        toldAt = now
    }

    /// Removes the report (it leads now, or stops).
    mutating func withdraw() {
        if lease != 0 { try? store.revoke(lease) }
        lease = 0
    }
}
