import ContainmentConfig
import Foundation
import Synchronization

/// Who a supervisor of a replicated runtime is: the election key's value while it leads, its standby report while it
/// does not (JSON, so `etcdctl get` shows it).
package struct LeaderRecord: Codable, Sendable, Equatable {
    package var name: String
    package var pid: Int32
    package var command: String
    package var events: String

    var bytes: [UInt8] { (try? JSONEncoder().encode(self)).map { [UInt8]($0) } ?? [] }

    package init(name: String, pid: Int32, command: String, events: String) {
        self.name = name
        self.pid = pid
        self.command = command
        self.events = events
    }

    package init?(bytes: [UInt8]) {
        guard let record = try? JSONDecoder().decode(Self.self, from: Data(bytes)) else { return nil }
        self = record
    }
}

/// A supervisor's hold on the leadership of a replicated runtime: a lease, and the election key created under it
/// only when no one holds it. While the lease is renewed the key stays; when its holder dies, hangs or loses etcd,
/// the lease lapses, the key goes, and a standby's ``campaign()`` creates it anew.
///
/// Two things keep a leader that lost its lease from acknowledging anything:
/// - **Fencing.** Every append is a transaction conditioned on the election key's creation revision (``fence``): once
///   the key is gone or another's, the append fails and the supervisor stops serving.
/// - **Its own clock.** ``isValid`` is false from `leaseSeconds` after the last renewal was sent (etcd counts from
///   when it received it, later), so a leader frozen past its lease (SIGSTOP, a stall) neither answers nor publishes
///   anything when it resumes, even what needs no append.
package final class EtcdLeadership: Sendable {
    let store: any EtcdStore
    let keys: EtcdKeys
    package let record: LeaderRecord
    let leaseSeconds: Int

    private struct State {
        var lease: Int64 = 0
        var fence: Int64 = 0
        var validUntil: ContinuousClock.Instant?
        var lost = false
    }

    private let state = Mutex(State())
    /// The time now: the machine's clock, or a simulated world's.
    private let now: @Sendable () -> ContinuousClock.Instant

    package init(
        store: any EtcdStore,
        keys: EtcdKeys,
        record: LeaderRecord,
        leaseSeconds: Int,
        now: @escaping @Sendable () -> ContinuousClock.Instant = { ContinuousClock.now }
    ) {
        self.store = store
        self.keys = keys
        self.record = record
        self.leaseSeconds = leaseSeconds
        self.now = now
    }

    /// The time now, by the clock this leadership reads.
    var time: ContinuousClock.Instant { now() }

    /// The election key's creation revision while this supervisor leads: every append is conditioned on it.
    package var fence: Int64 { state.withLock { $0.fence } }

    /// Whether this supervisor may still act as the leader: it won, and its lease cannot have lapsed yet.
    package var isValid: Bool {
        state.withLock { state in
            guard !state.lost, let until = state.validUntil else { return false }
            return now() < until
        }
    }

    /// Until when this supervisor may act as the leader by its own clock (nil: it does not lead).
    package var validUntil: ContinuousClock.Instant? {
        state.withLock { $0.lost ? nil : $0.validUntil }
    }

    /// The leader now, from the election key (`nil`: none).
    package func leader() throws(EtcdError) -> LeaderRecord? {
        try store.range(keys.leader).kvs.first.flatMap { LeaderRecord(bytes: $0.value) }
    }

    /// Tries once to lead: creates the election key under a fresh lease when no one holds it. True when this
    /// supervisor leads now.
    package func campaign() throws(EtcdError) -> Bool {
        let sent = now()
        let lease = try store.grantLease(seconds: leaseSeconds)
        let result: EtcdTxnResult
        do {
            result = try store.txn(
                [EtcdCompare(key: keys.leader, target: .createRevision(0))],
                success: [.put(key: keys.leader, value: record.bytes, lease: lease.id)],
                failure: []
            )
        } catch {
            try? store.revoke(lease.id)
            throw error
        }
        var fence = result.revision
        if !result.succeeded {
            // Created by this very campaign, when an earlier try's answer was lost and the store tried again: the key
            // is under this lease.
            guard let holder = try? store.range(keys.leader).kvs.first, holder.lease == lease.id else {
                try? store.revoke(lease.id)
                return false
            }
            fence = holder.createRevision
        }
        state.withLock {
            $0 = State(lease: lease.id, fence: fence, validUntil: sent + .seconds(lease.seconds))
        }
        return true
    }

    /// How many renewals a lease's length holds (``keepLeading(until:)``).
    package static let renewalsPerLease = 6
    /// How soon a renewal that did not reach etcd is tried again (while the lease may still hold).
    package static let renewalRetry: Duration = .milliseconds(50)

    /// What became of one renewal.
    package enum Renewal: Equatable {
        case renewed
        /// etcd did not answer (electing a leader, cut off): the lease runs on, and lapses on its own if this goes on.
        case unanswered
        /// The lease is gone.
        case lost
    }

    /// When to renew next after `renewal`: a sixth of the lease after one that renewed (`renewals`: per lease), and
    /// soon after one etcd did not answer — so that the first renewal after an etcd election comes right after it, and
    /// what the lease must outlast is the election plus one interval, not two.
    package static func nextRenewal(
        after renewal: Renewal,
        leaseSeconds: Int,
        renewals: Int = renewalsPerLease
    ) -> Duration {
        let interval = Duration.seconds(leaseSeconds) / renewals
        return renewal == .renewed ? interval : min(interval, renewalRetry)
    }

    /// Renews the lease once: true while it holds. Sent every sixth of the lease (``keepLeading(until:)``).
    @discardableResult
    package func renew() -> Bool {
        switch renewOnce() {
        case .renewed: true
        case .unanswered: isValid
        case .lost: false
        }
    }

    /// Renews the lease once: what became of it.
    package func renewOnce() -> Renewal {
        let (lease, lost) = state.withLock { ($0.lease, $0.lost) }
        guard lease != 0, !lost else { return .lost }
        let sent = now()
        do {
            let seconds = try store.keepAlive(lease)
            state.withLock { state in
                if seconds > 0 {
                    state.validUntil = sent + .seconds(seconds)
                } else {
                    state.lost = true
                }
            }
            return seconds > 0 ? .renewed : .lost
        } catch {
            return .unanswered
        }
    }

    /// Renews the lease every sixth of it on a thread of its own (and every 50 ms while etcd does not answer), until
    /// it is lost or `stopped` says so: while etcd elects a new leader renewals wait or fail, and the lease held
    /// before must still cover the election.
    func keepLeading(until stopped: @escaping @Sendable () -> Bool) -> Thread {
        let leaseSeconds = leaseSeconds
        let thread = Thread { [self] in
            nameCurrentThread("leader-lease")
            while !stopped() {
                let renewal = renewOnce()
                guard renewal == .renewed || (renewal == .unanswered && isValid) else { break }
                let delay = Self.nextRenewal(after: renewal, leaseSeconds: leaseSeconds)
                Thread.sleep(forTimeInterval: Double(delay.milliseconds) / 1_000)
            }
        }
        thread.start()
        return thread
    }

    /// Gives the leadership up now (a clean stop): the lease is revoked, the key goes with it, a standby takes over
    /// without waiting for the lease to lapse.
    package func resign() {
        let lease = state.withLock { state in
            defer { state = State(lost: true) }
            return state.lease
        }
        if lease != 0 { try? store.revoke(lease) }
    }

    /// Marks the leadership lost (an append was fenced).
    func lose() {
        state.withLock { $0.lost = true }
    }
}
