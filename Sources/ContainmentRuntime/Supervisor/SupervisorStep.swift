import ContainmentBus
import ContainmentModel

/// The actions of the core gathered for one step of whoever runs it (``SupervisorLoop``, a simulated world): its
/// journal records, then what may go out once they are durable, in order; what to log and count. A `withdraw` takes the
/// host's deliveries gathered so far back out (the core keeps them). ``EventBytes`` encodes each event once.
package struct SupervisorStep {
    /// Journal records, in order.
    private(set) var records: [JournalRecord] = []
    /// Publications, heartbeats, replies and deliveries, in the order they are to go out.
    private(set) var outgoing: [SupervisorAction] = []
    package private(set) var logs: [SupervisorLog] = []
    private(set) var tally = SupervisorTally()

    var isEmpty: Bool { records.isEmpty && outgoing.isEmpty && logs.isEmpty && tally == SupervisorTally() }

    mutating func add(_ actions: [SupervisorAction]) {
        for action in actions {
            switch action {
            case .journal(let record): records.append(record)
            case .log(let line): logs.append(line)
            case .count(let count): tally.add(count)
            case .withdraw(let host):
                outgoing.removeAll { if case .deliver(_, let delivery) = $0 { delivery.host == host } else { false } }
            case .publish, .heartbeat, .reply, .deliver, .metrics: outgoing.append(action)
            }
        }
    }

    /// Each outgoing action as the sockets carry it, in order: each event encoded once (`events`, emptied by the
    /// caller after the step), a `metrics` request answered with `metricsText`.
    func forEachMessage(
        events: inout EventBytes,
        metricsText: @autoclosure () -> [UInt8],
        _ body: (OutgoingMessage) -> Void
    ) {
        for action in outgoing {
            switch action {
            case .publish(let event):
                body(.publish(topic: PreEncoded.topic(of: event.event), body: events.published(event)))
            case .heartbeat(let epoch, let seq, let time):
                body(.heartbeat(Publication.heartbeatBody(epoch: epoch, seq: seq, timeUnixNanos: time)))
            case .reply(let peer, let requestID, let reply):
                body(.send(peer: peer, body: reply.bytes(requestID: requestID) { events($0) }, delivery: nil))
            case .metrics(let peer, let requestID):
                let bytes = SupervisorMessage.metrics(metricsText()).bytes(requestID: requestID)
                body(.send(peer: peer, body: bytes, delivery: nil))
            case .deliver(let peer, let delivery):
                let bytes =
                    delivery.restoring?.bytes(requestID: 0)
                    ?? PreEncoded.delivery(events: delivery.events.map { events($0) })
                body(.send(peer: peer, body: bytes, delivery: delivery))
            case .journal, .withdraw, .log, .count:
                continue  // (held apart: records, logs and counts; a withdraw is done as it is added)
            }
        }
    }

    /// Empties it, keeping the lists' capacity (a busy supervisor does not allocate them anew every step).
    mutating func removeAll() {
        records.removeAll(keepingCapacity: true)
        outgoing.removeAll(keepingCapacity: true)
        logs.removeAll()
        tally = SupervisorTally()
    }
}

/// A message of a step as a socket carries it.
enum OutgoingMessage {
    /// An event, for the PUB.
    case publish(topic: [UInt8], body: [UInt8])
    /// The idle PUB's heartbeat (topic `heartbeat`).
    case heartbeat([UInt8])
    /// A message to a peer of the ROUTER; a delivery says what it carries, given back to the core if it cannot go.
    case send(peer: [UInt8], body: [UInt8], delivery: OutgoingDelivery?)
}

/// Each event's bytes, encoded once for its publication, its delivery and its reply: the events a step publishes have
/// consecutive seqs, so they are kept by their offset from the first; an older one (a delivery kept while its host was
/// away, a call's answer) is encoded again.
struct EventBytes {
    private var first: UInt64 = 0
    private var encoded: [[UInt8]] = []

    /// The bytes of an event the step publishes (events are published before they are delivered or replied).
    mutating func published(_ event: StampedEvent) -> [UInt8] {
        if encoded.isEmpty { first = event.seq }
        guard event.seq == first + UInt64(encoded.count) else { return self(event) }
        let bytes = event.encoded()
        encoded.append(bytes)
        return bytes
    }

    /// The bytes of an event: those it was published with in this step, or encoded now.
    func callAsFunction(_ event: StampedEvent) -> [UInt8] {
        if event.seq >= first, event.seq - first < UInt64(encoded.count) { return encoded[Int(event.seq - first)] }
        return event.encoded()
    }

    mutating func removeAll() { encoded.removeAll(keepingCapacity: true) }
}

/// What the requests of a step came to: the loop's metrics count it.
struct SupervisorTally: Equatable {
    /// The commands of each request, in order.
    var requestSizes: [Int] = []
    var accepted = 0
    /// The code of each refusal, in order.
    var rejected: [ContainmentError.Code] = []

    mutating func add(_ count: SupervisorCount) {
        switch count {
        case .request(let commands): requestSizes.append(commands)
        case .accepted: accepted += 1
        case .rejected(let code): rejected.append(code)
        }
    }
}
