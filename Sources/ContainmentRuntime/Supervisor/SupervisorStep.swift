import ContainmentConfig
import ContainmentBus
import ContainmentModel

/// The actions of the core gathered for one step of whoever runs it (``SupervisorLoop``, a simulated world), in the
/// order the core returned them — the core appends them here itself (``SupervisorCore/handle(_:at:into:)``), so none
/// is copied on its way: its journal records go first, then what may go out once they are durable, in order; what to
/// log and count. A `withdraw` takes the host's deliveries gathered before it back out (the core keeps them).
/// ``EventBytes`` encodes each event once.
package struct SupervisorStep {
    /// Every action, in order.
    private(set) var actions: [SupervisorAction] = []
    /// How many of them are `withdraw`s, counted as they come: rare, and looking for one in every step cost ~45
    /// instructions an action (scripts/callgrind-loop.sh).
    private(set) var withdrawals = 0

    var isEmpty: Bool { actions.isEmpty }

    mutating func append(_ action: SupervisorAction) {
        if action.isWithdrawal { withdrawals += 1 }
        actions.append(action)
    }

    mutating func add(_ more: [SupervisorAction]) {
        withdrawals += more.count { $0.isWithdrawal }
        if actions.isEmpty { actions = more } else { actions.append(contentsOf: more) }
    }

    /// Journal records, in order.
    var records: [JournalRecord] {
        actions.compactMap { action in if case .journal(let record) = action { record } else { nil } }
    }

    /// The journal records' bytes, in order.
    func encodedRecords() -> [[UInt8]] {
        var encoded: [[UInt8]] = []
        for case .journal(let record) in actions { encoded.append(record.encoded()) }
        return encoded
    }

    package var logs: [SupervisorLog] {
        actions.compactMap { action in if case .log(let line) = action { line } else { nil } }
    }

    var tally: SupervisorTally {
        var tally = SupervisorTally()
        for case .count(let count) in actions { tally.add(count) }
        return tally
    }

    /// Publications, heartbeats, replies and deliveries (but those withdrawn), in the order they are to go out.
    var outgoing: [SupervisorAction] {
        let withdrawn = lastWithdrawals()
        return actions.indices.compactMap { index in goesOut(index, withdrawn: withdrawn) ? actions[index] : nil }
    }

    /// How many messages go out.
    var outgoingCount: Int {
        let withdrawn = lastWithdrawals()
        return actions.indices.reduce(0) { $0 + (goesOut($1, withdrawn: withdrawn) ? 1 : 0) }
    }

    /// Where each host's last `withdraw` stands, if the step holds any (rarely).
    private func lastWithdrawals() -> [String: Int] {
        guard withdrawals > 0 else { return [:] }
        var last: [String: Int] = [:]
        for index in actions.indices {
            if case .withdraw(let host) = actions[index] { last[host] = index }
        }
        return last
    }

    /// Whether action `index` goes out: a publication, heartbeat, reply, or a delivery not withdrawn after it.
    private func goesOut(_ index: Int, withdrawn: [String: Int]) -> Bool {
        switch actions[index] {
        case .publish, .heartbeat, .reply, .metrics: return true
        case .deliver(_, let delivery):
            guard !withdrawn.isEmpty, let at = withdrawn[delivery.host] else { return true }
            return at < index
        case .journal, .withdraw, .log, .count, .trace: return false
        }
    }

    /// Each outgoing action as the sockets carry it, in order, with the index of the action it stands for (a traced
    /// step's spans are found by it): each event encoded once (`events`, emptied by the caller after the step), a
    /// `metrics` request answered with `metricsText`.
    func forEachMessage(
        events: inout EventBytes,
        metricsText: @autoclosure () -> [UInt8],
        _ body: (OutgoingMessage, _ action: Int) -> Void
    ) {
        let withdrawn = lastWithdrawals()
        for index in actions.indices {
            switch actions[index] {
            case .publish(let event):
                body(.publish(topic: events.topic(of: event.event), body: events.published(event)), index)
            case .heartbeat(let epoch, let seq, let time):
                body(.heartbeat(Publication.heartbeatBody(epoch: epoch, seq: seq, timeUnixNanos: time)), index)
            case .reply(let peer, let requestID, let reply):
                body(.send(peer: peer, body: reply.bytes(requestID: requestID) { events($0) }, delivery: nil), index)
            case .metrics(let peer, let requestID):
                let bytes = SupervisorMessage.metrics(metricsText()).bytes(requestID: requestID)
                body(.send(peer: peer, body: bytes, delivery: nil), index)
            case .deliver(let peer, let delivery):
                if !withdrawn.isEmpty, let at = withdrawn[delivery.host], at > index { continue }
                let bytes =
                    delivery.restoring?.bytes(requestID: 0)
                    ?? PreEncoded.delivery(events: delivery.events.map { events($0) })
                body(.send(peer: peer, body: bytes, delivery: delivery), index)
            case .journal, .withdraw, .log, .count, .trace:
                continue  // (not outgoing)
            }
        }
    }

    /// Empties it, keeping the list's capacity (a busy supervisor does not allocate it anew every step).
    mutating func removeAll() {
        actions.removeAll(keepingCapacity: true)
        withdrawals = 0
    }
}

/// A message of a step as a socket carries it.
enum OutgoingMessage {
    /// An event, for the PUB.
    case publish(topic: [UInt8], body: ArraySlice<UInt8>)
    /// The idle PUB's heartbeat (topic `heartbeat`).
    case heartbeat([UInt8])
    /// A message to a peer of the ROUTER; a delivery says what it carries, given back to the core if it cannot go.
    case send(peer: [UInt8], body: [UInt8], delivery: OutgoingDelivery?)
}

/// Each event's bytes, encoded once for its publication, its delivery and its reply: the events a step publishes have
/// consecutive seqs, so they are kept by their offset from the first, encoded one after another into one array (no
/// array of its own for each event); an older one (a delivery kept while its host was away, a call's answer) is
/// encoded again.
struct EventBytes {
    private var first: UInt64 = 0
    /// The step's published events, one after another, and where each ends.
    private var buffer: [UInt8] = []
    private var ends: [Int] = []
    /// The last topic made, its storage used again for the next (an array a publication, not one an event).
    private var topicBuffer: [UInt8] = []

    /// A step's buffer larger than this is not kept for the next step.
    private static let keptCapacity = 1 << 20

    /// The topic frame of `event`. Made in a buffer kept from one event to the next: one no longer held when the next
    /// is made is not allocated again (one still held is copied first, as any array is).
    mutating func topic(of event: Event) -> [UInt8] {
        topicBuffer.removeAll(keepingCapacity: true)
        PreEncoded.appendTopic(of: event, to: &topicBuffer)
        return topicBuffer
    }

    /// The bytes of an event the step publishes (events are published before they are delivered or replied). The
    /// slice is to be let go of before the next event is published, or the next one copies the buffer.
    mutating func published(_ event: StampedEvent) -> ArraySlice<UInt8> {
        if ends.isEmpty { first = event.seq }
        guard event.seq == first + UInt64(ends.count) else { return self(event) }
        let start = buffer.count
        event.append(to: &buffer)
        ends.append(buffer.count)
        return buffer[start...]
    }

    /// The bytes of an event: those it was published with in this step, or encoded now.
    func callAsFunction(_ event: StampedEvent) -> ArraySlice<UInt8> {
        guard event.seq >= first, event.seq - first < UInt64(ends.count) else { return event.encoded()[...] }
        let index = Int(event.seq - first)
        return buffer[(index == 0 ? 0 : ends[index - 1])..<ends[index]]
    }

    mutating func removeAll() {
        ends.removeAll(keepingCapacity: true)
        if buffer.capacity > Self.keptCapacity { buffer = [] } else { buffer.removeAll(keepingCapacity: true) }
    }
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
