import ContainmentConfig
import ContainmentTracing
import W3CTraceContext
/// What carrying out a supervisor's steps needs of the world: a journal, the two sockets, a log and metrics.
/// ``SupervisorLoop`` gives the machine's; a simulated world gives its own, so that both run the same
/// ``SupervisorDriver``.
package protocol SupervisorWorld: AnyObject {
    /// The time now, as the core is told it.
    var time: SupervisorTime { get }
    /// A step is about to be carried out: what the core asked to log, what its requests came to, its size, and the
    /// core as it is (the metrics' gauges).
    func stepBegins(_ step: SupervisorStep, core: SupervisorCore)
    /// Appends the step's records and makes them durable as `journalSync` says; throws when it cannot.
    func journal(_ records: [[UInt8]]) throws(JournalFailure)
    /// Why nothing of a step may go out though its records are durable (a leader whose lease may have lapsed), or nil.
    var barred: JournalFailure? { get }
    /// The journal cannot be written, or the step is barred: the supervisor stops (fail-stop).
    func failed(_ failure: JournalFailure)
    /// An event on the PUB: its topic frame and its bytes.
    func publish(topic: [UInt8], body: ArraySlice<UInt8>)
    func heartbeat(_ body: [UInt8])
    /// Sends a message to a peer of the command socket without waiting: a reply or a question, or (`delivery`) a
    /// host's callbacks.
    func send(_ body: [UInt8], to peer: [UInt8], delivery: Bool) -> SendOutcome
    /// The metrics as Prometheus text, for a `metrics` request (empty where none are kept).
    var metricsText: [UInt8] { get }
    /// A step went out (a checkpoint of `core` may be due); throws when the journal cannot go on.
    func stepCarriedOut(core: SupervisorCore) throws(JournalFailure)
}

/// What became of a message given to a socket.
package enum SendOutcome {
    case sent
    /// The peer's queue is full: a host that takes its deliveries slower than they come, or a client that does not
    /// read its replies.
    case full
    /// The peer's connection is gone.
    case gone
}

/// A ``SupervisorCore`` and the step it is building, carried out in a ``SupervisorWorld``: the core's actions gathered
/// from each input, then carried out journal first — the records written and made durable before anything is
/// published, answered or delivered — each event encoded once; what cannot go (a full or gone peer) goes back to the
/// core, whose answer is carried out next. Until the journal fails: then nothing more goes out.
package struct SupervisorDriver {
    package var core: SupervisorCore
    /// Set when the journal cannot be written (or a step was barred): nothing more is carried out.
    package private(set) var failure: JournalFailure?
    /// The actions the core returned since the last step was carried out.
    private var step = SupervisorStep()
    /// The step being carried out (kept, emptied, for its lists' capacity).
    private var carrying = SupervisorStep()
    private var eventBytes = EventBytes()
    /// Replies their peers' connections did not take yet, per peer (``ReplyQueues``).
    package private(set) var replies: ReplyQueues

    package init(_ core: SupervisorCore) {
        self.core = core
        replies = ReplyQueues(budget: core.config.replyQueueBytes)
    }

    /// When replies waiting for their peers are to be tried again, if any wait.
    package var nextReplyTry: ContinuousClock.Instant? { replies.nextTry }

    /// How long the loop may wait for a message: until the core's next timer or the next try of a waiting reply.
    /// `mutating` only so that a loop holding the driver in a class's property calls it in place: a call of a
    /// non-mutating member there copies the whole driver, its core included, out of the property first (every reference
    /// in it retained, then released: ~4,000 instructions a turn of the loop).
    package mutating func nextWakeUp(at now: ContinuousClock.Instant) -> Duration {
        let wait = core.nextWakeUp(at: now)
        guard let retry = replies.nextTry else { return wait }
        return min(wait, max(.zero, retry - now))
    }

    /// Sends what waits for peers whose connections may take it again (``ReplyQueues``); the core learns what became
    /// of them, and its answer is carried out.
    package mutating func retryReplies(in world: some SupervisorWorld) {
        guard failure == nil, let due = replies.nextTry, due <= world.time.now else { return }
        // A leader whose lease may have lapsed says nothing more, not even what it decided while it led (found by the
        // simulator's late reader: a leader stopped past its lease sent them when it continued).
        if let barred = world.barred {
            fail(barred, world)
            return
        }
        var changes: [ReplyQueues.Change] = []
        replies.retry(at: world.time.now, through: { world.send($0, to: $1, delivery: false) }, changes: &changes)
        for change in changes { handle(.replies(change), in: world) }
        flush(world)
    }

    /// The bytes of replies freed since the last call, as their peers left (memory to give back).
    package mutating func takeFreedReplyBytes() -> Int { replies.takeFreed() }

    /// The start of the new epoch, journaled before anything is served.
    package mutating func begin(in world: some SupervisorWorld) throws(JournalFailure) {
        var records: [[UInt8]] = []
        for case .journal(let record) in core.begin() { records.append(record.encoded()) }
        try world.journal(records)
    }

    package mutating func handle(_ input: SupervisorInput, in world: some SupervisorWorld) {
        core.handle(input, at: world.time, into: &step)
    }

    package mutating func tick(in world: some SupervisorWorld) {
        core.tick(at: world.time, into: &step)
    }

    /// Applies a topology at start (``SupervisorCore/apply(_:at:)``), carried out at once; throws its refusal.
    package mutating func apply(_ topology: Topology, in world: some SupervisorWorld) throws {
        let (actions, refusal) = core.apply(topology, at: world.time)
        step.add(actions)
        flush(world)
        if let failure { throw failure }
        if let refusal { throw refusal }
    }

    /// Carries out what was gathered, and what the core answers to what could not go, until nothing is left.
    package mutating func flush(_ world: some SupervisorWorld) {
        repeat { carryOut(world) } while failure == nil && !step.isEmpty
    }

    private mutating func carryOut(_ world: some SupervisorWorld) {
        guard failure == nil else { return }
        swap(&step, &carrying)
        defer {
            carrying.removeAll()
            eventBytes.removeAll()
        }
        core.stepTaken()
        // A step holding a traced command records its spans (one check for any other).
        var tracer = core.takeStepTraced() ? StepTracer(carrying.actions, ids: core.tracing.ids) : nil
        // What the core decided is worth saying, first: it stands even if the journal cannot take the step.
        world.stepBegins(carrying, core: core)
        do {
            let start = tracer == nil ? 0 : world.time.unixNanos
            try world.journal(carrying.encodedRecords())
            if tracer != nil { tracer?.journal = (start, world.time.unixNanos) }
        } catch {
            fail(error, world)
            return
        }
        if let barred = world.barred {
            fail(barred, world)
            return
        }
        // Hosts whose connection was found full in this step: their later deliveries wait behind the first, in order
        // (the core produces none for a host it knows is backlogged).
        var congested: Set<String> = []
        var answers: [SupervisorInput] = []
        var replyChanges: [ReplyQueues.Change] = []
        let now = world.time.now
        func send(_ message: OutgoingMessage) {
            switch message {
            case .publish(let topic, let body): world.publish(topic: topic, body: body)
            case .heartbeat(let body): world.heartbeat(body)
            case .send(let peer, let body, nil):
                // A reply: behind those waiting for its peer, if any.
                replies.send(
                    body,
                    to: peer,
                    at: now,
                    through: { world.send($0, to: peer, delivery: false) },
                    changes: &replyChanges
                )
            case .send(let peer, let body, let delivery?):
                // Deliveries to a backlogged host keep their order: behind those already waiting.
                if congested.contains(delivery.host) {
                    answers.append(.congested(delivery))
                    return
                }
                switch world.send(body, to: peer, delivery: true) {
                case .sent: break
                case .full:
                    congested.insert(delivery.host)
                    answers.append(.congested(delivery))
                case .gone: answers.append(.unreachable(peer: peer, delivery: delivery))
                }
            }
        }
        guard tracer != nil else {
            carrying.forEachMessage(events: &eventBytes, metricsText: world.metricsText) { message, _ in send(message) }
            finish()
            carriedOut(world)
            return
        }
        carrying.forEachMessage(events: &eventBytes, metricsText: world.metricsText) { message, index in
            // Traced: each message's time out, and a delivery's trace context for the host.
            var message = message
            var delivered: [(UInt64, SpanID)] = []
            if case .send(let peer, let body, let delivery?) = message, let links = tracer?.links(for: delivery),
                !links.spans.isEmpty
            {
                message = .send(peer: peer, body: body + links.bytes, delivery: delivery)
                delivered = links.spans
            }
            let start = world.time.unixNanos
            send(message)
            tracer?.sent(carrying.actions[index], start: start, end: world.time.unixNanos, delivered: delivered)
        }
        if var tracer {
            core.tracing.spans.append(contentsOf: tracer.finish())
            core.tracing.ids = tracer.unusedIDs
        }
        finish()
        carriedOut(world)

        /// What could not go goes back to the core.
        func finish() {
            for answer in answers { handle(answer, in: world) }
            for change in replyChanges { handle(.replies(change), in: world) }
        }
    }

    /// A checkpoint may be due, once the step's messages went out: a checkpoint never stands for deliveries that were
    /// not sent. Not in `carryOut`'s nested function: reading `core` there copied the whole core (every reference in
    /// it retained, then released) at every step.
    private mutating func carriedOut(_ world: some SupervisorWorld) {
        do {
            try world.stepCarriedOut(core: core)
        } catch {
            fail(error, world)
        }
    }

    package mutating func fail(_ error: JournalFailure, _ world: some SupervisorWorld) {
        guard failure == nil else { return }
        failure = error
        world.failed(error)
    }
}
