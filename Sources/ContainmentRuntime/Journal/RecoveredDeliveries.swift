import ContainmentConfig
import ContainmentBus
import ContainmentModel
import Logging

/// The deliveries of the recovered journal's tail (SPEC §14, "Hosts after a supervisor restart"): a supervisor killed
/// after journaling a command and before sending its callbacks never sent them, so a host that re-registers saying it
/// received up to seq N gets those after N again. Bounded: the last `capacity` delivered events of the journal.
struct RecoveredDeliveries {
    /// One delivered event as the replay met it, and the host it was delivered to.
    struct Routed {
        var event: Event
        var host: String
        var seq: UInt64
        var timeUnixNanos: Int64
        var commandID: UInt64
        var epoch: UInt64
    }

    let capacity: Int
    private var ring: [Routed] = []
    private var next = 0
    /// The first seq from which every delivery is kept: after the checkpoint recovery began from, and after the last
    /// one dropped to stay within `capacity`.
    private(set) var coveredFrom: UInt64
    /// Per host, once recovery ends: the events as first sent, in order.
    private var byHost: [String: [StampedEvent]] = [:]
    /// The hosts that re-registered since recovery (their deliveries given or given up).
    private var settled: Set<String> = []

    /// Keeps up to `capacity` deliveries, of the records after seq `after` (a checkpoint's last seq; 0: every record).
    init(capacity: Int, after seq: UInt64 = 0) {
        self.capacity = max(0, capacity)
        coveredFrom = seq + 1
    }

    /// Keeps one delivered event (the oldest kept one dropped when full).
    mutating func keep(_ routed: Routed) {
        guard capacity > 0 else { return }
        if ring.count < capacity {
            ring.append(routed)
        } else {
            coveredFrom = max(coveredFrom, ring[next].seq + 1)
            ring[next] = routed
            next = (next + 1) % capacity
        }
    }

    /// Sorts what was kept by host, stamped as the supervisor first sent it.
    mutating func seal() {
        let ordered = ring[next...] + ring[..<next]
        for routed in ordered {
            // (`host` is stamped only on a `controllerCreated`, as the supervisor stamped it.)
            var host = ""
            if case .controllerCreated = routed.event { host = routed.host }
            let stamped = StampedEvent(
                event: routed.event,
                seq: routed.seq,
                timeUnixNanos: routed.timeUnixNanos,
                commandID: routed.commandID,
                host: host,
                epoch: routed.epoch
            )
            byHost[routed.host, default: []].append(stamped)
        }
        ring = []
        next = 0
    }

    /// Whether `host`, re-registering for the first time since recovery and saying it was delivered up to `seq`, may
    /// have missed callbacks this recovery no longer holds (they came before ``coveredFrom``).
    func mayHaveLost(_ host: String, after seq: UInt64) -> Bool {
        !settled.contains(host) && seq + 1 < coveredFrom
    }

    /// The events for `host` with a seq above `seq`.
    func missed(by host: String, after seq: UInt64) -> [StampedEvent] {
        (byHost[host] ?? []).filter { $0.seq > seq }
    }

    mutating func forget(_ host: String) {
        byHost[host] = nil
        settled.insert(host)
    }
}
