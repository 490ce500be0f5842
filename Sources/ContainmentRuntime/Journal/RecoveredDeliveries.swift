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
    /// Whether older deliveries were dropped to stay within `capacity`.
    private(set) var truncated = false
    /// Per host, once recovery ends: the events as first sent, in order.
    private var byHost: [String: [StampedEvent]] = [:]

    init(capacity: Int) { self.capacity = max(0, capacity) }

    /// Keeps one delivered event (the oldest kept one dropped when full).
    mutating func keep(_ routed: Routed) {
        guard capacity > 0 else { return }
        if ring.count < capacity {
            ring.append(routed)
        } else {
            ring[next] = routed
            next = (next + 1) % capacity
            truncated = true
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

    /// The oldest seq kept for `host`.
    func oldest(for host: String) -> UInt64? { byHost[host]?.first?.seq }

    /// The events for `host` with a seq above `seq`.
    func missed(by host: String, after seq: UInt64) -> [StampedEvent] {
        (byHost[host] ?? []).filter { $0.seq > seq }
    }

    mutating func forget(_ host: String) { byHost[host] = nil }
}
