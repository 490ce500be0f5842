import ContainmentBus
import ContainmentModel
import Testing

@testable import ContainmentConfig
@testable import ContainmentRuntime

/// Exactly once within a byte budget (docs/OPERATIONS.md, "Bounds"): an answer too large to keep whole, or the oldest
/// ones past `answerCacheBytes`, are kept without their events — a resend is still never applied again, and says
/// which events it stands for.
@Suite struct AnswerCacheTests {
    typealias Core = SupervisorCoreTests

    /// An accepted answer of `count` events from `firstSeq`, as the core remembers it.
    static func accepted(_ commandID: UInt64, firstSeq: UInt64, count: Int) -> SupervisorReply {
        let events = (0..<count).map { index in
            StampedEvent(
                event: .didReceiveMemoryWarning(ControllerID("c\(index)")),
                seq: firstSeq + UInt64(index),
                timeUnixNanos: 1,
                commandID: commandID,
                host: "",
                epoch: 1
            )
        }
        return .accepted(commandID: commandID, events: events)
    }

    static func isWhole(_ answer: SupervisorReply?) -> Bool {
        if case .accepted = answer { true } else { false }
    }

    /// What an answer kept without its events stands for.
    static func elided(_ answer: SupervisorReply?) -> AnswerEvents? {
        if case .elided(let events) = answer { events } else { nil }
    }

    @Test func anAnswerLargerThanTheLargestKeptWholeIsKeptWithoutItsEvents() {
        var replies = ClientReplies(window: 64, clients: 64)
        let events = ClientReplies.largestWhole / MemoryLayout<StampedEvent>.stride + 1
        replies.remember(client: "a", requestID: 1, answer: Self.accepted(7, firstSeq: 100, count: events))
        replies.remember(client: "a", requestID: 2, answer: Self.accepted(8, firstSeq: 900_000, count: 3))
        let large = Self.elided(replies.answer(client: "a", requestID: 1))
        #expect(large == AnswerEvents(commandID: 7, firstSeq: 100, count: UInt32(events)))
        #expect(Self.isWhole(replies.answer(client: "a", requestID: 2)))
        #expect(replies.elided == 1)
        #expect(replies.wholeBytes == Self.accepted(8, firstSeq: 900_000, count: 3).keptBytes)
    }

    /// Past the budget the oldest whole answers go without their events first; every answer inside the window is
    /// still remembered, and the whole ones' bytes never pass the budget.
    @Test func theBudgetKeepsTheNewestWholeAndEveryAnswerRemembered() {
        let each = Self.accepted(1, firstSeq: 1, count: 10).keptBytes
        var replies = ClientReplies(window: 64, clients: 64, bytes: 3 * each)
        for id: UInt64 in 1...10 {
            let client = id.isMultiple(of: 2) ? "even" : "odd"
            replies.remember(client: client, requestID: id, answer: Self.accepted(id, firstSeq: id * 10, count: 10))
            #expect(replies.wholeBytes <= 3 * each)
        }
        func answer(_ id: UInt64) -> SupervisorReply? {
            replies.answer(client: id.isMultiple(of: 2) ? "even" : "odd", requestID: id)
        }
        #expect(
            (1...7).allSatisfy { Self.elided(answer($0)) == AnswerEvents(commandID: $0, firstSeq: $0 * 10, count: 10) }
        )
        #expect((8...10).allSatisfy { Self.isWhole(answer($0)) })
        #expect(replies.elided == 7 && replies.wholeBytes == 3 * each)
    }

    /// Answers that leave the window or with a forgotten client no longer count against the budget.
    @Test func forgottenAnswersGiveTheirBytesBack() {
        var replies = ClientReplies(window: 2, clients: 2)
        let answer = Self.accepted(1, firstSeq: 1, count: 4)
        for id: UInt64 in 1...5 { replies.remember(client: "a", requestID: id, answer: answer) }
        #expect(replies.wholeBytes == 2 * answer.keptBytes, "the window keeps two")
        replies.remember(client: "b", requestID: 1, answer: answer)
        replies.remember(client: "c", requestID: 1, answer: .message(.refused(.malformed("no"))))
        #expect(replies.count == 2 && replies.wholeBytes == answer.keptBytes, "a, least active, went with its two")
    }

    /// Through the core: a resend of a command whose answer was too large is not applied again, publishes nothing,
    /// and is answered with its command id and the seqs of the events it published — the same after a recovery
    /// from the journal, and from a checkpoint.
    @Test func aResendOfALargeAnswerIsNotAppliedAgainAndNamesItsEvents() throws {
        var config = Core.config
        config.answerCacheBytes = 1_000
        let clock = Core.ManualClock()
        let made = try Core.core(clock, recovery: Recovery(clients: ClientReplies(.init(config))), config: config)
        var core = made.0
        let creates = (0..<40).map { Core.create("c\($0)") }
        let request = Core.request(creates, id: 1)
        core.handle(.message([Core.peer, request]))
        let first = try Core.decode(core.take())
        let accepted = try #require(first.messages.last?.message.acceptance)
        #expect(accepted.events.count == 40 && accepted.elided == nil, "the first answer is whole")

        core.handle(.message([Core.peer, request]))
        let resent = try Core.decode(core.take())
        #expect(resent.records.isEmpty && resent.events.isEmpty, "not applied again")
        let again = try #require(resent.messages.last?.message.acceptance)
        #expect(again.commandID == accepted.commandID && again.events.isEmpty)
        #expect(again.elided == first.events.first!.seq...first.events.last!.seq)

        // Recovered from its records: the same answer.
        var recovery = Recovery(clients: ClientReplies(.init(config)))
        for record in [made.startRecord] + first.records { try recovery.apply(record) }
        recovery.deliveries.seal()
        var recovered = try Core.core(clock, recovery: recovery, config: config).0
        recovered.handle(.message([Core.peer, request]))
        #expect(try Core.decode(recovered.take()).bodies == resent.bodies)

        // From a checkpoint: the same answer.
        let bytes = try core.core.checkpointBytes(records: 2, timeUnixNanos: 0)
        let checkpoint = try CheckpointFile.decode(bytes, path: "checkpoint", answers: .init(config))
        var restored = try Core.core(clock, recovery: Recovery(from: checkpoint, config: config), config: config).0
        restored.handle(.message([Core.peer, request]))
        #expect(try Core.decode(restored.take()).bodies == resent.bodies)
    }

    /// A checkpoint's whole answer with events can still be made smaller after a restart under a smaller budget.
    @Test func aRecordedAnswerWithEventsCountsAgainstTheBudget() throws {
        var config = Core.config
        let clock = Core.ManualClock()
        var core = try Core.core(clock, config: config).0
        let request = Core.request((0..<20).map { Core.create("c\($0)") }, id: 1)
        core.handle(.message([Core.peer, request]))
        let first = try Core.decode(core.take())
        let bytes = try core.core.checkpointBytes(records: 2, timeUnixNanos: 0)
        config.answerCacheBytes = 600
        let checkpoint = try CheckpointFile.decode(bytes, path: "checkpoint", answers: .init(config))
        var restored = try Core.core(clock, recovery: Recovery(from: checkpoint, config: config), config: config).0
        restored.handle(.message([Core.peer, request]))
        let again = try #require(try Core.decode(restored.take()).messages.last?.message.acceptance)
        #expect(again.events.isEmpty && again.elided == first.events.first!.seq...first.events.last!.seq)
    }
}
