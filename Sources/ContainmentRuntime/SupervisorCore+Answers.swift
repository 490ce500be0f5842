import ContainmentBus
import ContainmentModel

/// Commands waiting for controllers' code to answer their questions (SPEC §15, answers from controller code).
///
/// A command that meets a question to code that answers it is applied again once every question it asked is
/// answered, or taken as answered with nothing at its deadline (`answerTimeoutMs` after it first asked): the model
/// judges it with the answers, in the same transaction. Commands that come meanwhile wait behind it, in order, so
/// the sequence stays one: the wait a slow host can cause any command is bounded by `answerTimeoutMs`.
struct AnswerWaits {
    /// A command as ``SupervisorCore/submit(_:encoded:from:requestID:clientID:resumed:)`` takes it.
    struct Submission {
        var commands: [WireCommand]
        var encoded: [ArraySlice<UInt8>]?
        var sender: [UInt8]?
        var requestID: UInt64
        var clientID: String
    }

    /// A command whose questions are out: the answers so far and the questions still asked, by question id.
    struct Waiting {
        var submission: Submission
        var given: [Question: Answer]
        var asked: [UInt64: (question: Question, host: String)]
        var deadline: ContinuousClock.Instant
    }

    /// The answers a command is applied again with, and its deadline.
    struct Resumed {
        var given: [Question: Answer]
        var deadline: ContinuousClock.Instant
    }

    var waiting: Waiting?
    /// Commands that came while one waits, oldest first (from `head`).
    private var queue: [Submission] = []
    private var head = 0
    var nextQuestionID: UInt64 = 1
    /// Which kinds' code answers which questions, as the hosts' Hellos said (the union over hosts).
    var kinds: [Kind: Set<Question.Name>] = [:]

    var queued: Int { queue.count - head }

    mutating func enqueue(_ submission: Submission) { queue.append(submission) }

    mutating func dequeue() -> Submission? {
        guard head < queue.count else { return nil }
        defer {
            head += 1
            if head == queue.count {
                queue.removeAll(keepingCapacity: true)
                head = 0
            }
        }
        return queue[head]
    }

    /// A resend of a command that waits (or is queued): it is answered once applied, to `peer`. False when none is.
    mutating func resent(client: String, requestID: UInt64, from peer: [UInt8]) -> Bool {
        guard !client.isEmpty else { return false }
        if let waiting, waiting.submission.clientID == client, waiting.submission.requestID == requestID {
            self.waiting?.submission.sender = peer
            return true
        }
        guard let index = queue[head...].firstIndex(where: { $0.clientID == client && $0.requestID == requestID })
        else { return false }
        queue[index].sender = peer
        return true
    }

    /// Whether the waiting command has all its answers (or its deadline passed): it is applied again at the next tick.
    func isDue(at now: ContinuousClock.Instant) -> Bool {
        guard let waiting else { return false }
        return waiting.asked.isEmpty || now >= waiting.deadline
    }
}

extension SupervisorCore {
    /// Applies `requests` as one transaction, asking controllers' code what it answers: the events, or `nil` when the
    /// command now waits for answers (``answers``). Throws the model's rejection.
    mutating func applyAsking(
        _ requests: [Request],
        submission: @autoclosure () -> AnswerWaits.Submission,
        resumed: AnswerWaits.Resumed?,
        created: IDTable<ControllerID, String>,
        given: inout [Question: Answer]
    ) throws(BatchError) -> [Event]? {
        guard !answers.kinds.isEmpty || !given.isEmpty else { return try state.apply(batch: requests) }
        let deadline = resumed?.deadline ?? clock.now + config.answerTimeout
        while true {
            switch try state.apply(batch: requests, answers: Answers(given: given, answering: answers.kinds)) {
            case .committed(let events):
                return events
            case .unanswered(let questions):
                var asked: [UInt64: (question: Question, host: String)] = [:]
                for question in questions {
                    let host = created[question.controller] ?? hostOf[question.controller] ?? ""
                    if let id = send(
                        question,
                        kind: kind(of: question.controller, in: requests),
                        to: host,
                        by: deadline
                    ) {
                        asked[id] = (question, host)
                    } else {
                        // Nobody to ask (its host is down or not running it), or no time left: nothing, at once.
                        given[question] = .timedOut
                    }
                }
                guard asked.isEmpty else {
                    answers.waiting = AnswerWaits.Waiting(
                        submission: submission(),
                        given: given,
                        asked: asked,
                        deadline: deadline
                    )
                    return nil
                }
            }
        }
    }

    /// Sends `question` to the host that runs its controller: its id, or `nil` when it cannot be asked in time.
    private mutating func send(
        _ question: Question,
        kind: Kind?,
        to host: String,
        by deadline: ContinuousClock.Instant
    ) -> UInt64? {
        guard clock.now < deadline, let kind else { return nil }
        guard let record = hosts[host], record.up, let peer = record.routingID, runs(kind, on: host) == true else {
            return nil
        }
        let id = answers.nextQuestionID
        answers.nextQuestionID += 1
        let message = ServerMessage.with { $0.question = Containment_V1_Question(question, id: id, kind: kind) }
        outbox.append(.send(peer: peer, body: message.bytes, delivery: nil))
        return id
    }

    /// The kind of `id`: in the state, or created by one of `requests`.
    private func kind(of id: ControllerID, in requests: [Request]) -> Kind? {
        if let kind = state.controllers[id]?.kind { return kind }
        for request in requests {
            if case .create(id, let kind, _) = request.command { return kind }
        }
        return nil
    }

    /// A host's answer: kept for the command that waits for it; a command with all its answers is applied again at
    /// the next ``tick()``. An answer nobody waits for (late, after the deadline; or forged) is dropped.
    mutating func answered(_ answer: Containment_V1_Answer, from sender: [UInt8]) {
        guard let host = hostNames[sender], let asked = answers.waiting?.asked[answer.id], asked.host == host,
            asked.question.controller.rawValue == answer.controller
        else {
            warn(sender, "dropped an answer no command waits for", metadata: ["question.id": "\(answer.id)"])
            return
        }
        let given: Answer
        do {
            given = try answer.model()
        } catch {
            warn(
                sender,
                "took a malformed answer as nothing",
                metadata: ["question.name": "\(asked.question)", "error.message": "\(error.message)"]
            )
            given = .nothing
        }
        answers.waiting?.asked[answer.id] = nil
        answers.waiting?.given[asked.question] = given
    }

    /// `host` went down or was replaced: what it was asked will not be answered — nothing, at once.
    mutating func abandonQuestions(on host: String) {
        guard let waiting = answers.waiting else { return }
        for (id, asked) in waiting.asked where asked.host == host {
            answers.waiting?.asked[id] = nil
            answers.waiting?.given[asked.question] = .timedOut
        }
    }

    /// Applies the waiting command again once it is due (answered, or its deadline passed: the questions still out
    /// are taken as nothing), then the commands queued behind it until one waits again.
    mutating func resumeAnswered() {
        let now = clock.now
        guard answers.isDue(at: now), var waiting = answers.waiting else { return }
        for asked in waiting.asked.values { waiting.given[asked.question] = .timedOut }
        answers.waiting = nil
        let submission = waiting.submission
        submit(
            submission.commands,
            encoded: submission.encoded,
            from: submission.sender,
            requestID: submission.requestID,
            clientID: submission.clientID,
            resumed: AnswerWaits.Resumed(given: waiting.given, deadline: waiting.deadline)
        )
        while answers.waiting == nil, let next = answers.dequeue() {
            submit(
                next.commands,
                encoded: next.encoded,
                from: next.sender,
                requestID: next.requestID,
                clientID: next.clientID
            )
        }
    }

    /// The answers a command was applied with, as its journal record holds them (in question order). A controller an
    /// answer created runs on the host of the controller whose code created it when that host runs its kind, else on
    /// the least loaded one that does: `created` gains it, and its journaled `create` names the host.
    mutating func journaledAnswers(
        _ given: [Question: Answer],
        events: [Event],
        created: inout IDTable<ControllerID, String>
    ) -> [[UInt8]] {
        var made: Set<ControllerID> = []
        for case .controllerCreated(let id, _) in events where created[id] == nil { made.insert(id) }
        return given.sorted { $0.key.description < $1.key.description }.map { question, answer in
            var record = Containment_V1_GivenAnswer(question, answer)
            for index in record.commands.indices {
                guard case .create(let create)? = record.commands[index].kind else { continue }
                let id = ControllerID(create.id)
                guard made.contains(id) else { continue }
                let kind = Kind(create.kind)
                let asker = hostOf[question.controller] ?? created[question.controller] ?? ""
                let host = runs(kind, on: asker) == true ? asker : leastLoadedHost(running: kind) ?? ""
                created[id] = host
                record.commands[index].create.host = host
            }
            return record.bytes
        }
    }

    /// Which kinds' code answers which questions, from the Hellos of the hosts that are up.
    mutating func updateAnsweringKinds() {
        var kinds: [Kind: Set<Question.Name>] = [:]
        for record in hosts.values where record.up {
            for (kind, questions) in record.questions { kinds[Kind(kind), default: []].formUnion(questions) }
        }
        answers.kinds = kinds
    }
}
