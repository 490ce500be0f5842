import ContainmentConfig
import DequeModule

/// Replies a peer's connection did not take — libzmq's queue toward it full, because it reads slower than it is
/// answered — kept in order, per peer, within a byte budget, and sent as its connection takes them again (issue 42,
/// finding 3: one client asking for snapshots without reading grew the supervisor by hundreds of MiB).
///
/// libzmq bounds a connection's queue in messages (``SupervisorLoop/peerQueue``, a few), so what waits for a peer in
/// the supervisor is those messages plus this queue's `budget` bytes (or one reply, whatever its size). Past half the
/// budget the peer is *backed up*: the core refuses to build snapshots for it until its queue is empty. A reply that
/// would take the queue past the budget is dropped: a command's client resends it and is answered from the remembered
/// answers (exactly once), a read's client asks again. A peer whose connection is gone has its queue freed.
///
/// libzmq tells no one when a full connection takes messages again, so a queue is tried again after a delay: 1 ms
/// after a try that sent something, doubled (up to 100 ms) after each that sent nothing.
package struct ReplyQueues {
    /// The bytes one peer's queue holds at most.
    let budget: Int
    private var queues: [[UInt8]: Queue] = [:]
    /// Replies dropped (their queue at its budget), since the start.
    package private(set) var dropped = 0
    /// The most bytes a queue of more than one reply held, since the start (at most `budget`).
    package private(set) var peak = 0
    /// Bytes freed when queues were dropped or their peers were gone, since last taken (memory to give back).
    private(set) var freed = 0

    static let firstRetry: Duration = .milliseconds(1)
    static let lastRetry: Duration = .milliseconds(100)

    private struct Queue {
        var messages: Deque<[UInt8]> = []
        var bytes = 0
        var backedUp = false
        /// Replies dropped since the queue last emptied.
        var dropped = 0
        var retry = ReplyQueues.firstRetry
        var nextTry: ContinuousClock.Instant
    }

    /// What became of a peer's queue, for the core.
    package enum Change: Equatable {
        /// It holds half its budget or more: what it builds for the peer is refused until the queue is empty.
        case backedUp(peer: [UInt8], bytes: Int)
        /// Its queue is empty again.
        case caughtUp(peer: [UInt8])
        /// The first reply dropped since the queue last emptied (it was at its budget).
        case overflowed(peer: [UInt8], bytes: Int)
        /// The peer's connection is gone: its queue was freed.
        case gone(peer: [UInt8])
    }

    package init(budget: Int) { self.budget = budget }

    /// Peers with replies waiting.
    package var waitingPeers: Int { queues.count }

    /// The bytes waiting for `peer`.
    package func bytes(for peer: [UInt8]) -> Int { queues[peer]?.bytes ?? 0 }

    /// When a queue is to be tried next, if any waits.
    package var nextTry: ContinuousClock.Instant? { queues.values.lazy.map(\.nextTry).min() }

    /// Sends `body` to `peer` through `send`, or behind the replies already waiting for it; `changes` gets what the
    /// core must know.
    mutating func send(
        _ body: [UInt8],
        to peer: [UInt8],
        at now: ContinuousClock.Instant,
        through send: ([UInt8]) -> SendOutcome,
        changes: inout [Change]
    ) {
        // The common case, every reply while no peer lags: no lookup of the peer.
        if queues.isEmpty || queues[peer] == nil {
            switch send(body) {
            case .sent: return
            case .gone:
                changes.append(.gone(peer: peer))
                return
            case .full: queues[peer] = Queue(nextTry: now + Self.firstRetry)
            }
        }
        enqueue(body, for: peer, changes: &changes)
    }

    private mutating func enqueue(_ body: [UInt8], for peer: [UInt8], changes: inout [Change]) {
        guard var queue = queues.removeValue(forKey: peer) else { return }
        defer { queues[peer] = queue }
        // One reply is kept whatever its size (a snapshot of a tree larger than the budget).
        guard queue.messages.isEmpty || queue.bytes + body.count <= budget else {
            dropped += 1
            queue.dropped += 1
            if queue.dropped == 1 { changes.append(.overflowed(peer: peer, bytes: queue.bytes)) }
            return
        }
        queue.messages.append(body)
        queue.bytes += body.count
        if queue.messages.count > 1 { peak = max(peak, queue.bytes) }
        if !queue.backedUp, queue.bytes >= budget / 2 {
            queue.backedUp = true
            changes.append(.backedUp(peer: peer, bytes: queue.bytes))
        }
    }

    /// Tries every queue that is due: sends from its front while its connection takes them.
    mutating func retry(
        at now: ContinuousClock.Instant,
        through send: ([UInt8], [UInt8]) -> SendOutcome,
        changes: inout [Change]
    ) {
        for peer in queues.keys where queues[peer].map({ $0.nextTry <= now }) == true {
            guard var queue = queues.removeValue(forKey: peer) else { continue }
            var sent = false
            tries: while let first = queue.messages.first {
                switch send(first, peer) {
                case .sent:
                    queue.messages.removeFirst()
                    queue.bytes -= first.count
                    sent = true
                case .full: break tries
                case .gone:
                    freed += queue.bytes
                    changes.append(.gone(peer: peer))
                    queue.messages.removeAll()
                    queue.bytes = 0
                    break tries
                }
            }
            guard !queue.messages.isEmpty else {
                if queue.backedUp, changes.last != .gone(peer: peer) { changes.append(.caughtUp(peer: peer)) }
                continue
            }
            queue.retry = sent ? Self.firstRetry : min(queue.retry * 2, Self.lastRetry)
            queue.nextTry = now + queue.retry
            queues[peer] = queue
        }
    }

    /// The bytes freed since the last call (then zero).
    mutating func takeFreed() -> Int {
        defer { freed = 0 }
        return freed
    }
}
