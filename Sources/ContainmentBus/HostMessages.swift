import ContainmentModel
import ContainmentTracing
import W3CTraceContext

// A host's side of the protocol (docs/PROTOCOL.md), typed: what a host sends the supervisor (`HostOutbound`) and
// what it receives (`HostInbound`), in model types. The host names no generated type; this file is its codec.

/// A kind a host runs, with the string verbs its code answers and the questions it answers (SPEC §15), as a Hello
/// tells them.
package struct KindOffer: Equatable, Sendable {
    package let kind: String
    package let verbs: [String]
    package let questions: [String]
    /// The verbs a container of this kind requires of its children (SPEC §16).
    package let requires: [String]
    /// Its typed methods (a kind whose code is a distributed actor), by declared name.
    package let methods: [MethodDescription]

    package init(
        kind: String,
        verbs: [String],
        questions: [String],
        requires: [String] = [],
        methods: [MethodDescription] = []
    ) {
        self.kind = kind
        self.verbs = verbs
        self.questions = questions
        self.requires = requires
        self.methods = methods
    }
}

/// A request an actor of a host makes of the supervisor.
package enum HostRequest: Sendable {
    /// Commands as one transaction (each request says who issues it).
    case perform([Request])
    /// A typed method call, whose reply carries the method's outcome.
    case call(ControllerID, method: String, arguments: [String], by: Party)
    /// The whole tree.
    case snapshot
}

/// What a host sends the supervisor.
package enum HostOutbound: Sendable {
    /// Registration: the host, its pid, the highest seq delivered to it so far, and the kinds it runs.
    case hello(requestID: UInt64, host: String, pid: Int32, lastSeq: UInt64, kinds: [KindOffer])
    case heartbeat(host: String)
    case goodbye(host: String)
    /// An actor's request, numbered by its host.
    case request(requestID: UInt64, HostRequest)
    /// A controller's answer to question `questionID` (SPEC §15).
    case answer(questionID: UInt64, controller: ControllerID, Answer)
    /// A typed method's outcome, for the call whose `verbInvoked` event is `seq`.
    case callResult(seq: UInt64, controller: ControllerID, Result<String, RemoteError>)
    /// What a forwarded `inspect` asked.
    case inspected(requestID: UInt64, InspectReport)
    /// The spans this host process kept of a command, for a forwarded trace request.
    case traced(requestID: UInt64, TraceReport)

    /// The message's bytes, one frame.
    package var bytes: [UInt8] { message.bytes }

    var message: ClientMessage {
        switch self {
        case .hello(let requestID, let host, let pid, let lastSeq, let kinds):
            .with {
                $0.requestID = requestID
                $0.hello = .with {
                    $0.host = host
                    $0.pid = pid
                    $0.protocolVersion = protocolVersion
                    $0.lastSeq = lastSeq
                    $0.verbs = kinds.map { offer in
                        .with {
                            $0.kind = offer.kind
                            $0.verbs = offer.verbs
                            $0.questions = offer.questions
                            $0.requires = offer.requires
                            $0.methods = offer.methods.map(Containment_V1_Method.init)
                        }
                    }
                }
            }
        case .heartbeat(let host): .with { $0.heartbeat = .with { $0.host = host } }
        case .goodbye(let host): .with { $0.goodbye = .with { $0.host = host } }
        case .request(let requestID, .perform(let requests)):
            .with {
                $0.requestID = requestID
                $0.commands = .with { $0.commands = requests.map { WireCommand($0) } }
            }
        case .request(let requestID, .call(let target, let method, let arguments, let party)):
            MethodCallMessage.request(target, method: method, arguments: arguments, by: party).numbered(requestID)
        case .request(let requestID, .snapshot):
            .with {
                $0.requestID = requestID
                $0.snapshot = .init()
            }
        case .answer(let questionID, let controller, let answer):
            .with { $0.answer = Containment_V1_Answer(id: questionID, controller: controller, answer) }
        case .callResult(let seq, let controller, let outcome):
            MethodCallMessage.result(seq: seq, controller: controller, outcome)
        case .inspected(let requestID, let report):
            .with {
                $0.requestID = requestID
                $0.inspectReply = report.wire
            }
        case .traced(let requestID, let report):
            .with {
                $0.requestID = requestID
                $0.traceReply = report.wire
            }
        }
    }
}

extension ClientMessage {
    fileprivate func numbered(_ requestID: UInt64) -> ClientMessage {
        var message = self
        message.requestID = requestID
        return message
    }
}

/// What an `inspect` of a controller answers: the callbacks its actor received and how it began.
public struct InspectReport: Sendable {
    public var controller: ControllerID
    public var host: String
    /// The most recent callbacks, oldest first.
    public var callbacks: [BusEvent] = []
    /// Every callback received, counted and hashed (``CallbackDigest``).
    public var receivedCount: UInt64 = 0
    public var receivedDigest: UInt64 = 0
    /// The host process's incarnation, and the seq its actor was restored from (0: it saw every callback).
    public var incarnation: UInt32 = 0
    public var restoredSeq: UInt64 = 0

    public init(controller: ControllerID, host: String) {
        self.controller = controller
        self.host = host
    }

    package init(_ wire: Containment_V1_InspectReply) {
        self.init(controller: ControllerID(wire.controller), host: wire.host)
        callbacks = wire.callbacks.map(BusEvent.init)
        receivedCount = wire.receivedCount
        receivedDigest = wire.receivedDigest
        incarnation = wire.incarnation
        restoredSeq = wire.restoredSeq
    }

    var wire: Containment_V1_InspectReply {
        .with {
            $0.controller = controller.rawValue
            $0.host = host
            $0.callbacks = callbacks.map(\.wire)
            $0.receivedCount = receivedCount
            $0.receivedDigest = receivedDigest
            $0.incarnation = incarnation
            $0.restoredSeq = restoredSeq
        }
    }
}

/// A controller the supervisor's welcome gives a host: its id and kind, and its state to begin from.
package struct WelcomedController: Sendable {
    let wire: Containment_V1_ControllerState

    init(_ wire: Containment_V1_ControllerState) { self.wire = wire }

    package var id: ControllerID { ControllerID(wire.id) }
    package var kind: String { wire.kind }
    /// Its state in model types; nil when it does not decode (damaged: a behavior then begins without it).
    package func state() -> ControllerState? { try? wire.model() }
}

/// The supervisor's welcome: the controllers a host runs, and whether new actors begin from their state.
package struct HostWelcome: Sendable {
    package let controllers: [WelcomedController]
    /// New actors (and those of a host brought up to date) begin from their state, as of event `seq`.
    package let restore: Bool
    package let seq: UInt64
    /// The host process's incarnation (0: not told).
    package let incarnation: UInt32
}

/// A question to a controller's code (SPEC §15), to be answered under `id`.
package struct AskedQuestion: Sendable {
    package let id: UInt64
    package let controller: ControllerID
    /// The controller's kind: a question may come before the controller's creation is delivered.
    package let kind: String
    /// The question in model types; nil when it does not decode (it is answered with nothing).
    package let question: Question?
}

/// The supervisor's reply to a host's request (or an error not asked for, request id 0).
package struct HostReply: Sendable {
    let message: ServerMessage

    init(_ message: ServerMessage) { self.message = message }

    /// A reply the host makes itself: the request failed before the supervisor answered (timeout, stopping).
    package static func failed(requestID: UInt64, _ error: ContainmentError) -> HostReply {
        HostReply(
            .with {
                $0.requestID = requestID
                $0.body = .error(.init(error))
            }
        )
    }

    package var requestID: UInt64 { message.requestID }

    /// A standby's `notLeader` refusal: the leader's command endpoint ("" while none leads); nil for any other reply.
    package var notLeader: String? {
        guard case .error(let error) = message.body, error.code == ContainmentError.Code.notLeader.rawValue else {
            return nil
        }
        return message.leader
    }

    /// The refusal it carries, if it is one.
    package var refusal: RemoteError? {
        if case .error(let error) = message.body { return RemoteError(error) }
        return nil
    }

    /// The actor's report it carries, if it answers an inspect.
    package var report: InspectReport? {
        if case .inspectReply(let reply) = message.body { return InspectReport(reply) }
        return nil
    }

    /// The events of the accepted commands, or the refusal.
    package func events() throws(RemoteError) -> [Event] {
        switch message.body {
        case .accepted(let accepted): return try Acceptance(accepted).modelEvents()
        case .error(let error): throw RemoteError(error)
        default: throw RemoteError(.malformed("The supervisor answered a command with something else."))
        }
    }

    /// The tree, or the refusal.
    package func snapshot() throws(RemoteError) -> TreeSnapshot {
        switch message.body {
        case .snapshot(let snapshot):
            do {
                return try snapshot.model()
            } catch {
                throw RemoteError(error)
            }
        case .error(let error): throw RemoteError(error)
        default: throw RemoteError(.malformed("The supervisor answered a snapshot request with something else."))
        }
    }

    /// A typed call's outcome (JSON text), or its error.
    package func callOutcome() throws(RemoteError) -> String { try MethodCallMessage.outcome(of: message) }
}

/// What the supervisor sends a host (and, as replies, any client).
package enum HostInbound: Sendable {
    case welcome(HostWelcome)
    /// Callbacks, creations and destructions, in event order; the traced commands among theirs, with the context
    /// their callbacks' spans continue.
    case delivery([BusEvent], traces: [DeliveryTrace] = [])
    /// A forwarded trace request: the spans this process kept of command `commandID`, answered under `requestID`.
    case trace(requestID: UInt64, commandID: UInt64)
    /// A forwarded `inspect` of `controller`, answered under `requestID`.
    case inspect(requestID: UInt64, controller: ControllerID)
    case question(AskedQuestion)
    /// A reply to one of the host's requests, or an error it did not ask for (request id 0).
    case reply(HostReply)

    /// Decodes one frame from the supervisor (`malformed` when it is not a message).
    package init(decoding bytes: [UInt8]) throws(ContainmentError) {
        let message = try ServerMessage.decode(bytes)
        switch message.body {
        case .welcome(let welcome):
            self = .welcome(
                HostWelcome(
                    controllers: welcome.controllers.map(WelcomedController.init),
                    restore: welcome.restore,
                    seq: welcome.seq,
                    incarnation: welcome.incarnation
                )
            )
        case .delivery(let delivery):
            self = .delivery(
                delivery.events.map(BusEvent.init),
                traces: delivery.traces.compactMap { link in
                    (try? TraceContext(traceParentHeaderValue: link.traceparent)).map {
                        DeliveryTrace(commandID: link.commandID, context: $0)
                    }
                }
            )
        case .trace(let request): self = .trace(requestID: message.requestID, commandID: request.commandID)
        case .inspect(let request):
            self = .inspect(requestID: message.requestID, controller: ControllerID(request.controller))
        case .question(let question):
            self = .question(
                AskedQuestion(
                    id: question.id,
                    controller: ControllerID(question.controller),
                    kind: question.kind,
                    question: try? question.model()
                )
            )
        default: self = .reply(HostReply(message))
        }
    }
}

extension HostReply {
    /// What an accepted request's reply carries: its command id, events and (a typed call) result.
    package var acceptance: Acceptance? {
        if case .accepted(let accepted) = message.body { return Acceptance(accepted) }
        return nil
    }
}

extension HostInbound {
    /// The request id it answers (0: a message no request asked for).
    package var requestID: UInt64 {
        switch self {
        case .reply(let reply): reply.requestID
        case .inspect(let requestID, _), .trace(let requestID, _): requestID
        case .welcome, .delivery, .question: 0
        }
    }
    /// The refusal, when it is one.
    package var refusal: RemoteError? { if case .reply(let reply) = self { reply.refusal } else { nil } }
    /// The accepted reply, when it is one.
    package var acceptance: Acceptance? { if case .reply(let reply) = self { reply.acceptance } else { nil } }
    /// The welcome, when it is one.
    package var welcome: HostWelcome? { if case .welcome(let welcome) = self { welcome } else { nil } }
    /// The events of a delivery (none for another message).
    package var delivered: [BusEvent] { if case .delivery(let events, _) = self { events } else { [] } }
    /// The question, when it is one.
    package var asked: AskedQuestion? { if case .question(let question) = self { question } else { nil } }
}
