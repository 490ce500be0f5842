import ContainmentConfig
import ContainmentBus
import ContainmentModel
import Foundation

extension SupervisorCore {
    /// Validates and applies commands as one transaction. On success: journal, publish, deliver. On rejection by the
    /// model: a `ruleViolation` event for the rule broken, its seq reserved in the journal. Either way the answer is
    /// sent to `sender` (when given) and remembered under `clientID` (exactly once); a rejection is also returned.
    ///
    /// A host may only act as the controllers it runs; a client (ctl) may act as anyone. The commands are journaled
    /// as received unless the supervisor changed one (a create's host).
    @discardableResult
    mutating func submit(
        _ commands: ReceivedCommands,
        from sender: [UInt8]?,
        requestID: UInt64 = 0,
        clientID: String = "",
        completes: RunningTransition? = nil,
        resumed: AnswerWaits.Resumed? = nil,
        inTurn: Bool = false
    ) -> RemoteError? {
        if resumed == nil { tally(.request(commands: commands.count)) }
        /// Refused before the model judged it: nothing changed, nothing to remember.
        func refuse(_ error: RemoteError) -> RemoteError {
            tally(.rejected(error.error.code))
            if let sender { reply(to: sender, requestID: requestID, .refused(error)) }
            return error
        }
        let host = sender.flatMap { hostNames[$0] }
        var prepared: Prepared
        switch prepare(commands, host: host, fromClient: sender != nil) {
        case .ready(let checked): prepared = checked
        case .refused(let error): return refuse(error)
        }
        // A command of a sender one of whose commands waits for controllers' code to answer (SPEC §15) waits behind
        // it, in order; everyone else's go on. One that waits keeps the hosts its creations were placed on (their
        // code may be asked already).
        let submission = AnswerWaits.Submission(
            commands: prepared.commands,
            sender: sender,
            requestID: requestID,
            clientID: clientID,
            completes: completes
        )
        let from = Self.orderingSender(host: host, requests: prepared.requests, peer: sender, clientID: clientID)
        if resumed == nil, !inTurn, answers.holds(from) {
            answers.enqueue(submission, from: from)
            return nil
        }
        var given = resumed?.given ?? [:]
        let events: [Event]
        do {
            guard
                let applied = try applyAsking(
                    prepared.requests,
                    submission: submission,
                    from: from,
                    resumed: resumed,
                    created: prepared.created,
                    given: &given
                )
            else { return nil }
            events = applied
        } catch {
            let commandID = nextCommandID
            nextCommandID += 1
            let time = self.time.unixNanos
            publish(
                state.violation(of: prepared.requests[error.index], error: error.error),
                commandID: commandID,
                time: time
            )
            let rejection = RemoteError(error.error, index: error.index, commandID: commandID, seq: seq)
            noteRefusal(code: error.error.code.rawValue, message: error.error.message, seq: seq)
            tally(.rejected(error.error.code))
            emit(
                .journal(
                    .rejection(
                        commandID: commandID,
                        timeUnixNanos: time,
                        seq: seq,
                        clientID: clientID,
                        requestID: requestID,
                        rejection,
                        answers: given.sorted { $0.key.description < $1.key.description }.map { ($0.key, $0.value) }
                    )
                )
            )
            if let sender {
                let answer = SupervisorReply.message(.refused(rejection))
                emit(.reply(to: sender, requestID: requestID, answer))
                clients.remember(client: clientID, requestID: requestID, answer: answer)
            }
            return rejection
        }
        let commandID = nextCommandID
        nextCommandID += 1
        let time = self.time.unixNanos
        tally(.accepted)
        let answersJournaled = given.isEmpty ? [] : journaledAnswers(given, events: events, created: &prepared.created)
        for (id, host) in prepared.created where !host.isEmpty {
            assign(id, to: host)
            if hosts[host] == nil { hosts[host] = HostRecord(name: host, lastSeen: self.time.now) }
        }
        let firstSeq = seq + 1
        emit(
            .journal(
                .accepted(
                    commandID: commandID,
                    timeUnixNanos: time,
                    commands: prepared.commands,
                    firstSeq: firstSeq,
                    eventCount: UInt32(clamping: events.count),
                    clientID: clientID,
                    requestID: requestID,
                    answers: answersJournaled
                )
            )
        )
        // Each event moved out of the list into its stamped form: reversed in place through a span (which moves its
        // elements; `reverse()` copied each and destroyed the copy), then taken from the end.
        var unstamped = consume events
        var span = unstamped.mutableSpan
        var (low, high) = (0, span.count - 1)
        while low < high {
            span.swapAt(low, high)
            (low, high) = (low + 1, high - 1)
        }
        _ = consume span
        var stamped: [StampedEvent] = []
        stamped.reserveCapacity(unstamped.count)
        var destroyed: [ControllerID] = []
        while let event = unstamped.popLast() {
            if case .controllerDestroyed(let id) = event { destroyed.append(id) }
            stamped.append(publish(event, commandID: commandID, time: time))
        }
        deliver(stamped)
        for id in destroyed { assign(id, to: nil) }
        scheduleTransitions()
        if let sender, let call = prepared.call,
            awaitCall(
                to: call,
                events: stamped,
                firstSeq: firstSeq,
                peer: sender,
                requestID: requestID,
                clientID: clientID,
                commandID: commandID
            )
        {
            return nil
        }
        if let sender {
            let answer = SupervisorReply.accepted(commandID: commandID, events: stamped)
            emit(.reply(to: sender, requestID: requestID, answer))
            clients.remember(client: clientID, requestID: requestID, answer: answer)
        }
        return nil
    }

    /// Publishes a host event, its seq reserved in the journal (so a restarted supervisor never reuses it).
    mutating func publishHostEvent(_ event: Event) {
        let time = self.time.unixNanos
        publish(event, commandID: 0, time: time)
        emit(.journal(.hostEvent(event, seq: seq, timeUnixNanos: time)))
    }

    /// Records which host runs a controller (`nil`: none any more).
    mutating func assign(_ id: ControllerID, to host: String?) { placement.assign(id, to: host) }

    /// The host that is up (or expected to greet a supervisor that took over: ``HostRecord/expectedUntil``), runs
    /// `kind` and runs the fewest controllers (by name among equals); `nil` when there is none: a controller is never
    /// placed on a host that is not there (one that left, or never came), nor on one whose code does not run its kind.
    func leastLoadedHost(running kind: Kind = .content) -> String? {
        let now = time.now
        return placement.leastLoaded(
            of: hosts.values.lazy.filter { $0.takesControllers(at: now) && runs(kind, on: $0.name) == true }.map(\.name)
        )
    }

    /// Transitions running in a recovered state complete after their duration from now (their timers were lost with
    /// the previous supervisor); so does each timed transition a command starts, unless a later command completes it
    /// first (SPEC §13).
    mutating func scheduleTransitions() {
        // Most commands start none: the clock is read only when one runs.
        guard !state.transitions.isEmpty else { return }
        timers.schedule(state.transitions, now: time.now)
    }

    mutating func fireTimers() {
        for running in timers.takeDue(now: time.now) where state.transitions.contains(running) {
            let request = Request.by(
                running.parent,
                .completeTransition(in: running.parent, from: running.from, to: running.to)
            )
            submit(ReceivedCommands([request]), from: nil, completes: running)
        }
    }
}
