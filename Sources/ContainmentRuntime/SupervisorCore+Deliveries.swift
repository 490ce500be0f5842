import ContainmentConfig
import ContainmentBus
import ContainmentModel
import Foundation
import Logging

/// Callbacks to hosts: each host sent those of the controllers it runs, in event order — or, while it is away or slow,
/// kept for it in order and bounded, and sent again.
extension SupervisorCore {
    /// Sends each host the callbacks (and creations, destructions) of the controllers it runs, in event order.
    mutating func deliver(_ events: [StampedEvent]) {
        // Each host's events in the order of its first; found by name only when the host changes from one event
        // to the next (a command's events mostly concern one host: then no index is built).
        var batches: [(host: String, events: [StampedEvent])] = []
        var slots: [String: Int] = [:]
        for stamped in events where stamped.event.isDelivered {
            guard let controller = stamped.event.controller, let host = placement[controller] else { continue }
            if let last = batches.indices.last, batches[last].host == host {
                batches[last].events.append(stamped)
                continue
            }
            if batches.isEmpty {
                batches.append((host, [stamped]))
                continue
            }
            if slots.isEmpty { for (slot, batch) in batches.enumerated() { slots[batch.host] = slot } }
            if let slot = slots[host] {
                batches[slot].events.append(stamped)
            } else {
                slots[host] = batches.count
                batches.append((host, [stamped]))
            }
        }
        for batch in batches { sendDelivery(batch.events, to: batch.host) }
    }

    /// Delivers events to a connected host (the loop gives them back here if the host turns out to be gone or slow);
    /// keeps them for the host's return when it is not connected.
    mutating func sendDelivery(_ events: [StampedEvent], to host: String) {
        guard let record = hosts[host] else { return }
        guard record.up, !record.backlogged, let peer = record.routingID else {
            keepPending(events, for: host)
            return
        }
        if let last = events.last?.seq, last > record.lastSent { hosts[host]?.lastSent = last }
        emit(.deliver(to: peer, OutgoingDelivery(host: host, events: events)))
    }

    /// Events given back (not sent): the host's connection got none from the first of them on.
    mutating func notSent(_ events: [StampedEvent], to host: String) {
        guard let first = events.first?.seq, let record = hosts[host], record.lastSent >= first else { return }
        hosts[host]?.lastSent = first - 1
    }

    /// Brings a host that can be reached again up to date (it is up, not backlogged, and nothing waits for it any
    /// more): the welcome that restores its actors from the state now when it missed more than was kept (`stale`),
    /// else what waited for it, in one delivery.
    mutating func catchUp(_ name: String, on peer: [UInt8], pending: [StampedEvent], stale: Bool) {
        if stale {
            emit(.deliver(to: peer, OutgoingDelivery(host: name, restoring: welcome(name, restore: true))))
        } else if !pending.isEmpty {
            sendDelivery(pending, to: name)
        }
    }

    /// A delivery the loop could not hand to its host (gone, as libzmq reports): kept for the host's return.
    mutating func undelivered(_ delivery: OutgoingDelivery) {
        notSent(delivery.events, to: delivery.host)
        keepPending(delivery.events, for: delivery.host)
        if delivery.restores { hosts[delivery.host]?.stale = true }
    }

    /// A delivery the loop could not hand to its host because its connection is full (the host is slow): the host is
    /// backlogged, and this and every later delivery to it wait in order until the connection takes them.
    mutating func congested(_ delivery: OutgoingDelivery) {
        guard let record = hosts[delivery.host] else { return }
        if case .up(let peer, backlogged: false) = record.liveness {
            hosts[delivery.host]?.liveness = .up(peer: peer, backlogged: true)
            hosts[delivery.host]?.backlogs += 1
            let now = time.now
            if record.backlogLogged.map({ now - $0 >= Self.backlogLogInterval }) ?? true {
                hosts[delivery.host]?.backlogLogged = now
                log(
                    .info,
                    "a host takes its deliveries slower than they come: they wait",
                    ["host.name": "\(delivery.host)", "host.backlog_count": "\(record.backlogs + 1)"]
                )
            }
        }
        undelivered(delivery)
    }

    /// Whether deliveries to `host` wait (see ``congested(_:)``): the core keeps them for it instead of sending them.
    func isBacklogged(_ host: String) -> Bool { hosts[host]?.backlogged == true }

    /// Backlogged hosts that are connected get what waits for them again, in one delivery — or, when more waited than
    /// are kept, the welcome that restores their actors.
    mutating func retryBacklogged() {
        // At most every `backlogRetry`: what waits is assembled into one message per try.
        let now = time.now
        guard now >= nextBacklogRetry else { return }
        nextBacklogRetry = now + Self.backlogRetry
        for name in hosts.keys.sorted() where hosts[name]?.backlogged == true {
            guard let record = hosts[name], case .up(let peer, _) = record.liveness else { continue }
            hosts[name]?.liveness = .up(peer: peer, backlogged: false)
            hosts[name]?.pending = []
            hosts[name]?.stale = false
            catchUp(name, on: peer, pending: record.pending, stale: record.stale)
        }
    }

    /// Keeps callbacks for a host's return, at most `pendingDeliveries` of them: past that they are all dropped and
    /// the host is stale (SPEC §14: bounded; it is brought up to date with `restored` when it returns).
    mutating func keepPending(_ events: [StampedEvent], for host: String) {
        guard let record = hosts[host], !record.stale, !events.isEmpty else { return }
        guard record.pending.count + events.count > config.pendingDeliveries else {
            hosts[host]?.pending.append(contentsOf: events)  // in place: no copy of what is kept
            return
        }
        hosts[host]?.pending = []
        hosts[host]?.stale = true
        log(
            .warning,
            """
            more callbacks are due to a host that is away or slow than are kept: they are dropped, and its actors will be \
            restored from their controllers' state when it returns
            """,
            ["host.name": "\(host)", "delivery.pending_limit": "\(config.pendingDeliveries)"]
        )
    }

    /// A message could not reach `peer`: its connection is gone (libzmq dropped the routing id; a host killed with
    /// SIGKILL, say). A host on that connection is down at once, and the inspects forwarded to it are answered
    /// `hostUnavailable` now instead of after their timeout.
    mutating func unreachable(_ peer: [UInt8]) {
        backedUp[peer] = nil
        for pending in inspects.abandon(host: peer) {
            reply(
                to: pending.client,
                requestID: pending.requestID,
                .refused(
                    ContainmentError(
                        .hostUnavailable,
                        "The host running \(pending.controller) is gone (its connection closed)."
                    )
                )
            )
        }
        guard let name = hostNames[peer] else { return }
        markDown(name, reason: "its connection is gone", connectionGone: true)
    }

    /// Deliveries to `host` not carried out yet go back to its pending ones (it is down, or registers on another
    /// connection): those the loop carried out before were sent or given back (``undelivered(_:)``), so pending then
    /// these is their order.
    mutating func withdrawDeliveries(to host: String) {
        let (withdrawn, restores) = takeBackDeliveries(to: host)
        notSent(withdrawn, to: host)
        keepPending(withdrawn, for: host)
        if restores { hosts[host]?.stale = true }
    }
}
