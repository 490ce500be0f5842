import ContainmentBus
import ContainmentModel
import Foundation
import Testing

@testable import ContainmentConfig
@testable import ContainmentRuntime

/// SPEC §15's answers from controller code in the supervisor's core, under a manual clock: a command waits for its
/// questions (its sender's later commands wait behind it, in order; others' go on), goes on with the answers in one
/// transaction and one journal record, and never waits longer than `answerTimeoutMs`, nor for a host that is gone,
/// nor for code whose own command asks it.
@Suite struct SupervisorAnswerTests {
    typealias Core = SupervisorCoreTests
    static let hostPeer: [UInt8] = [9]

    /// h0 registers, running kind `form` whose code answers `loadView` and `viewWillLayoutSubviews`; `f` is created
    /// on it. The steps so far are taken.
    static func scene(_ clock: Core.ManualClock) throws -> DrivenCore {
        try sceneWithRecords(clock).core
    }

    /// The scene, and its journal records so far.
    static func sceneWithRecords(
        _ clock: Core.ManualClock
    ) throws -> (core: DrivenCore, records: [JournalEntry]) {
        let made = try Core.core(clock)
        var core = made.0
        core.handle(.message([hostPeer, hello("h0")]))
        core.handle(.message([Core.peer, Core.request([Core.create("f", host: "h0", kind: "form")], id: 1)]))
        let records = [made.startRecord] + (try Core.decode(core.take()).records)
        return (core, records)
    }

    /// The replies and questions of a step: its messages but the deliveries of callbacks.
    static func answers(_ step: Core.Decoded) -> [[UInt8]] {
        step.messages.filter {
            if case .delivery = $0.message { false } else { true }
        }.map(\.peer)
    }

    static func hello(_ host: String, pid: Int32 = 4242) -> [UInt8] {
        let form = KindOffer(kind: "form", verbs: [], questions: ["loadView", "viewWillLayoutSubviews"])
        return HostOutbound.hello(requestID: 1, host: host, pid: pid, lastSeq: 0, kinds: [form]).bytes
    }

    static let loadF = ClientCommand(Request(.loadView("f"), by: .natural))

    static func answer(_ id: UInt64, _ commands: [Command]) -> [UInt8] {
        HostOutbound.answer(questionID: id, controller: "f", Answer(commands: commands)).bytes
    }

    static let header = ViewID(owner: "f", name: "header")

    @Test func aCommandWaitsForItsAnswerAndTheCommandsBehindItKeepTheirOrder() throws {
        let clock = Core.ManualClock()
        var (core, history) = try Self.sceneWithRecords(clock)
        core.handle(.message([Core.peer, Core.request([Self.loadF], id: 2)]))
        let asked = try Core.decode(core.take())
        #expect(asked.records.isEmpty && asked.events.isEmpty, "nothing is applied while it waits")
        let question = try #require(asked.messages.first)
        #expect(question.peer == Self.hostPeer && asked.messages.count == 1)
        let first = try #require(question.message.asked)
        #expect(first.question == .loadView("f") && first.kind == "form")

        // Another client's command comes meanwhile: it goes on. The same client's next one waits behind its first.
        core.handle(.message([[7], Core.request([Core.create("x")], id: 1, client: "client-b")]))
        let other = try Core.decode(core.take())
        #expect(other.events.map(\.name) == ["controllerCreated"] && Self.answers(other) == [[7]])
        core.handle(.message([Core.peer, Core.request([Core.create("y")], id: 3)]))
        #expect(try Core.decode(core.take()).messages.isEmpty)

        core.handle(
            .message([
                Self.hostPeer, Self.answer(first.id, [.addSubview(Self.header, to: .root("f"))]),
            ])
        )
        core.tick()
        let applied = try Core.decode(core.take())
        #expect(
            applied.events.map(\.name) == ["loadView", "viewInserted", "viewDidLoad", "controllerCreated"],
            "the answer's commands before viewDidLoad, then the command behind"
        )
        #expect(applied.records.count == 2 && applied.records[0].answerCount == 1)
        #expect(Self.answers(applied) == [Core.peer, Core.peer], "answered in order")
        #expect(core.state.views[Self.header] != nil)

        // The journal alone gives the same state: the recorded answer is given again.
        var replay = JournalReplay()
        history += other.records + applied.records
        for record in history { _ = try replay.apply(record) }
        #expect(replay.state == core.state)
    }

    /// A command refused after its controller's code answered (the form's view loaded by its code, then an index
    /// found out of range): the refusal's record holds the answer, so a replay judges the refusal as it was made —
    /// without it, the replay would load an empty view and give another message (the stress check caught that).
    @Test func aRefusalAfterAnAnswerIsJournaledWithItAndJudgedAgainAlike() throws {
        let clock = Core.ManualClock()
        let (scene, history) = try Self.sceneWithRecords(clock)
        var core = scene
        let outOfRange = ClientCommand(
            Request(.addSubview(ViewID(owner: "f", name: "extra"), to: .root("f"), at: 3), by: .controller("f"))
        )
        core.handle(.message([Core.peer, Core.request([outOfRange], id: 2)]))
        let question = try #require(try Core.decode(core.take()).messages.first?.message.asked)
        #expect(question.question == .loadView("f"))
        core.handle(.message([Self.hostPeer, Self.answer(question.id, [.addSubview(Self.header, to: .root("f"))])]))
        core.tick()
        let refused = try Core.decode(core.take())
        let published = try #require(refused.events.first)
        let record = try #require(refused.records.first)
        #expect(refused.events.count == 1 && published.name == "ruleViolation")
        #expect(record.isRejection && record.answerCount == 1)
        #expect(core.state.views[Self.header] == nil, "refused: the answer's view is not kept")

        // The journal before it, replayed; then the refused command judged at that point, with and without the answer.
        var judged = JournalReplay()
        for entry in history { _ = try judged.apply(entry) }
        var blind = judged
        let model = try published.model()
        let again = judged.judgeRejected([outOfRange], refusedAs: record)
        #expect(again?.1 == model, "the replay's ruleViolation is the one published")
        let withoutAnswer = blind.judgeRejected([outOfRange])
        #expect(withoutAnswer != nil && withoutAnswer?.1 != model, "without the answer, the replay's view is empty")
        // Recovery applies nothing of a refusal, its answer included.
        _ = try judged.apply(record)
        #expect(judged.state.views[Self.header] == nil && judged.lastSeq == published.seq)
    }

    @Test func noAnswerWithinTheTimeoutIsNothingAndTheEventNamesIt() throws {
        let clock = Core.ManualClock()
        var core = try Self.scene(clock)
        core.handle(.message([Core.peer, Core.request([Self.loadF], id: 2)]))
        let question = try #require(try Core.decode(core.take()).messages.first?.message.asked)
        Core.pass(core.config.answerTimeout - .milliseconds(1), clock, &core)
        #expect(try Core.decode(core.take()).records.isEmpty, "it still waits")
        Core.pass(.milliseconds(1), clock, &core)
        let applied = try Core.decode(core.take())
        #expect(
            try applied.events.map { try $0.model().description } == [
                "loadView(f)", "answerTimedOut(f) question=loadView", "viewDidLoad(f)",
            ]
        )
        #expect(applied.records.first?.timedOutAnswers == 1)
        // The late answer finds nothing waiting: dropped.
        core.handle(.message([Self.hostPeer, Self.answer(question.id, [.addSubview(Self.header, to: .root("f"))])]))
        core.tick()
        let late = try Core.decode(core.take())
        #expect(late.records.isEmpty && late.events.isEmpty && core.state.views[Self.header] == nil)
    }

    @Test func aHostThatGoesDownIsNotWaitedFor() throws {
        let clock = Core.ManualClock()
        var core = try Self.scene(clock)
        core.handle(.message([Core.peer, Core.request([Self.loadF], id: 2)]))
        _ = core.take()
        core.handle(.message([Self.hostPeer, HostOutbound.goodbye(host: "h0").bytes]))
        core.tick()
        let applied = try Core.decode(core.take())
        #expect(applied.events.map(\.name) == ["hostDown", "loadView", "answerTimedOut", "viewDidLoad"])
        #expect(applied.messages.last?.message.acceptance?.events.count == 3)
    }

    @Test func anAnswerFromAnotherPeerIsDroppedAndAResendIsAnsweredOnce() throws {
        let clock = Core.ManualClock()
        var core = try Self.scene(clock)
        core.handle(.message([[5], Self.hello("h1")]))
        _ = core.take()
        core.handle(.message([Core.peer, Core.request([Self.loadF], id: 2)]))
        let question = try #require(try Core.decode(core.take()).messages.first?.message.asked)
        // h1 does not run f: its answer is not taken.
        core.handle(.message([[5], Self.answer(question.id, [.addSubview(Self.header, to: .root("f"))])]))
        core.tick()
        #expect(try Core.decode(core.take()).records.isEmpty)
        // The client resends from a new connection while the command waits: one application, answered there.
        core.handle(.message([[6], Core.request([Self.loadF], id: 2)]))
        core.handle(.message([Self.hostPeer, Self.answer(question.id, [])]))
        core.tick()
        let applied = try Core.decode(core.take())
        #expect(applied.records.count == 1 && applied.events.map(\.name) == ["loadView", "viewDidLoad"])
        #expect(Self.answers(applied) == [[6]])
        #expect(core.resends == 1)
    }

    @Test func codeWhoseOwnCommandAsksItIsNotWaitedFor() throws {
        let clock = Core.ManualClock()
        var core = try Self.scene(clock)
        // h0 acts as f: f's code is busy with this very command, so its loadView is not asked.
        let own = ClientCommand(Request(.loadView("f"), by: .controller("f")))
        core.handle(.message([Self.hostPeer, Core.request([own], id: 2)]))
        let applied = try Core.decode(core.take())
        #expect(applied.events.map(\.name) == ["loadView", "answerTimedOut", "viewDidLoad"])
        #expect(!applied.messages.contains { if case .question = $0.message { true } else { false } })
    }

    @Test func aControllerCreatedByTheAskingCommandIsAskedWithItsKindAndKeepsItsHost() throws {
        let clock = Core.ManualClock()
        var core = try Self.scene(clock)
        let batch = [Core.create("g", kind: "form"), ClientCommand(Request(.loadView("g"), by: .natural))]
        core.handle(.message([Core.peer, Core.request(batch, id: 2)]))
        let asked = try Core.decode(core.take())
        let question = try #require(asked.messages.first?.message.asked)
        #expect(question.controller == "g" && question.kind == "form" && asked.messages.first?.peer == Self.hostPeer)
        #expect(core.state.controllers["g"] == nil, "not created while it waits")
        core.handle(
            .message([
                Self.hostPeer,
                HostOutbound.answer(questionID: question.id, controller: "g", .nothing).bytes,
            ])
        )
        core.tick()
        let applied = try Core.decode(core.take())
        let record = try #require(applied.records.first)
        #expect(record.createdHosts.first?.1 == "h0" && record.answerCount == 1)
        #expect(core.hostOf["g"] == "h0")
    }
}
