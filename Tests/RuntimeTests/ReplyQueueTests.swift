import ContainmentBus
import ContainmentModel
import Testing

@testable import ContainmentConfig
@testable import ContainmentRuntime

/// Issue 42, finding 3: one client asking for 2,000 snapshots without reading grew the supervisor by hundreds of MiB,
/// because libzmq bounds a connection's queue in messages. Now libzmq holds a few messages per peer and the supervisor
/// keeps the rest in a queue of its own, bounded in bytes (``ReplyQueues``): in order, sent as the connection takes
/// them, dropped past the budget, freed when the peer is gone; past half of it, the core refuses to build snapshots
/// (and metrics) for that peer until it has caught up.
@Suite struct ReplyQueueTests {
    /// A peer's connection as libzmq keeps it: it takes `room` messages more, or is gone.
    final class Connection {
        var room: Int
        var gone = false
        var sent: [[UInt8]] = []
        init(room: Int) { self.room = room }

        func send(_ body: [UInt8]) -> SendOutcome {
            if gone { return .gone }
            guard room > 0 else { return .full }
            room -= 1
            sent.append(body)
            return .sent
        }
    }

    static let peer: [UInt8] = [9, 9]

    static func reply(_ tag: UInt8, bytes: Int = 100) -> [UInt8] { [tag] + Array(repeating: 0, count: bytes - 1) }

    @Test func repliesAConnectionDidNotTakeGoLaterInOrderBeforeNewerOnes() {
        var queues = ReplyQueues(budget: 10_000)
        let connection = Connection(room: 2)
        var changes: [ReplyQueues.Change] = []
        let start = ContinuousClock.now
        for tag in UInt8(1)...5 {
            queues.send(Self.reply(tag), to: Self.peer, at: start, through: connection.send, changes: &changes)
        }
        #expect(connection.sent.map(\.first) == [1, 2])
        #expect(queues.bytes(for: Self.peer) == 300 && changes.isEmpty)
        // Nothing is tried before it is due; then what the connection takes goes, in order.
        #expect(queues.nextTry == start + ReplyQueues.firstRetry)
        connection.room = 2
        queues.retry(at: start, through: { body, _ in connection.send(body) }, changes: &changes)
        #expect(connection.sent.count == 2)
        queues.retry(
            at: start + ReplyQueues.firstRetry,
            through: { body, _ in connection.send(body) },
            changes: &changes
        )
        #expect(connection.sent.map(\.first) == [1, 2, 3, 4])
        // A newer reply waits behind the one still waiting, though the connection has room now.
        connection.room = 10
        queues.send(Self.reply(6), to: Self.peer, at: start, through: connection.send, changes: &changes)
        #expect(connection.sent.map(\.first) == [1, 2, 3, 4])
        queues.retry(at: start + .seconds(1), through: { body, _ in connection.send(body) }, changes: &changes)
        #expect(connection.sent.map(\.first) == [1, 2, 3, 4, 5, 6])
        #expect(queues.waitingPeers == 0 && queues.nextTry == nil && changes.isEmpty)
    }

    @Test func aQueueTriedInVainIsTriedLessOftenAndAgainSoonOnceItMoves() {
        var queues = ReplyQueues(budget: 10_000)
        let connection = Connection(room: 0)
        var changes: [ReplyQueues.Change] = []
        var now = ContinuousClock.now
        queues.send(Self.reply(1), to: Self.peer, at: now, through: connection.send, changes: &changes)
        queues.send(Self.reply(2), to: Self.peer, at: now, through: connection.send, changes: &changes)
        var delays: [Duration] = []
        for _ in 0..<9 {
            now = queues.nextTry ?? now
            queues.retry(at: now, through: { body, _ in connection.send(body) }, changes: &changes)
            delays.append((queues.nextTry ?? now) - now)
        }
        #expect(delays == [2, 4, 8, 16, 32, 64, 100, 100, 100].map { Duration.milliseconds($0) })
        connection.room = 1
        now = queues.nextTry ?? now
        queues.retry(at: now, through: { body, _ in connection.send(body) }, changes: &changes)
        #expect(queues.nextTry == now + ReplyQueues.firstRetry, "it moved: tried again within a millisecond")
    }

    @Test func pastHalfItsBudgetAPeerIsBackedUpPastAllOfItRepliesAreDroppedAndEmptyItCaughtUp() {
        var queues = ReplyQueues(budget: 1_000)
        let connection = Connection(room: 0)
        var changes: [ReplyQueues.Change] = []
        let now = ContinuousClock.now
        for tag in UInt8(1)...12 {
            queues.send(Self.reply(tag), to: Self.peer, at: now, through: connection.send, changes: &changes)
        }
        // 100 bytes each: backed up at the fifth (500 bytes), the eleventh and twelfth dropped — and said once.
        #expect(changes == [.backedUp(peer: Self.peer, bytes: 500), .overflowed(peer: Self.peer, bytes: 1_000)])
        #expect(queues.bytes(for: Self.peer) == 1_000 && queues.dropped == 2)
        changes = []
        connection.room = 100
        queues.retry(at: now + .seconds(1), through: { body, _ in connection.send(body) }, changes: &changes)
        #expect(connection.sent.map(\.first) == Array(UInt8(1)...10))
        #expect(changes == [.caughtUp(peer: Self.peer)] && queues.waitingPeers == 0)
    }

    @Test func aGonePeersQueueIsFreed() {
        var queues = ReplyQueues(budget: 1 << 20)
        let connection = Connection(room: 0)
        var changes: [ReplyQueues.Change] = []
        let now = ContinuousClock.now
        for tag in UInt8(1)...3 {
            queues.send(
                Self.reply(tag, bytes: 1_000),
                to: Self.peer,
                at: now,
                through: connection.send,
                changes: &changes
            )
        }
        connection.gone = true
        queues.retry(at: now + .seconds(1), through: { body, _ in connection.send(body) }, changes: &changes)
        #expect(changes == [.gone(peer: Self.peer)] && queues.waitingPeers == 0 && queues.nextTry == nil)
        #expect(queues.takeFreed() == 3_000 && queues.takeFreed() == 0)
        // A reply to a peer found gone at once says so too, and keeps nothing.
        changes = []
        queues.send(Self.reply(4), to: [1], at: now, through: { _ in .gone }, changes: &changes)
        #expect(changes == [.gone(peer: [1])] && queues.waitingPeers == 0)
    }

    /// The core: a backed-up peer's snapshot request is refused `limitExceeded` before anything is built, naming the
    /// setting; another peer still gets its snapshot, and so does this one once it caught up.
    @Test func aBackedUpPeerIsRefusedSnapshotsUntilItCatchesUp() throws {
        typealias Core = SupervisorCoreTests
        let clock = Core.ManualClock()
        var core = try Core.core(clock).0
        core.handle(.replies(.backedUp(peer: Core.peer, bytes: 2_100_000)))
        core.handle(.message([Core.peer, ClientRequest.snapshot(requestID: 1)]))
        core.handle(.message([[7], ClientRequest.snapshot(requestID: 2)]))
        let step = core.take()
        let decoded = try Core.decode(step)
        let refusal = try #require(decoded.messages.first { $0.peer == Core.peer }?.message.refusal)
        #expect(refusal.error.code == .limitExceeded)
        #expect(refusal.error.message.contains("2100000 bytes of replies wait unread"))
        #expect(refusal.error.message.contains("replyQueueBytes"))
        guard case .reply([7], 2, .snapshot) = step.actions.last else {
            Issue.record("the other peer's snapshot: \(step.actions)")
            return
        }

        core.handle(.replies(.caughtUp(peer: Core.peer)))
        core.handle(.message([Core.peer, ClientRequest.snapshot(requestID: 3)]))
        guard case .reply(Core.peer, 3, .snapshot) = core.take().actions.last else {
            Issue.record("caught up: a snapshot again")
            return
        }
        // A peer that is gone is forgotten.
        core.handle(.replies(.backedUp(peer: [5], bytes: 10)))
        core.handle(.replies(.gone(peer: [5])))
        #expect(core.core.backedUp.isEmpty)
    }

    /// The core answers a whole batch of requests before any reply is sent, so one step builds at most half the budget
    /// of snapshots for a peer (the first always); the next step builds again.
    @Test func oneStepBuildsAtMostHalfTheBudgetOfSnapshotsForOnePeer() throws {
        typealias Core = SupervisorCoreTests
        let clock = Core.ManualClock()
        var config = Core.config
        var scratch = try Core.core(clock).0
        let size = scratch.core.sharedSnapshot().encoded.count
        // Half the budget is one and a half snapshots: two are built in a step, not three.
        config.replyQueueBytes = 3 * size
        var core = try Core.core(clock, config: config).0
        for id in UInt64(1)...4 { core.handle(.message([Core.peer, ClientRequest.snapshot(requestID: id)])) }
        core.handle(.message([[7], ClientRequest.snapshot(requestID: 5)]))
        let kinds = core.take().actions.compactMap { action -> String? in
            guard case .reply(let peer, let id, let reply) = action else { return nil }
            if case .snapshot = reply { return "\(peer.count)/\(id) snapshot" }
            return "\(peer.count)/\(id) \(reply.refusal?.error.code.rawValue ?? "?")"
        }
        #expect(kinds == ["4/1 snapshot", "4/2 snapshot", "4/3 limitExceeded", "4/4 limitExceeded", "1/5 snapshot"])
        core.handle(.message([Core.peer, ClientRequest.snapshot(requestID: 6)]))
        guard case .reply(Core.peer, 6, .snapshot) = core.take().actions.last else {
            Issue.record("the next step: a snapshot again")
            return
        }
    }

    /// Dropped replies are said, at most once per peer per 10 s.
    @Test func droppedRepliesAreLoggedAtMostEveryTenSecondsPerPeer() throws {
        typealias Core = SupervisorCoreTests
        let clock = Core.ManualClock()
        var core = try Core.core(clock).0
        var lines = 0
        for _ in 0..<4 {
            core.handle(.replies(.overflowed(peer: Core.peer, bytes: 4_000_000)))
            lines += try Core.decode(core.take()).logs.filter { $0.contains("does not read its replies") }.count
            clock.advance(.seconds(4))
        }
        #expect(lines == 2, "at 0 s and 12 s, not at 4 s or 8 s: \(lines)")
    }
}
