import ContainmentBus
import ContainmentModel
import ContainmentConfig
import ContainmentTracing
import W3CTraceContext

/// One controller: its behavior, run one callback at a time in the order the supervisor sent them, and what it
/// received: a digest of every callback and the most recent ones, in order.
///
/// Each actor has its own bounded mailbox, drained by a task of its own only while it holds mail: controllers of one
/// host run concurrently, so a behavior that takes a second in a callback delays only its own controller. A full
/// mailbox makes ``post(_:)`` wait, which stalls the host's dispatcher: back-pressure reaches the supervisor as a
/// host that is slow, never as unbounded memory.
actor ControllerActor {
    /// What a mailbox holds: a callback, or an `inspect` answered once every callback before it was handled.
    enum Mail: Sendable {
        /// A callback; traced, its span's trace and parent (the host's dispatch of its delivery).
        case callback(BusEvent, trace: ActorTrace? = nil)
        case report(host: String, reply: @Sendable (InspectReport) async -> Void)
        /// Begin from this state, as of event `seq` (the host process replaces one that died).
        case restore(WelcomedController, seq: UInt64)
        /// A question to its code (SPEC §15), answered to the supervisor under `id`.
        case question(Question, id: UInt64)
    }

    let id: ControllerID
    let kind: String
    private var behavior: any ControllerBehavior
    private let ref: ControllerRef
    private let runtime: HostRuntime
    /// The last `historyLimit` callbacks received, oldest first.
    private(set) var received: [BusEvent] = []
    private let historyLimit: Int
    /// Every callback received since the actor was made.
    private(set) var digest = CallbackDigest()
    /// The seq of the last callback received: one delivered again (a supervisor resending after a restart) is not
    /// handled twice.
    private var lastSeq: UInt64 = 0
    /// The host process's incarnation, and the seq of the state it was restored from (0: it saw every callback).
    private let incarnation: UInt32
    private var restoredSeq: UInt64 = 0

    private var mailbox: Mailbox<Mail>
    private var waitingForSpace: [CheckedContinuation<Void, Never>] = []

    init(
        id: ControllerID,
        kind: String,
        kinds: BehaviorRegistry,
        runtime: HostRuntime,
        historyLimit: Int,
        mailboxCapacity: Int,
        incarnation: UInt32 = 1
    ) {
        self.incarnation = incarnation
        self.id = id
        self.kind = kind
        self.historyLimit = historyLimit
        mailbox = Mailbox(capacity: mailboxCapacity)
        ref = ControllerRef(id: id, runtime: runtime)
        behavior = kinds.behavior(for: kind, controller: ref)
        self.runtime = runtime
    }

    /// Queues mail in order, waiting while the mailbox is full; the actor handles it in its own time.
    func post(_ mail: Mail) async {
        while mailbox.isFull {
            await withCheckedContinuation { waitingForSpace.append($0) }
        }
        runtime.activity?.begin()
        if mailbox.post(mail) { Task(executorPreference: runtime.executor) { await self.drain() } }
    }

    /// Returns once the actor handled the mail posted before this call (a trace request waits for it).
    nonisolated func handledEarlierMail(host: String) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            Task { await self.post(.report(host: host, reply: { _ in continuation.resume() })) }
        }
    }

    private func drain() async {
        while let mail = mailbox.next() {
            defer { runtime.activity?.end() }
            if !waitingForSpace.isEmpty { waitingForSpace.removeFirst().resume() }
            switch mail {
            case .callback(let wire, nil): await handle(wire)
            case .callback(let wire, let trace?):
                let start = UnixClock.nanos
                await handle(wire)
                runtime.spans.append(trace.span(of: wire, controller: id, host: runtime.name, start: start))
            case .report(let host, let reply): await reply(report(host: host))
            case .question(let question, let questionID):
                var current = behavior
                let answer = await current.answer(question, controller: ref)
                behavior = current
                await runtime.outbox.send(.answer(questionID: questionID, controller: id, answer))
            case .restore(let state, let seq):
                // What it received before is superseded by the state: its digest and history count from here.
                lastSeq = max(lastSeq, seq)
                restoredSeq = seq
                digest = CallbackDigest()
                received.removeAll()
                // The supervisor's state decodes unless it is damaged; a behavior then begins without it.
                guard let state = state.state() else { continue }
                var current = behavior
                await current.restored(state, controller: ref)
                behavior = current
            }
        }
    }

    private func handle(_ wire: BusEvent) async {
        guard wire.seq > lastSeq else { return }
        lastSeq = wire.seq
        digest.add(seq: wire.seq)
        if historyLimit > 0 {
            received.append(wire)
            if received.count > historyLimit { received.removeFirst(received.count - historyLimit) }
        }
        guard let event = try? wire.model() else { return }
        // A typed method call: the method runs in the callback's place, and its outcome answers the caller. A
        // declared name reaches only code with typed methods (the supervisor refuses it for any other kind); for
        // other code it is a string verb that happens to end with `)`.
        if case .verbInvoked(_, let verb, let arguments, _) = event,
            verb.hasPrefix("$s") || (MethodDescription.isMethodName(verb) && behavior is any MethodTarget)
        {
            let outcome: Result<String, RemoteError>
            if let target = behavior as? any MethodTarget {
                outcome = await target.call(verb, arguments: arguments)
            } else {
                outcome = .failure(
                    RemoteError(ContainmentError(.unknownVerb, "\(id), a \(kind), has no typed methods."))
                )
            }
            await runtime.outbox.send(.callResult(seq: wire.seq, controller: id, outcome))
            return
        }
        // The drain handles one mail at a time, so no other callback of this controller runs meanwhile.
        var current = behavior
        await current.receive(event, controller: ref)
        behavior = current
    }

    /// What `inspect` answers.
    private func report(host: String) -> InspectReport {
        var report = InspectReport(controller: id, host: host)
        report.callbacks = received
        report.receivedCount = digest.count
        report.receivedDigest = digest.hash
        report.incarnation = incarnation
        report.restoredSeq = restoredSeq
        return report
    }
}

/// What an actor's span of a traced callback continues: the trace, and the host's span of the delivery.
struct ActorTrace: Sendable {
    var traceID: TraceID
    var parent: SpanID

    /// The span of `event`'s callback in `controller`, begun at `start` and ended now: `actor.method` for a typed
    /// call, `actor.callback` otherwise.
    func span(of event: BusEvent, controller: ControllerID, host: String, start: Int64) -> TraceSpan {
        let method = event.name == "verbInvoked" && event.messageName.hasSuffix(")")
        return TraceSpan(
            traceID: traceID,
            spanID: .random(),
            parentSpanID: parent,
            name: method ? "actor.method" : "actor.callback",
            process: "host \(host)",
            startUnixNanos: start,
            endUnixNanos: UnixClock.nanos,
            commandID: event.commandID,
            detail: "\(controller) \(method ? event.messageName : event.name)"
        )
    }
}
