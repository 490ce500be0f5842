import ContainmentBus
import ContainmentModel
import Foundation
import Logging

/// What the core hands out: replies, events stamped with their seq, the step for the loop; and the state as a snapshot.
extension SupervisorCore {
    /// The whole state now.
    mutating func snapshot() -> BusSnapshot {
        BusSnapshot(
            state: state,
            seq: seq,
            epoch: epoch,
            startedUnixNanos: startedUnixNanos,
            waiting: answers.waitingCount,
            subscribers: subscribers,
            hosts: hosts.values.map { record in
                BusSnapshot.Host(
                    name: record.name,
                    pid: record.pid,
                    up: record.up,
                    failed: record.failed ?? "",
                    incarnation: record.incarnation,
                    controllers: UInt32(clamping: placement.load[record.name] ?? 0),
                    pending: UInt32(clamping: record.pending.count)
                )
            },
            refusals: refusals,
            hostOf: { self.placement[$0] ?? "" }
        )
    }

    /// Keeps a refusal for `status`.
    mutating func noteRefusal(code: String, message: String, seq: UInt64) {
        let time = clock.unixNanos
        refusals.append(BusSnapshot.Refusal(seq: seq, timeUnixNanos: time, code: code, message: message))
        if refusals.count > Self.refusalsKept { refusals.removeFirst(refusals.count - Self.refusalsKept) }
    }

    mutating func reply(to peer: [UInt8], requestID: UInt64, _ message: SupervisorMessage) {
        // A refusal before the rules (a rule violation is noted where its event is published).
        if let refusal = message.refusal, refusal.seq == 0 {
            noteRefusal(code: refusal.error.code.rawValue, message: refusal.error.message, seq: 0)
        }
        send(message.bytes(requestID: requestID), to: peer)
    }

    /// Queues a message's bytes to a peer of the ROUTER (handed out by the next ``take()``).
    mutating func send(_ bytes: [UInt8], to peer: [UInt8]) {
        output.append(.send(peer: peer, body: bytes, delivery: nil))
    }

    /// Stamps an event with the next sequence number and queues it for publication (by the next ``take()``); returns
    /// its serialized form, from which replies and deliveries carrying it are assembled (``PreEncoded``).
    @discardableResult
    mutating func publish(_ event: Event, commandID: UInt64, time: Int64) -> [UInt8] {
        seq += 1
        var host = ""
        if case .controllerCreated(let id, _) = event { host = placement[id] ?? "" }
        let body = PreEncoded.event(
            event,
            seq: seq,
            timeUnixNanos: time,
            commandID: commandID,
            host: host,
            epoch: epoch
        )
        output.append(.publish(topic: PreEncoded.topic(of: event), body: body))
        return body
    }

    /// What to do now, handed over and forgotten: the journal records first — nothing in `outgoing` may go out
    /// before every record is durable (SPEC §14, journal first) — then the events and messages, in order.
    mutating func take() -> SupervisorStep {
        let step = output.take()
        if step.outgoing.contains(where: \.isPublication) { lastPublished = clock.now }
        return step
    }

    /// Takes back a step ``take()`` handed out, once carried out: its lists, emptied, are the next step's (keeping
    /// their capacity, so a busy supervisor does not allocate them anew every step).
    mutating func recycle(_ step: consuming SupervisorStep) {
        output.recycle(step)
    }

    /// Whether a step is waiting to be taken.
    var hasOutput: Bool { !output.isEmpty }
}
