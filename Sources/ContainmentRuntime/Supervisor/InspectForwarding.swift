import ContainmentConfig
import ContainmentBus
import ContainmentModel

/// Inspects on their way (`containment inspect`): each forwarded to the host that runs its controller under an id of
/// the supervisor's, until that host answers, its connection is gone, or its deadline passes.
struct InspectForwarding {
    struct Forwarded {
        /// The client that asked, and its request's id.
        var client: [UInt8]
        var requestID: UInt64
        /// The host's connection it was forwarded to: only that peer's reply is relayed.
        var host: [UInt8]
        var controller: ControllerID
        var deadline: ContinuousClock.Instant
    }

    private var pending = NumberedRequests<Forwarded>()

    var isEmpty: Bool { pending.isEmpty }

    /// The earliest deadline, for the loop's wake-up.
    var nextDeadline: ContinuousClock.Instant? { pending.values.map(\.deadline).min() }

    /// Keeps `inspect`; returns the id it is forwarded under.
    mutating func forward(_ inspect: Forwarded) -> UInt64 { pending.add(inspect) }

    /// The inspect a host's reply answers; `nil` when nobody asked that peer (a stale or forged reply).
    mutating func relay(_ id: UInt64, from sender: [UInt8]) -> Forwarded? {
        guard let forwarded = pending[id], forwarded.host == sender else { return nil }
        pending[id] = nil
        return forwarded
    }

    /// The inspects whose deadline passed, forgotten.
    mutating func expire(now: ContinuousClock.Instant) -> [Forwarded] {
        pending.take { $0.deadline <= now }
    }

    /// The inspects forwarded to a connection that is gone, forgotten.
    mutating func abandon(host peer: [UInt8]) -> [Forwarded] {
        pending.take { $0.host == peer }
    }
}

extension SupervisorCore {
    mutating func forwardInspect(_ id: ControllerID, from client: [UInt8], requestID: UInt64) {
        guard state.controllers[id] != nil, let host = placement[id] else {
            let message =
                state.controllers[id] == nil ? "There is no controller \(id)." : "No host runs \(id)."
            reply(to: client, requestID: requestID, .refused(ContainmentError(.unknownController, message)))
            return
        }
        guard let record = hosts[host], record.up, let peer = record.routingID else {
            reply(
                to: client,
                requestID: requestID,
                .refused(ContainmentError(.hostUnavailable, "Host \(host), which runs \(id), is not connected."))
            )
            return
        }
        let forwardID = inspects.forward(
            .init(
                client: client,
                requestID: requestID,
                host: peer,
                controller: id,
                deadline: time.now + config.requestTimeout
            )
        )
        emit(.reply(to: peer, requestID: forwardID, .message(.inspect(id))))
    }

    /// A host's answer goes back to the client that asked, if it comes from the host that was asked.
    mutating func relayInspect(_ inspected: InspectReport, requestID: UInt64, from sender: [UInt8]) {
        guard let pending = inspects.relay(requestID, from: sender) else {
            warn(sender, "dropped an inspect reply nobody asked that peer for")
            return
        }
        reply(to: pending.client, requestID: pending.requestID, .inspected(inspected))
    }

    /// Inspects a host did not answer in time get a `timeout` error.
    mutating func expireInspects() {
        for pending in inspects.expire(now: time.now) {
            reply(
                to: pending.client,
                requestID: pending.requestID,
                .refused(ContainmentError(.timeout, "The host running \(pending.controller) did not answer in time."))
            )
        }
    }
}
