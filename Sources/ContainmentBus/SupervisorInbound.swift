import ContainmentModel
import ContainmentTracing

// What the supervisor reads on its command socket, typed (docs/PROTOCOL.md): a request of a client or a host, in model
// and bus types. Command batches keep their own fast path (`ClientMessage.decodeBatch`); this is everything else.

/// A host's registration, as the supervisor reads it.
package struct HostHello: Sendable, Equatable {
    package let host: String
    package let pid: Int32
    package let protocolVersion: UInt32
    /// The highest seq delivered to it so far (0: a new process, or none yet).
    package let lastSeq: UInt64
    package let kinds: [KindOffer]

    package init(host: String, pid: Int32, protocolVersion: UInt32, lastSeq: UInt64, kinds: [KindOffer]) {
        self.host = host
        self.pid = pid
        self.protocolVersion = protocolVersion
        self.lastSeq = lastSeq
        self.kinds = kinds
    }
}

/// A host's answer to a typed call whose `verbInvoked` event is `seq`.
package struct CallAnswer: Sendable {
    package enum Outcome: Sendable {
        /// The method's result, JSON text.
        case value(String)
        /// The method's own error.
        case error(RemoteError)
    }

    package let seq: UInt64
    package let controller: ControllerID
    /// nil: the host sent no outcome (malformed).
    package let outcome: Outcome?
}

/// A host's answer to question `questionID` (SPEC §15): the model's `Answer`, or why it does not decode.
package struct QuestionAnswer: Sendable {
    package let questionID: UInt64
    package let controller: ControllerID
    package let answer: Result<Answer, ContainmentError>

    package init(questionID: UInt64, controller: ControllerID, answer: Result<Answer, ContainmentError>) {
        self.questionID = questionID
        self.controller = controller
        self.answer = answer
    }
}

/// One request on the supervisor's command socket, decoded.
package struct InboundRequest: Sendable {
    package enum Body: Sendable {
        /// Commands as one transaction (read through ``InboundRequest/commands``).
        case commands
        case snapshot
        case metrics
        /// A client asks what `controller` can be called with (its verbs and typed methods).
        case methods(ControllerID)
        case hello(HostHello)
        case heartbeat(host: String)
        case goodbye(host: String)
        /// A client asks what `controller`'s actor received.
        case inspect(ControllerID)
        /// A host's report, for the client that asked.
        case inspected(InspectReport)
        case callAnswer(CallAnswer)
        case answer(QuestionAnswer)
        /// The spans kept of a traced command (a host answers with those of its process).
        case trace(commandID: UInt64)
        /// A host's spans of a command, answering a forwarded trace request.
        case traced(TraceReport)
        /// A client's own finished spans, to keep (no reply).
        case spans([TraceSpan])
        /// The traced commands whose spans are kept, with an id greater than `after` (an exporter's feed).
        case tracedCommands(after: UInt64)
        /// No body: malformed.
        case empty
    }

    let message: ClientMessage
    package let body: Body

    package var requestID: UInt64 { message.requestID }
    package var clientID: String { message.clientID }
    /// The W3C `traceparent` it carries (empty: not traced).
    package var traceparent: String { message.traceparent }
    /// The commands of a `commands` request, as received (none for any other).
    package var commands: ReceivedCommands {
        if case .commands(let batch) = message.body { return ReceivedCommands(batch.commands) }
        return ReceivedCommands([WireCommand]())
    }
    /// The length of its longest text, in bytes (an id, a name, a title): what `maxTextBytes` bounds.
    package var longestText: Int { LongestText.of(message) }

    /// Decodes one frame (`malformed` when it is not a request).
    package init(decoding bytes: [UInt8]) throws(ContainmentError) {
        let message = try ClientMessage.decode(bytes)
        self.message = message
        body =
            switch message.body {
            case .commands: .commands
            case .snapshot: .snapshot
            case .metrics: .metrics
            case .methods(let request): .methods(ControllerID(request.controller))
            case .hello(let hello):
                .hello(
                    HostHello(
                        host: hello.host,
                        pid: hello.pid,
                        protocolVersion: hello.protocolVersion,
                        lastSeq: hello.lastSeq,
                        kinds: hello.verbs.map {
                            KindOffer(
                                kind: $0.kind,
                                verbs: $0.verbs,
                                questions: $0.questions,
                                requires: $0.requires,
                                methods: $0.methods.map(MethodDescription.init)
                            )
                        }
                    )
                )
            case .heartbeat(let beat): .heartbeat(host: beat.host)
            case .goodbye(let goodbye): .goodbye(host: goodbye.host)
            case .inspect(let request): .inspect(ControllerID(request.controller))
            case .inspectReply(let reply): .inspected(InspectReport(reply))
            case .callResult(let result):
                .callAnswer(
                    CallAnswer(
                        seq: result.seq,
                        controller: ControllerID(result.controller),
                        outcome: result.outcome.map {
                            switch $0 {
                            case .value(let value): .value(value)
                            case .error(let error): .error(RemoteError(error))
                            }
                        }
                    )
                )
            case .answer(let answer):
                .answer(
                    QuestionAnswer(
                        questionID: answer.id,
                        controller: ControllerID(answer.controller),
                        answer: Result { () throws(ContainmentError) in try answer.model() }
                    )
                )
            case .trace(let request): .trace(commandID: request.commandID)
            case .traceReply(let reply): .traced(TraceReport(reply))
            case .spans(let spans): .spans(spans.spans.compactMap(TraceSpan.init))
            case .tracedCommands(let request): .tracedCommands(after: request.after)
            case nil: .empty
            }
    }
}
