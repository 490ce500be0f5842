import ContainmentConfig
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
    /// this supervisor won, with `recovery` caught up; false when stopped. Each turn is ``StandbyFollower``'s; between
    /// two it waits on its watch, up to ``StandbyFollower/poll``.
    private func campaignUntilWon(
        _ leadership: EtcdLeadership,
        _ recovery: inout Recovery,
        _ responder: StandbyResponder
    ) throws -> Bool {
        var follower = StandbyFollower(
            recovery: recovery,
            leadership: leadership,
            reportSeconds: settings.leaseSeconds * 2,
            config: config,
            logger: logger
        )
        defer {
            follower.end()
            recovery = follower.recovery
        }
        while !stopping.isSet {
            do {
                switch try follower.turn() {
                case .won: return true
                case .follows(let leader): responder.set(leader: leader)
                }
                let changes: [EtcdChange]
                do {
                    changes = try follower.watch?.next(timeout: StandbyFollower.poll) ?? []
                } catch {
                    // The watch's stream ended: its one member went away, or etcd is away. That alone says nothing
                    // of a majority (clients were told etcd had none while it was healthy): the next turn, which asks
                    // every member, decides.
                    logger.debug("standby: its etcd watch ended", metadata: ["error.message": "\(error)"])
                    follower.lostWatch()
                    Thread.sleep(forTimeInterval: 0.1)
                    continue
                }
                try follower.saw(changes)
            } catch let error as EtcdError {
                // etcd is away (no member answered), or refused: look again from where recovery stands.
                logger.debug("standby: etcd", metadata: ["error.message": "\(error)"])
                if error.kind == .unreachable { responder.setEtcdUnreachable() }
                follower.lostWatch()
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

/// Set once the supervisor is told to stop.
final class StopFlag: Sendable {
    private let value = Mutex(false)
    var isSet: Bool { value.withLock { $0 } }
    func set() { value.withLock { $0 = true } }
}
