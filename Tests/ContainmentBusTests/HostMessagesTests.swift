import ContainmentModel
import Testing

@testable import ContainmentBus

/// A host's side of the protocol, typed (`HostMessages.swift`): what a host sends encodes to the messages the
/// supervisor reads, and what the supervisor sends decodes to the host's typed messages — or to a typed error.
struct HostMessagesTests {
    @Test func aHelloCarriesTheHostItsLastSeqAndItsKinds() throws {
        let offer = KindOffer(kind: "grid", verbs: ["add"], questions: ["loadView"])
        let bytes = HostOutbound.hello(requestID: 1, host: "h0", pid: 42, lastSeq: 7, kinds: [offer]).bytes
        let message = try ClientMessage.decode(bytes)
        guard case .hello(let hello) = message.body else {
            Issue.record("not a hello: \(message)")
            return
        }
        #expect(message.requestID == 1)
        #expect(hello.host == "h0" && hello.pid == 42 && hello.lastSeq == 7 && hello.protocolVersion == protocolVersion)
        #expect(hello.verbs.map(\.kind) == ["grid"] && hello.verbs[0].verbs == ["add"])
        #expect(hello.verbs[0].questions == ["loadView"])
    }

    @Test func anActorsRequestsAreNumberedCommandsSnapshotsAndCalls() throws {
        let perform = try ClientMessage.decode(
            HostOutbound.request(requestID: 9, .perform([Request(.loadView("a"), by: .controller("a"))])).bytes
        )
        #expect(perform.requestID == 9)
        #expect(
            try perform.commands.commands.map { try $0.request() } == [Request(.loadView("a"), by: .controller("a"))]
        )
        let snapshot = try ClientMessage.decode(HostOutbound.request(requestID: 10, .snapshot).bytes)
        #expect(snapshot.requestID == 10 && snapshot.body == .snapshot(.init()))
        let call = try ClientMessage.decode(
            HostOutbound.request(requestID: 11, .call("b", method: "$sm", arguments: ["1"], by: .controller("a"))).bytes
        )
        #expect(call.requestID == 11 && call.commands.commands.count == 1 && call.commands.commands[0].invoke.call)
    }

    @Test func anAnswerAResultAndAnInspectReportSayWhatTheyAnswer() throws {
        let answer = try ClientMessage.decode(HostOutbound.answer(questionID: 3, controller: "a", .nothing).bytes)
        #expect(answer.answer.id == 3 && answer.answer.controller == "a")
        let failed = RemoteError(ContainmentError(.unknownVerb, "no"))
        let result = try ClientMessage.decode(HostOutbound.callResult(seq: 5, controller: "a", .failure(failed)).bytes)
        #expect(result.callResult.seq == 5 && result.callResult.error.code == "unknownVerb")
        var report = InspectReport(controller: "a", host: "h0")
        report.callbacks = [BusEvent(.viewDidLoad("a"), seq: 4)]
        report.receivedCount = 1
        report.receivedDigest = 0xabc
        let inspected = try ClientMessage.decode(HostOutbound.inspected(requestID: 12, report).bytes)
        #expect(inspected.requestID == 12 && inspected.inspectReply.controller == "a")
        let back = InspectReport(inspected.inspectReply)
        #expect(back.callbacks.map(\.seq) == [4] && back.receivedDigest == 0xabc)
        #expect(try back.callbacks[0].model() == .viewDidLoad("a"))
    }

    @Test func whatTheSupervisorSendsDecodesToTheHostsTypes() throws {
        let welcome = ServerMessage.with {
            $0.welcome = .with {
                $0.controllers = [
                    .with {
                        $0.id = "a"
                        $0.kind = "grid"
                    }
                ]
                $0.restore = true
                $0.seq = 20
                $0.incarnation = 2
            }
        }
        guard case .welcome(let welcomed) = try HostInbound(decoding: welcome.bytes) else {
            Issue.record("not a welcome")
            return
        }
        #expect(welcomed.controllers.map(\.id) == ["a"] && welcomed.controllers[0].kind == "grid")
        #expect(welcomed.restore && welcomed.seq == 20 && welcomed.incarnation == 2)

        let events = [BusEvent(.viewDidLoad("a"), seq: 21), BusEvent(.loadView("b"), seq: 22)]
        let delivery = ServerMessage.with { $0.delivery = .with { $0.events = events.map(\.wire) } }
        guard case .delivery(let delivered, let traces) = try HostInbound(decoding: delivery.bytes) else {
            Issue.record("not a delivery")
            return
        }
        #expect(delivered.map(\.seq) == [21, 22] && delivered.map(\.controller) == ["a", "b"])
        #expect(delivered.map(\.eventKind) == [.viewDidLoad, .loadView])
        #expect(traces.isEmpty)

        let inspect = ServerMessage.with {
            $0.requestID = 8
            $0.inspect = .with { $0.controller = "a" }
        }
        guard case .inspect(let requestID, let controller) = try HostInbound(decoding: inspect.bytes) else {
            Issue.record("not an inspect")
            return
        }
        #expect(requestID == 8 && controller == "a")

        let question = ServerMessage.with { $0.question = Containment_V1_Question(.loadView("a"), id: 6, kind: "grid") }
        guard case .question(let asked) = try HostInbound(decoding: question.bytes) else {
            Issue.record("not a question")
            return
        }
        #expect(asked.id == 6 && asked.controller == "a" && asked.kind == "grid" && asked.question == .loadView("a"))
    }

    @Test func aReplyIsTheEventsTheRefusalOrAMalformedError() throws {
        let refused = ServerMessage.with {
            $0.requestID = 4
            $0.error = Containment_V1_Error(ContainmentError(.hostUnavailable, "who?"))
        }
        guard case .reply(let reply) = try HostInbound(decoding: refused.bytes) else {
            Issue.record("not a reply")
            return
        }
        #expect(reply.requestID == 4 && reply.refusal?.error.code == .hostUnavailable)
        #expect(throws: RemoteError.self) { try reply.events() }
        let accepted = HostReply(.with { $0.accepted = .with { $0.events = [BusEvent(.loadView("a"), seq: 1).wire] } })
        #expect(try accepted.events() == [.loadView("a")] && accepted.refusal == nil)
        // The wrong kind of reply is malformed, never taken for another.
        do {
            _ = try accepted.snapshot()
            Issue.record("an accepted reply was read as a snapshot")
        } catch {
            #expect(error.error.code == .malformed)
        }
        #expect(HostReply.failed(requestID: 2, ContainmentError(.timeout, "late")).refusal?.error.code == .timeout)
    }

    @Test func bytesThatAreNotAMessageAreMalformed() {
        #expect(throws: ContainmentError.self) { try HostInbound(decoding: [0xff, 0xff, 0xff]) }
        #expect(Publication(frames: [[1, 2, 3]]) == nil)
        #expect(Publication(frames: [Publication.heartbeatFrame, [0xff, 0xff]]) == nil)
    }

    @Test func aPublicationIsAnEventOrAHeartbeat() throws {
        let beat = Containment_V1_EventHeartbeat.with {
            $0.epoch = 3
            $0.seq = 99
        }
        guard
            case .heartbeat(let heard) = Publication(frames: [Publication.heartbeatFrame, try beat.serializedBytes()])
        else {
            Issue.record("not a heartbeat")
            return
        }
        #expect(heard == BusHeartbeat(epoch: 3, seq: 99))
        let event = BusEvent(.viewDidLoad("a"), seq: 7)
        guard case .event(let published) = Publication(frames: [Array("viewDidLoad".utf8), event.wire.bytes]) else {
            Issue.record("not an event")
            return
        }
        #expect(published.seq == 7)
        #expect(try published.model() == .viewDidLoad("a"))
    }
}
