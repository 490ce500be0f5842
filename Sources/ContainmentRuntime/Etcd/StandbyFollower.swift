import ContainmentConfig
import Foundation
import Logging

/// A standby's following of the journal and of the election, one turn at a time — ``ReplicatedSupervisor``'s loop and
/// a simulated world's standbys run the same turns. A turn reports the standby (``StandbyReport``), opens a watch of
/// the runtime's keys when it has none (caught up with the journal first), and looks (``Recovery/look(_:config:logger:)``):
/// it won, or it follows whom. Between two turns the caller waits on ``watch`` (up to 200 ms) and hands what it saw to
/// ``saw(_:)``, which follows the journal when the leader appended to it.
package struct StandbyFollower {
    /// How long a standby waits on its watch between two turns when no change comes.
    package static let poll: Duration = .milliseconds(200)

    package private(set) var recovery: Recovery
    let leadership: EtcdLeadership
    let config: RuntimeConfig
    let logger: Logger
    private var report: StandbyReport
    /// Its watch of every key under the runtime's prefix, from the revision it caught up at (nil: opened next turn).
    package private(set) var watch: (any EtcdWatch)?
    /// How many times it found batches it had yet to apply removed, and recovered from the checkpoint again.
    package private(set) var recoveredAgain = 0

    package init(
        recovery: Recovery,
        leadership: EtcdLeadership,
        reportSeconds: Int,
        config: RuntimeConfig,
        logger: Logger
    ) {
        self.recovery = recovery
        self.leadership = leadership
        self.config = config
        self.logger = logger
        report = StandbyReport(
            store: leadership.store,
            key: leadership.keys.standby(leadership.record.name),
            seconds: reportSeconds,
            now: { [leadership] in leadership.time }
        )
    }

    private var store: any EtcdStore { leadership.store }
    private var keys: EtcdKeys { leadership.keys }

    /// One turn: report, watch (caught up first), look.
    package mutating func turn() throws -> StandbyLook {
        let record = leadership.record
        try report.tell(
            StandbyRecord(name: record.name, pid: record.pid, command: record.command, applied: recovery.segment - 1)
        )
        if watch == nil {
            let revision = try store.range(keys.leader).revision
            try follow()
            watch = try store.watch(keys.root + "/", end: EtcdKeys.end(of: keys.root + "/"), from: revision + 1)
        }
        return try recovery.look(leadership, config: config, logger: logger)
    }

    /// What its watch saw: the journal followed when the leader appended to it.
    package mutating func saw(_ changes: [EtcdChange]) throws {
        guard changes.contains(where: { $0.put?.key.hasPrefix(keys.journalPrefix) == true }) else { return }
        try follow()
    }

    private mutating func follow() throws {
        if try recovery.follow(from: store, keys: keys, config: config, logger: logger) { recoveredAgain += 1 }
    }

    /// etcd failed a turn (its watch ended, or it cannot be reached): the next opens a watch again, from where the
    /// recovery stands.
    package mutating func lostWatch() {
        watch?.cancel()
        watch = nil
    }

    /// It leads now, or stops: its report withdrawn, its watch cancelled.
    package mutating func end() {
        report.withdraw()
        lostWatch()
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

/// A standby's report in etcd (``StandbyRecord``), under a lease of its own that it renews about every second: what
/// `containment status` shows of it, gone with it when it dies.
struct StandbyReport {
    let store: any EtcdStore
    let key: String
    let seconds: Int
    private var lease: Int64 = 0
    private var told: StandbyRecord?
    private var toldAt: ContinuousClock.Instant
    /// The time now: the machine's clock, or a simulated world's.
    private let now: () -> ContinuousClock.Instant

    init(store: any EtcdStore, key: String, seconds: Int, now: @escaping () -> ContinuousClock.Instant) {
        self.store = store
        self.key = key
        self.seconds = seconds
        self.now = now
        toldAt = now()
    }

    /// Writes `record` when it changed, and renews the lease about every second.
    mutating func tell(_ record: StandbyRecord) throws(EtcdError) {
        let now = now()
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
