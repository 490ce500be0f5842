import ContainmentConfig
import ContainmentBus
import ContainmentModel

extension SupervisorCore {
    /// Who a command keeps its order with (``AnswerWaits/Sender``): `host` acting as the first request's party, a
    /// client, or the supervisor itself.
    static func orderingSender(
        host: String?,
        requests: [Request],
        peer: [UInt8]?,
        clientID: String
    ) -> AnswerWaits.Sender {
        if host != nil, case .controller(let id)? = requests.first?.by { return .controller(id) }
        if !clientID.isEmpty { return .client(clientID) }
        if let peer { return .connection(peer) }
        return .supervisor
    }

    /// Applies `requests` as one transaction, asking controllers' code what it answers: the events, or `nil` when the
    /// command now waits for answers (``answers``). Throws the model's rejection.
    mutating func applyAsking(
        _ requests: [Request],
        submission: @autoclosure () -> AnswerWaits.Submission,
        from sender: AnswerWaits.Sender,
        resumed: AnswerWaits.Resumed?,
        created: IDTable<ControllerID, String>,
        given: inout [Question: Answer]
    ) throws(BatchError) -> [Event]? {
        guard !answers.base.answering.isEmpty || !given.isEmpty else { return try state.apply(batch: requests) }
        let deadline = resumed?.deadline ?? time.now + config.answerTimeout
        var asked = answers.base
        while true {
            asked.given = given
            switch try state.apply(batch: requests, answers: asked) {
            case .committed(let events):
                return events
            case .unanswered(let questions):
                var asking: [(id: UInt64, question: Question, host: String)] = []
                for question in questions {
                    let host = created[question.controller] ?? placement[question.controller] ?? ""
                    // A controller whose own command asks its code cannot answer: its code waits for that command.
                    if sender != .controller(question.controller),
                        let id = send(
                            question,
                            kind: kind(of: question.controller, in: requests),
                            to: host,
                            by: deadline
                        )
                    {
                        asking.append((id, question, host))
                    } else {
                        // Nobody to ask (its host is down or not running it), or no time left: nothing, at once.
                        given[question] = .timedOut
                    }
                }
                guard asking.isEmpty else {
                    answers.wait(
                        AnswerWaits.Waiting(
                            submission: submission(),
                            from: sender,
                            given: given,
                            asked: Set(asking.map(\.id)),
                            deadline: deadline
                        ),
                        id: answers.makeID(),
                        asking: asking
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
        guard time.now < deadline, let kind else { return nil }
        guard let record = hosts[host], record.up, let peer = record.routingID, runs(kind, on: host) == true else {
            return nil
        }
        let id = answers.makeID()
        emit(.reply(to: peer, requestID: 0, .message(.question(question, id: id, kind: kind))))
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
    /// the next ``tick(at:)``. An answer nobody waits for (late, after the deadline; or forged) is dropped.
    mutating func answered(_ answer: QuestionAnswer, from sender: [UInt8]) {
        guard let host = hostNames[sender], let asked = answers.questions[answer.questionID], asked.host == host,
            asked.question.controller == answer.controller
        else {
            warn(sender, "dropped an answer no command waits for", metadata: ["question.id": "\(answer.questionID)"])
            return
        }
        let given: Answer
        switch answer.answer {
        case .success(let answer): given = answer
        case .failure(let error):
            warn(
                sender,
                "took a malformed answer as nothing",
                metadata: ["question.name": "\(asked.question)", "error.message": "\(error.message)"]
            )
            given = .nothing
        }
        answers.answer(answer.questionID, with: given)
    }

    /// `host` went down or was replaced: what it was asked will not be answered — nothing, at once.
    mutating func abandonQuestions(on host: String) {
        for (id, asked) in answers.questions where asked.host == host { answers.answer(id, with: .timedOut) }
    }

    /// Applies again each waiting command that is due (answered, or its deadline passed: the questions still out are
    /// taken as nothing), oldest first, then the commands its sender queued behind it until one waits again.
    mutating func resumeAnswered() {
        guard !answers.isEmpty else { return }
        for waiting in answers.takeDue(at: time.now) {
            submitQueued(
                waiting.submission,
                resumed: AnswerWaits.Resumed(given: waiting.given, deadline: waiting.deadline)
            )
            while let next = answers.dequeue(from: waiting.from) { submitQueued(next, resumed: nil) }
        }
    }

    /// Submits a command that waited; a timer's completion whose transition no longer runs is dropped.
    private mutating func submitQueued(_ submission: AnswerWaits.Submission, resumed: AnswerWaits.Resumed?) {
        if let transition = submission.completes, !state.transitions.contains(transition) { return }
        submit(
            submission.commands,
            from: submission.sender,
            requestID: submission.requestID,
            clientID: submission.clientID,
            completes: submission.completes,
            resumed: resumed,
            inTurn: true
        )
    }

    /// The answers a command was applied with, as its journal record holds them (in question order). A controller an
    /// answer created runs on the host of the controller whose code created it when that host runs its kind, else on
    /// the least loaded one that does: `created` gains it, and its journaled `create` names the host.
    mutating func journaledAnswers(
        _ given: [Question: Answer],
        events: [Event],
        created: inout IDTable<ControllerID, String>
    ) -> [PlacedAnswer] {
        var made: Set<ControllerID> = []
        for case .controllerCreated(let id, _) in events where created[id] == nil { made.insert(id) }
        return given.sorted { $0.key.description < $1.key.description }.map { question, answer in
            var placed = PlacedAnswer(question: question, answer: answer)
            for case .create(let id, let kind, _) in answer.commands where made.contains(id) {
                let asker = placement[question.controller] ?? created[question.controller] ?? ""
                let host = runs(kind, on: asker) == true ? asker : leastLoadedHost(running: kind) ?? ""
                created[id] = host
                placed.hosts[id] = host
            }
            return placed
        }
    }

    /// Which kinds' code answers which questions, from the Hellos of the hosts that are up.
    mutating func updateAnsweringKinds() {
        var kinds: [Kind: Set<Question.Name>] = [:]
        for record in hosts.values where record.up {
            for (kind, questions) in record.questions { kinds[Kind(kind), default: []].formUnion(questions) }
        }
        if answers.base.answering != kinds { answers.base.answering = kinds }
    }
}
