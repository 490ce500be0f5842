import ContainmentBus
import ContainmentModel
import Foundation

extension SupervisorCore {
    /// Validates and applies commands as one transaction. On success: journal, publish, deliver. On rejection by the
    /// model: a `ruleViolation` event for the rule broken, its seq reserved in the journal. Either way the answer is
    /// sent to `sender` (when given) and remembered under `clientID` (exactly once); a rejection is also returned.
    ///
    /// A host may only act as the controllers it runs; a client (ctl) may act as anyone. `encoded`: the commands'
    /// bytes as received, journaled as they are unless the supervisor changed the command (a create's host).
    @discardableResult
    mutating func submit(
        _ commands: [WireCommand],
        encoded: [ArraySlice<UInt8>]? = nil,
        from sender: [UInt8]?,
        requestID: UInt64 = 0,
        clientID: String = "",
        completes: RunningTransition? = nil,
        resumed: AnswerWaits.Resumed? = nil,
        inTurn: Bool = false
    ) -> RemoteError? {
        if resumed == nil { metrics.request(commands: commands.count) }
        /// Refused before the model judged it: nothing changed, nothing to remember.
        func refuse(_ error: RemoteError) -> RemoteError {
            metrics.reject(error.error.code)
            if let sender { reply(to: sender, requestID: requestID, .error(.init(error))) }
            return error
        }
        let host = sender.flatMap { hostNames[$0] }
        var requests: [Request] = []
        var journaled = commands
        // The bytes of each command as journaled: as received, or serialized again once changed here.
        var journaledBytes = encoded.flatMap { $0.count == commands.count ? $0 : nil }
        var created = IDTable<ControllerID, String>()
        var share: [String: Int] = [:]
        // A typed method call in the batch: its controller (at most one call per batch).
        var call: ControllerID?
        var callsInBatch = 0
        guard !commands.isEmpty else { return refuse(RemoteError(.malformed("The batch holds no command."))) }
        for (index, wire) in commands.enumerated() {
            let request: Request
            do {
                request = try wire.request(hostTargets: { name in self.controllers(on: name) })
            } catch {
                return refuse(RemoteError(error, index: index))
            }
            if let host {
                guard case .controller(let id) = request.by, hostOf[id] == host else {
                    return refuse(
                        RemoteError(
                            ContainmentError(
                                .unauthorized,
                                "Host \(host) may act only as a controller it runs, not as \(request.by.description.isEmpty ? "an unnamed party" : request.by.description)."
                            ),
                            index: index
                        )
                    )
                }
            }
            if let failed = failedHost(for: request) {
                return refuse(
                    RemoteError(
                        ContainmentError(
                            .hostUnavailable,
                            "Host \(failed.name), which runs \(failed.controller), has failed (\(failed.reason)); its "
                                + "controllers take no commands until it is started again."
                        ),
                        index: index
                    )
                )
            }
            if case .invoke(let id, let verb, _) = request.command {
                if case .invoke(let invoke)? = wire.kind, invoke.call {
                    callsInBatch += 1
                    call = id
                    if let error = refusalOfCall(to: id, created: created, callsInBatch: callsInBatch) {
                        return refuse(RemoteError(error, index: index))
                    }
                } else if let error = unknownVerb(verb, of: id, created: created) {
                    return refuse(RemoteError(error, index: index))
                }
            }
            if case .create(let id, let kind, _) = request.command {
                let assigned: String
                if !wire.create.host.isEmpty {
                    assigned = wire.create.host
                    guard hosts[assigned] != nil || config.acceptUnknownHosts else {
                        return refuse(
                            RemoteError(
                                ContainmentError(.hostUnavailable, Self.unknownHostMessage(assigned)),
                                index: index
                            )
                        )
                    }
                    guard runs(kind, on: assigned) != false else {
                        return refuse(RemoteError(unknownKind(kind, of: id, on: assigned), index: index))
                    }
                } else if let placed = host ?? leastLoadedHost(running: kind) {
                    assigned = placed
                } else if hosts.isEmpty {
                    assigned = ""  // a supervisor that runs no host at all: the model alone, no actor
                } else if hosts.values.contains(where: \.up) {
                    return refuse(RemoteError(unknownKind(kind, of: id, on: nil), index: index))
                } else {
                    return refuse(
                        RemoteError(
                            ContainmentError(
                                .hostUnavailable,
                                "No host is up to run \(id): start one, or name a host of the topology (--host)."
                            ),
                            index: index
                        )
                    )
                }
                created[id] = assigned
                if journaled[index].create.host != assigned {
                    journaled[index].create.host = assigned
                    journaledBytes?[index] = journaled[index].bytes[...]
                }
            }
            requests.append(request)
            // A host's share of a client's batch: the commands that create one of its controllers or name one as
            // subject (counted only when the batch is longer than a share may be; a topology is not a client's).
            if commands.count > config.maxHostShare, sender != nil, let subject = request.command.subject,
                let concerned = created[subject] ?? hostOf[subject],
                !concerned.isEmpty
            {
                // One hash of the name: counted through the subscript's in-place access.
                let counted = { (count: inout Int) -> Int in
                    count += 1
                    return count
                }(&share[concerned, default: 0])
                if counted > config.maxHostShare {
                    return refuse(
                        RemoteError(
                            ContainmentError(
                                .limitExceeded,
                                "The batch concerns host \(concerned) in more than \(config.maxHostShare) commands "
                                    + "(maxHostShare)."
                            ),
                            index: index
                        )
                    )
                }
            }
        }
        // A command of a sender one of whose commands waits for controllers' code to answer (SPEC §15) waits behind
        // it, in order; everyone else's go on. One that waits keeps the hosts its creations were placed on (their
        // code may be asked already).
        let submission = AnswerWaits.Submission(
            commands: journaled,
            encoded: journaledBytes,
            sender: sender,
            requestID: requestID,
            clientID: clientID,
            completes: completes
        )
        let from = Self.orderingSender(host: host, requests: requests, peer: sender, clientID: clientID)
        if resumed == nil, !inTurn, answers.holds(from) {
            answers.enqueue(submission, from: from)
            return nil
        }
        var given = resumed?.given ?? [:]
        let events: [Event]
        do {
            guard
                let applied = try applyAsking(
                    requests,
                    submission: submission,
                    from: from,
                    resumed: resumed,
                    created: created,
                    given: &given
                )
            else { return nil }
            events = applied
        } catch {
            let commandID = nextCommandID
            nextCommandID += 1
            let time = clock.unixNanos
            publish(state.violation(of: requests[error.index], error: error.error), commandID: commandID, time: time)
            let rejection = RemoteError(error.error, index: error.index, commandID: commandID, seq: seq)
            noteRefusal(code: error.error.code.rawValue, message: error.error.message, seq: seq)
            metrics.reject(error.error.code)
            journalAppend(
                Containment_V1_JournalRecord.with {
                    $0.commandID = commandID
                    $0.timeUnixNanos = time
                    $0.firstSeq = seq
                    $0.eventCount = 1
                    $0.clientID = clientID
                    $0.requestID = requestID
                    $0.rejection = Containment_V1_Error(rejection)
                }.bytes
            )
            if let sender {
                let answer = ServerMessage.with {
                    $0.requestID = requestID
                    $0.body = .error(.init(rejection))
                }.bytes
                outbox.append(.send(peer: sender, body: answer, delivery: nil))
                clients.remember(client: clientID, requestID: requestID, answer: answer)
            }
            return rejection
        }
        let commandID = nextCommandID
        nextCommandID += 1
        let time = clock.unixNanos
        metrics.accept()
        let answersJournaled = given.isEmpty ? [] : journaledAnswers(given, events: events, created: &created)
        for (id, host) in created where !host.isEmpty {
            assign(id, to: host)
            if hosts[host] == nil { hosts[host] = HostRecord(name: host, lastSeen: clock.now) }
        }
        let firstSeq = seq + 1
        journalAppend(
            PreEncoded.journalRecord(
                commandID: commandID,
                timeUnixNanos: time,
                // A closure: a key path here is projected generically.
                commands: journaledBytes ?? journaled.map { $0.bytes[...] },
                firstSeq: firstSeq,
                eventCount: UInt32(clamping: events.count),
                clientID: clientID,
                requestID: requestID,
                answers: answersJournaled
            )
        )
        let encoded = events.map { publish($0, commandID: commandID, time: time) }
        deliver(events, encoded: encoded)
        for event in events {
            if case .controllerDestroyed(let id) = event { assign(id, to: nil) }
        }
        scheduleTransitions()
        if let sender, let call,
            awaitCall(
                to: call,
                events: events,
                encoded: encoded,
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
            let bytes = PreEncoded.accepted(requestID: requestID, commandID: commandID, events: encoded)
            outbox.append(.send(peer: sender, body: bytes, delivery: nil))
            clients.remember(client: clientID, requestID: requestID, answer: bytes)
        }
        return nil
    }

    /// Adds a journal record: durable before anything produced after it goes out (``take()``).
    mutating func journalAppend(_ record: [UInt8]) {
        records.append(record)
    }

    /// Publishes a host event, its seq reserved in the journal (so a restarted supervisor never reuses it).
    mutating func publishHostEvent(_ event: Event) {
        let time = clock.unixNanos
        publish(event, commandID: 0, time: time)
        journalAppend(
            Containment_V1_JournalRecord.with {
                $0.timeUnixNanos = time
                $0.firstSeq = seq
                $0.eventCount = 1
                if case .hostUp(let host, let pid) = event {
                    $0.host = host
                    $0.pid = Int32(clamping: pid)
                } else if case .hostRestarted(let host, let pid) = event {
                    $0.host = host
                    $0.pid = Int32(clamping: pid)
                }
            }.bytes
        )
    }

    mutating func controllers(on host: String) -> [ControllerID] {
        hostOf.filter { $0.value == host }.map(\.key).sorted()
    }

    /// A failed host running the controller a request names or is issued by, if any.
    func failedHost(for request: Request) -> (name: String, controller: ControllerID, reason: String)? {
        guard !failedHosts.isEmpty else { return nil }
        for id in [request.command.subject, request.by.controller].compactMap(\.self) {
            if let host = hostOf[id], failedHosts.contains(host), let reason = hosts[host]?.failed {
                return (host, id, reason)
            }
        }
        return nil
    }

    /// Records which host runs a controller (`nil`: none any more), keeping each host's count.
    mutating func assign(_ id: ControllerID, to host: String?) {
        // One probe of the table (a million entries after a large creation): the old value comes back from the change.
        let old: String?
        if let host {
            old = hostOf.updateValue(host, forKey: id).old
        } else {
            old = hostOf[id]
            hostOf[id] = nil
        }
        if let old { hostLoad[old, default: 1] -= 1 }
        if let host { hostLoad[host, default: 0] += 1 }
    }

    /// The host that is up, runs `kind` and runs the fewest controllers (by name among equals); `nil` when there is
    /// none: a controller is never placed on a host that is not there (one that left, or never came), nor on one
    /// whose code does not run its kind.
    func leastLoadedHost(running kind: Kind = .content) -> String? {
        var best: (load: Int, name: String)?
        for record in hosts.values where record.up && runs(kind, on: record.name) == true {
            let candidate = (hostLoad[record.name] ?? 0, record.name)
            if best.map({ candidate < $0 }) ?? true { best = candidate }
        }
        return best?.name
    }

    /// Transitions running in a recovered state complete after their duration from now (their timers were lost with
    /// the previous supervisor).
    mutating func resumeTransitions() {
        for running in state.transitions where running.duration > 0 {
            timers.append(
                TransitionTimer(
                    deadline: clock.now + .milliseconds(Int64(running.duration * 1000)),
                    transition: running
                )
            )
        }
    }

    /// A transition with a duration completes when it has run that long, unless a later command completes it first.
    /// A timer for each timed transition running without one: a `transition` with a duration, or a standard
    /// container's animated switch (SPEC §13). The supervisor completes it when it is due.
    mutating func scheduleTransitions() {
        for running in state.transitions
        where running.duration > 0 && !timers.contains(where: { $0.transition == running }) {
            timers.append(
                TransitionTimer(
                    deadline: clock.now + .milliseconds(Int64(running.duration * 1000)),
                    transition: running
                )
            )
        }
    }

    mutating func fireTimers() {
        let now = clock.now
        let due = timers.filter { $0.deadline <= now }
        guard !due.isEmpty else { return }
        timers.removeAll { $0.deadline <= now }
        for timer in due where state.transitions.contains(timer.transition) {
            let running = timer.transition
            let request = Request.by(
                running.parent,
                .completeTransition(in: running.parent, from: running.from, to: running.to)
            )
            submit([WireCommand(request)], from: nil, completes: running)
        }
    }
}

extension SupervisorCore {
    /// Whether `host` runs controllers of `kind`: a standard kind, every host; a custom one, a host whose last `Hello`
    /// registered it. `nil`: not known, the host not having registered with this supervisor yet (a topology names
    /// hosts before they come up).
    func runs(_ kind: Kind, on host: String) -> Bool? {
        if Kind.standard.contains(kind) { return true }
        guard let kinds = hosts[host]?.verbs else { return nil }
        return kinds[kind.rawValue] != nil
    }

    /// `unknownKind`: no host that is up (or not `host`) runs `kind`, and the kinds each registered host runs.
    func unknownKind(_ kind: Kind, of id: ControllerID, on host: String?) -> ContainmentError {
        let registered = hosts.values.filter { $0.verbs != nil && (host == nil ? $0.up : $0.name == host) }
            .sorted { $0.name < $1.name }
            .map { record in
                let custom = (record.verbs ?? [:]).keys.filter { !Kind.standard.contains(Kind($0)) }.sorted()
                return "\(record.name): \(custom.isEmpty ? "none" : custom.joined(separator: ", "))"
            }
        let which = host.map { "Host \($0) does not run" } ?? "No host that is up runs"
        // A kind no host registered: the one most likely meant, among the standard ones and every one registered.
        let known = Set(Kind.standard.map(\.rawValue)).union(hosts.values.flatMap { ($0.verbs ?? [:]).keys })
        let meant =
            known.contains(kind.rawValue)
            ? "" : StrictKeys.nearest(kind.rawValue, in: known.sorted()).map { " Did you mean \"\($0)\"?" } ?? ""
        return ContainmentError(
            .unknownKind,
            "\(which) kind \(Self.shown(kind.rawValue)), so \(id) cannot be created; the custom kinds registered "
                + "(besides the standard ones): \(registered.joined(separator: "; ")). A host registers a kind "
                + "in its BehaviorRegistry.\(meant)"
        )
    }

    /// Why `verb` cannot be called on `id` (`nil`: it can, or the model will refuse the call itself — an unknown
    /// controller): the host that runs it registered no such verb for its kind (`unknownVerb`), or has not
    /// registered with this supervisor yet, so its verbs are not known (`hostUnavailable`).
    func unknownVerb(_ verb: String, of id: ControllerID, created: IDTable<ControllerID, String>) -> ContainmentError? {
        guard let record = state.controllers[id] else { return nil }
        let host = created[id] ?? hostOf[id] ?? ""
        guard let verbs = hosts[host]?.verbs else {
            return ContainmentError(
                .hostUnavailable,
                "The verbs of \(id) are not known: its host \(host.isEmpty ? "(none)" : host) has not registered."
            )
        }
        let known = verbs[record.kind.rawValue] ?? []
        guard known.contains(verb) else {
            let list = known.isEmpty ? "none" : known.joined(separator: ", ")
            return ContainmentError(
                .unknownVerb,
                "\(id), a \(record.kind) run by host \(host), has no verb \(Self.shown(verb)); its verbs: \(list)."
            )
        }
        return nil
    }

    /// A name from a request, as a message may repeat it: at most 64 characters.
    static func shown(_ text: String) -> String { text.count <= 64 ? text : String(text.prefix(64)) + "…" }
}
