import ContainmentConfig
import ContainmentRuntime
import Synchronization

/// The simulated world's time, readable where a `Sendable` is asked for: etcd's leases and a leader's own clock
/// (``EtcdLeadership``) read it. The scheduler sets it as it goes.
final class SimClock: Sendable {
    private let value = Mutex<Duration>(.zero)
    var now: Duration { value.withLock { $0 } }
    func set(_ time: Duration) { value.withLock { $0 = time } }
}

/// etcd, in memory, as the replicated journal sees it through ``EtcdStore``: one linearizable store of keys with
/// revisions and versions, transactions that compare and then write atomically, and leases that lapse on the
/// simulated clock (taking their keys with them). Every call is answered at once: a simulated etcd always has its
/// majority. Nothing here depends on a dictionary's order, so a run stays a function of its seed.
final class SimEtcd: EtcdStore {
    private struct Lease {
        var seconds: Int
        var expires: Duration
    }

    private struct State {
        /// Every key, in order.
        var keys: [String] = []
        var values: [String: EtcdKeyValue] = [:]
        var versions: [String: Int64] = [:]
        var revision: Int64 = 1
        var leases: [Int64: Lease] = [:]
        var nextLease: Int64 = 0x1000
        /// The watches open, in the order they were opened.
        var watches: [SimWatch] = []
        /// Until when its members elect a raft leader (``FaultKind/etcdElection``): no lease lapses meanwhile.
        var electingUntil: Duration?
    }

    private let state = Mutex(State())
    let clock: SimClock
    /// Every key put under this prefix, and its first value, in the order they were put, whatever was deleted since:
    /// the checks read every journal batch ever appended, those a checkpoint's retention removed included.
    private let archivePrefix: String
    private let archive = Mutex<[EtcdKeyValue]>([])

    init(clock: SimClock, archiving prefix: String) {
        self.clock = clock
        archivePrefix = prefix
    }

    /// The keys put under the archived prefix, each as first put, in order.
    var archived: [EtcdKeyValue] { archive.withLock { $0 } }

    /// The store's revision now (it grows with every write).
    var revision: Int64 { state.withLock { $0.revision } }

    /// The election key's creation revision now (0: no one leads), leases that lapsed gone first.
    func createRevision(of key: String) -> Int64 {
        state.withLock { state in
            expire(&state)
            return state.values[key]?.createRevision ?? 0
        }
    }

    func range(
        _ key: String,
        end: String?,
        limit: Int
    ) throws(EtcdError) -> (
        kvs: [EtcdKeyValue], more: Bool, revision: Int64
    ) {
        state.withLock { state in
            expire(&state)
            let listed = Self.keys(of: state, from: key, to: end)
            let more = limit > 0 && listed.count > limit
            let found = (more ? listed.prefix(limit) : listed).map { state.values[$0]! }  // listed: it has a value
            return (found, more, state.revision)
        }
    }

    func count(_ key: String, end: String) throws(EtcdError) -> Int {
        state.withLock { state in
            expire(&state)
            return Self.keys(of: state, from: key, to: end).count
        }
    }

    func txn(
        _ compare: [EtcdCompare],
        success: [EtcdOperation],
        failure: [EtcdOperation]
    ) throws(EtcdError)
        -> EtcdTxnResult
    {
        try state.withLock { state throws(EtcdError) in
            expire(&state)
            let holds = compare.allSatisfy { comparison in
                switch comparison.target {
                case .createRevision(let revision): (state.values[comparison.key]?.createRevision ?? 0) == revision
                case .version(let version): (state.versions[comparison.key] ?? 0) == version
                }
            }
            let operations = holds ? success : failure
            let writes = operations.contains { if case .range = $0 { false } else { true } }
            if writes { state.revision += 1 }
            var read: [EtcdKeyValue] = []
            for operation in operations {
                switch operation {
                case .range(let key):
                    if let value = state.values[key] { read.append(value) }
                case .put(let key, let value, let lease):
                    guard lease == 0 || state.leases[lease] != nil else {
                        throw EtcdError(kind: .refused(code: 5), description: "etcdserver: requested lease not found")
                    }
                    put(key, value, lease: lease, in: &state)
                case .delete(let key, let end):
                    for name in Self.keys(of: state, from: key, to: end) { remove(name, from: &state) }
                }
            }
            return EtcdTxnResult(succeeded: holds, revision: state.revision, read: read)
        }
    }

    func grantLease(seconds: Int) throws(EtcdError) -> (id: Int64, seconds: Int) {
        state.withLock { state in
            expire(&state)
            state.nextLease += 1
            state.leases[state.nextLease] = Lease(seconds: seconds, expires: clock.now + .seconds(seconds))
            return (state.nextLease, seconds)
        }
    }

    func keepAlive(_ id: Int64) throws(EtcdError) -> Int {
        state.withLock { state in
            expire(&state)
            guard var lease = state.leases[id] else { return 0 }
            lease.expires = clock.now + .seconds(lease.seconds)
            state.leases[id] = lease
            return lease.seconds
        }
    }

    func revoke(_ id: Int64) throws(EtcdError) {
        state.withLock { state in
            expire(&state)
            end(lease: id, in: &state)
        }
    }

    /// A watch of the keys from `key` up to `end`: every change from now on (nothing else can write between a
    /// simulated caller's read of the revision and its watch, so `revision` adds nothing).
    func watch(_ key: String, end: String, from revision: Int64) throws(EtcdError) -> any EtcdWatch {
        openWatch(key, end: end)
    }

    func openWatch(_ key: String, end: String) -> SimWatch {
        let watch = SimWatch(store: self, key: key, end: end)
        state.withLock { $0.watches.append(watch) }
        return watch
    }

    func cancel(_ watch: SimWatch) {
        state.withLock { $0.watches.removeAll { $0 === watch } }
    }

    /// Tells the watches whose range holds `key` of its change.
    private func notify(_ key: String, put: EtcdKeyValue?, in state: State) {
        for watch in state.watches where watch.covers(key) {
            watch.add(EtcdChange(put: put, deleted: put == nil ? key : nil, revision: state.revision))
        }
    }

    func close() {}

    // MARK: The store's bookkeeping

    /// Its members elect a raft leader until `end` (every connection is cut off meanwhile: no member answers): no lease
    /// lapses until ``elected()`` — no leader counts their time.
    func elect(until end: Duration) { state.withLock { $0.electingUntil = max($0.electingUntil ?? .zero, end) } }

    /// Whether its members are electing a leader.
    var isElecting: Bool { state.withLock { $0.electingUntil != nil } }

    /// The new raft leader takes office: as etcd's lessor does when it is promoted, every lease is extended to at
    /// least its whole time from now.
    func elected() {
        state.withLock { state in
            state.electingUntil = nil
            let now = clock.now
            for id in state.leases.keys {
                if let lease = state.leases[id] {
                    state.leases[id]?.expires = max(lease.expires, now + .seconds(lease.seconds))
                }
            }
        }
    }

    /// Leases whose time ran out end, with their keys, in the order of their ids (none while a leader is elected).
    private func expire(_ state: inout State) {
        let now = clock.now
        guard state.electingUntil == nil else { return }
        let lapsed = state.leases.filter { $0.value.expires <= now }.map(\.key).sorted()
        for id in lapsed { end(lease: id, in: &state) }
    }

    private func end(lease id: Int64, in state: inout State) {
        guard state.leases.removeValue(forKey: id) != nil else { return }
        let tied = state.keys.filter { state.values[$0]?.lease == id }
        guard !tied.isEmpty else { return }
        state.revision += 1
        for key in tied { remove(key, from: &state) }
    }

    private func put(_ key: String, _ value: [UInt8], lease: Int64, in state: inout State) {
        if var existing = state.values[key] {
            existing.value = value
            existing.modRevision = state.revision
            existing.lease = lease
            state.values[key] = existing
            state.versions[key, default: 0] += 1
            notify(key, put: existing, in: state)
            return
        }
        state.keys.insert(key, at: Self.lowerBound(key, in: state.keys))
        let created = EtcdKeyValue(
            key: key,
            value: value,
            createRevision: state.revision,
            modRevision: state.revision,
            lease: lease
        )
        state.values[key] = created
        state.versions[key] = 1
        if key.hasPrefix(archivePrefix) { archive.withLock { $0.append(created) } }
        notify(key, put: created, in: state)
    }

    private func remove(_ key: String, from state: inout State) {
        guard state.values.removeValue(forKey: key) != nil else { return }
        state.versions[key] = nil
        state.keys.remove(at: Self.lowerBound(key, in: state.keys))
        notify(key, put: nil, in: state)
    }

    /// The keys from `key` up to `end` (not included; nil: `key` alone), in order.
    private static func keys(of state: State, from key: String, to end: String?) -> ArraySlice<String> {
        let start = lowerBound(key, in: state.keys)
        guard let end else {
            return start < state.keys.count && state.keys[start] == key ? state.keys[start...start] : []
        }
        return state.keys[start..<max(start, lowerBound(end, in: state.keys))]
    }

    /// Where `key` is, or would be inserted, in the sorted `keys` (etcd orders keys by their bytes, as here).
    private static func lowerBound(_ key: String, in keys: [String]) -> Int {
        var (low, high) = (0, keys.count)
        while low < high {
            let middle = (low + high) / 2
            if keys[middle].utf8.lexicographicallyPrecedes(key.utf8) { low = middle + 1 } else { high = middle }
        }
        return low
    }
}

/// A watch of the simulated etcd: the changes in its range since it was opened, in order. ``next(timeout:)`` never
/// waits: a simulated standby's scheduler does the waiting, woken when a change came (``isPending``).
final class SimWatch: EtcdWatch {
    private unowned let store: SimEtcd
    private let key: String
    private let end: String
    private let changes = Mutex<[EtcdChange]>([])

    init(store: SimEtcd, key: String, end: String) {
        self.store = store
        self.key = key
        self.end = end
    }

    func covers(_ name: String) -> Bool {
        !name.utf8.lexicographicallyPrecedes(key.utf8) && name.utf8.lexicographicallyPrecedes(end.utf8)
    }

    func add(_ change: EtcdChange) { changes.withLock { $0.append(change) } }

    /// Whether a change came that ``next(timeout:)`` has not handed over yet.
    var isPending: Bool { changes.withLock { !$0.isEmpty } }

    func next(timeout: Duration) throws(EtcdError) -> [EtcdChange] {
        changes.withLock { changes in
            defer { changes = [] }
            return changes
        }
    }

    func cancel() { store.cancel(self) }
}

/// A watch through one supervisor's connection: cut off, it ends (etcd's stream broke), as a real one does.
struct SimConnectionWatch: EtcdWatch {
    let watch: SimWatch
    let connection: SimEtcdConnection

    func next(timeout: Duration) throws(EtcdError) -> [EtcdChange] {
        guard connection.cutUntil == nil else {
            watch.cancel()
            throw EtcdError(kind: .unreachable, description: "the watch's stream ended (cut off)")
        }
        return try watch.next(timeout: timeout)
    }

    func cancel() { watch.cancel() }

    var isPending: Bool { watch.isPending }
}

/// One supervisor's connection to the simulated etcd: its calls reach the store, or — cut off (`etcdCut`, or every
/// supervisor's in an `etcdOutage`) — throw `unreachable`, as a client that tried every member in vain does.
final class SimEtcdConnection: EtcdStore {
    let store: SimEtcd
    /// Until when it is cut off (nil: it is not).
    private let cut = Mutex<Duration?>(nil)

    init(store: SimEtcd) { self.store = store }

    /// Until when the connection is cut off, if it is now.
    var cutUntil: Duration? {
        cut.withLock { until in
            guard let end = until, store.clock.now < end else { return nil }
            return end
        }
    }

    /// Cuts it off until `end` (a later cut already in place stands).
    func cutOff(until end: Duration) { cut.withLock { $0 = max($0 ?? .zero, end) } }

    func heal() { cut.withLock { $0 = nil } }

    /// What was asked of etcd while the connection was cut off and answered once it healed: done now, on its behalf
    /// (the scheduler stands still inside one step; see ``SimSupervisor/journal(_:)``).
    func afterHealing<T, Failure: Error>(_ body: () throws(Failure) -> T) throws(Failure) -> T {
        let saved = cut.withLock { until in
            defer { until = nil }
            return until
        }
        defer { cut.withLock { $0 = saved } }
        return try body()
    }

    private func reach() throws(EtcdError) {
        guard cutUntil == nil else {
            throw EtcdError(kind: .unreachable, description: "no member of etcd answered (cut off)")
        }
    }

    func range(
        _ key: String,
        end: String?,
        limit: Int
    ) throws(EtcdError) -> (
        kvs: [EtcdKeyValue], more: Bool, revision: Int64
    ) {
        try reach()
        return try store.range(key, end: end, limit: limit)
    }

    func count(_ key: String, end: String) throws(EtcdError) -> Int {
        try reach()
        return try store.count(key, end: end)
    }

    func txn(
        _ compare: [EtcdCompare],
        success: [EtcdOperation],
        failure: [EtcdOperation]
    ) throws(EtcdError)
        -> EtcdTxnResult
    {
        try reach()
        return try store.txn(compare, success: success, failure: failure)
    }

    func grantLease(seconds: Int) throws(EtcdError) -> (id: Int64, seconds: Int) {
        try reach()
        return try store.grantLease(seconds: seconds)
    }

    func keepAlive(_ id: Int64) throws(EtcdError) -> Int {
        try reach()
        return try store.keepAlive(id)
    }

    func revoke(_ id: Int64) throws(EtcdError) {
        try reach()
        try store.revoke(id)
    }

    func watch(_ key: String, end: String, from revision: Int64) throws(EtcdError) -> any EtcdWatch {
        try reach()
        return SimConnectionWatch(watch: store.openWatch(key, end: end), connection: self)
    }

    func close() {}
}
