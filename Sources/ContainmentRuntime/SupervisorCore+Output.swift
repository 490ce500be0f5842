import ContainmentConfig
import ContainmentBus
import ContainmentModel
import Foundation
import Logging

/// What the core hands out: replies, events stamped with their seq; and the state as a snapshot.
extension SupervisorCore {
    /// The whole state now.
    package mutating func snapshot() -> BusSnapshot {
        snapshot(hosts: snapshotHosts())
    }

    private func snapshot(hosts: [BusSnapshot.Host]) -> BusSnapshot {
        BusSnapshot(
            state: state,
            seq: seq,
            epoch: epoch,
            startedUnixNanos: startedUnixNanos,
            waiting: answers.waitingCount,
            subscribers: subscribers,
            hosts: hosts,
            refusals: refusals,
            hostOf: { self.placement[$0] ?? "" }
        )
    }

    private func snapshotHosts() -> [BusSnapshot.Host] {
        hosts.values.map { record in
            BusSnapshot.Host(
                name: record.name,
                pid: record.pid,
                up: record.up,
                failed: record.failed ?? "",
                incarnation: record.incarnation,
                controllers: UInt32(clamping: placement.load[record.name] ?? 0),
                pending: UInt32(clamping: record.pending.count),
                registering: !record.up && record.takesControllers(at: time.now)
            )
        }
    }

    /// The whole state now, built once for every request while nothing in it changed (finding 4 of issue 42: 500
    /// clients asking at once held the supervisor up for seconds, building the same snapshot each time). The state
    /// changes only with a command (its id) or an event (its seq); the rest of a snapshot is compared as it is.
    mutating func sharedSnapshot() -> SharedSnapshot {
        let key = SnapshotKey(
            seq: seq,
            nextCommandID: nextCommandID,
            waiting: answers.waitingCount,
            subscribers: subscribers,
            refusals: refusals,
            hosts: snapshotHosts()
        )
        if let last = lastSnapshot, last.key == key { return last.shared }
        let shared = SharedSnapshot(snapshot(hosts: key.hosts))
        lastSnapshot = (key, shared)
        return shared
    }

    /// Keeps a refusal for `status`.
    mutating func noteRefusal(code: String, message: String, seq: UInt64) {
        refusals.append(BusSnapshot.Refusal(seq: seq, timeUnixNanos: time.unixNanos, code: code, message: message))
        if refusals.count > Self.refusalsKept { refusals.removeFirst(refusals.count - Self.refusalsKept) }
    }

    mutating func reply(to peer: [UInt8], requestID: UInt64, _ message: SupervisorMessage) {
        // A refusal before the rules (a rule violation is noted where its event is published).
        if let refusal = message.refusal, refusal.seq == 0 {
            noteRefusal(code: refusal.error.code.rawValue, message: refusal.error.message, seq: 0)
        }
        emit(.reply(to: peer, requestID: requestID, .message(message)))
    }

    /// Stamps an event with the next sequence number and publishes it; returns it stamped, as replies and deliveries
    /// carry it.
    @discardableResult
    mutating func publish(_ event: consuming Event, commandID: UInt64, time: Int64) -> StampedEvent {
        seq += 1
        var host = ""
        if case .controllerCreated(let id, _) = event { host = placement[id] ?? "" }
        let stamped = StampedEvent(
            event: event,
            seq: seq,
            timeUnixNanos: time,
            commandID: commandID,
            host: host,
            epoch: epoch
        )
        emit(.publish(stamped))
        lastPublished = self.time.now
        return stamped
    }
}
