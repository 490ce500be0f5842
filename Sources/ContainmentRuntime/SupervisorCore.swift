import ContainmentBus
import ContainmentModel
import Foundation
import Logging

/// The supervisor's core (DESIGN.md): the single sequencer of mutations, without I/O. It owns the authoritative model
/// state; it is fed the messages of the command socket (``receive(_:)``) and the passing of time (``tick()``, by an
/// injected ``SupervisorClock``), and hands back what to do as a ``SupervisorStep`` (``take()``): journal records, and
/// the messages and events that may go out only once those records are durable. ``SupervisorLoop`` does the I/O.
///
/// Each command is validated by the model, journaled, its events published with gap-free sequence numbers, its
/// callbacks delivered to the hosts that run the controllers, and answered. A value (its clock aside): the loop
/// copies it for a checkpoint at the cost of a few reference counts.
struct SupervisorCore {
    struct HostRecord {
        var name: String
        var routingID: [UInt8]?
        var pid: Int32 = 0
        var up = false
        var lastSeen: ContinuousClock.Instant
        /// Callbacks for its controllers while it is not connected, delivered when it (re)connects.
        /// (Each serialized, as `publish` wrote it.)
        var pending: [[UInt8]] = []
        /// More callbacks came due while it was away than `pendingDeliveries` keeps: they were dropped, and its actors
        /// are brought up to date with `restored` when it returns.
        var stale = false
        /// Its connection is full (it takes deliveries slower than they come: back-pressure from its actors'
        /// mailboxes): deliveries wait in `pending`, in order, and are sent again from the next ``tick()`` on.
        var backlogged = false
        /// How many times its connection was found full, and when that was last logged (at most one line per
        /// ``SupervisorCore/backlogLogInterval``).
        var backlogs = 0
        var backlogLogged: ContinuousClock.Instant?
        var everConnected = false
        /// Registrations from distinct processes (the welcome's `incarnation`).
        var incarnation: UInt32 = 0
        /// Given up on by its restart policy (`hostFailed`): commands for its controllers are refused until it
        /// registers again.
        var failed: String?
        /// The verbs its custom kinds expose, by kind, as its last Hello said; `nil` before it registered with this
        /// supervisor.
        var verbs: [String: [String]]?
        /// The questions its kinds' code answers, by kind, as its last Hello said.
        var questions: [String: Set<Question.Name>] = [:]
    }

    struct TransitionTimer {
        var deadline: ContinuousClock.Instant
        var transition: RunningTransition
    }

    /// A message waiting for the journal records before it to be durable (see ``take()``).
    enum Outgoing {
        /// An event: topic and body, for the PUB.
        case publish(topic: [UInt8], body: [UInt8])
        /// A message to a peer of the ROUTER; a delivery says what it carries, kept again if it cannot go.
        case send(peer: [UInt8], body: [UInt8], delivery: HostDelivery?)
        /// A heartbeat on the idle PUB (topic `heartbeat`): nothing journaled stands behind it.
        case heartbeat([UInt8])
    }

    /// What a message to a host carries that must not be lost if it cannot go: callbacks, or the welcome that
    /// restores its actors.
    struct HostDelivery {
        var host: String
        var events: [[UInt8]]
        var restores = false
    }

    struct ForwardedInspect {
        var client: [UInt8]
        var requestID: UInt64
        var host: [UInt8]
        var controller: ControllerID
        var deadline: ContinuousClock.Instant
    }

    let config: RuntimeConfig
    var logger: Logger
    let clock: any SupervisorClock

    var state = ContainmentState()
    var seq: UInt64 = 0
    var nextCommandID: UInt64 = 1
    var hosts: [String: HostRecord] = [:]
    /// What it counts (``SupervisorMetrics``): commands accepted and rejected, request sizes, the state's gauges.
    var metrics = SupervisorMetrics()
    /// The hosts whose `failed` is set: commands for their controllers are refused (usually none, so a command's check
    /// costs nothing).
    var failedHosts: Set<String> = []
    var hostNames: [[UInt8]: String] = [:]
    var hostOf = IDTable<ControllerID, String>()
    /// How many controllers each host runs.
    var hostLoad: [String: Int] = [:]
    var timers: [TransitionTimer] = []
    var inspects: [UInt64: ForwardedInspect] = [:]
    var nextForwardID: UInt64 = 1
    /// The latest refusals since this supervisor started, oldest first, for `status` (at most `refusalsKept`).
    var refusals: [Containment_V1_Refusal] = []
    static let refusalsKept = 10
    /// Connections to the event socket now, as the loop's socket monitor counts them (`status`).
    var subscribers = 0
    /// The metrics as Prometheus text, when they are kept (`metricsPort`): the answer to a `metrics` request.
    var metricsText: (@Sendable () -> [UInt8])?
    /// Journal records produced since the last ``take()``, in order.
    var records: [[UInt8]] = []
    /// Events and messages produced since the last ``take()``, in the order they are to go out.
    var outbox: [Outgoing] = []
    /// The buffers of the last step carried out (``recycle(_:)``), emptied: the next ``take()`` hands them to
    /// `records` and `outbox`, so a step's lists are not allocated again at every step.
    private var spare = SupervisorStep(records: [], outgoing: [])
    /// Messages handled before the outbox is flushed while more are waiting.
    static let batchLimit = 128
    /// How often deliveries waiting for a backlogged host are tried again.
    static let backlogRetry: Duration = .milliseconds(10)
    /// A host found backlogged again and again is logged once per this interval.
    static let backlogLogInterval: Duration = .seconds(10)

    /// The supervisor's epoch: one more than the journal's last start, journaled before anything is served.
    let epoch: UInt64
    /// When this supervisor process began (`containment status`'s uptime).
    let startedUnixNanos: Int64
    /// Exactly once: the answers remembered per client id.
    var clients: ClientReplies
    /// Whether the journal held a state at start (else the topology is applied).
    let recoveredState: Bool
    /// When an event (or a heartbeat) was last handed out for the PUB.
    var lastPublished: ContinuousClock.Instant
    /// The recovered journal's last deliveries, for hosts re-registering after a restart.
    var recoveredDeliveries: RecoveredDeliveries
    /// Resends answered from ``clients`` instead of applied.
    var resends = 0
    /// Typed method calls whose answers wait for their method's outcome.
    var calls = PendingCalls()
    /// The command waiting for controllers' code to answer its questions, and those behind it (SPEC §15).
    var answers = AnswerWaits()
    /// Warnings about bad input, rate-limited per peer.
    var warnings = WarningLimiter()
    /// When deliveries waiting for backlogged hosts may be tried again.
    var nextBacklogRetry: ContinuousClock.Instant
    /// When time last passed for the core (``tick()``): a longer gap than the loop ever sleeps means the supervisor
    /// itself was held up (stopped, starved of CPU, busy with a long step), which is no evidence against its hosts.
    var lastTick: ContinuousClock.Instant

    /// Goes on from what recovery found in the journal: the first record it produces is the start of the new epoch.
    init(recovery: Recovery, config: RuntimeConfig, clock: any SupervisorClock, logger: Logger) {
        self.config = config
        self.logger = logger
        self.clock = clock
        state = recovery.replay.state
        state.animationDuration = Double(config.animationDuration.milliseconds) / 1_000
        seq = recovery.replay.lastSeq
        nextCommandID = recovery.replay.lastCommandID + 1
        let epoch = recovery.replay.epoch + 1
        self.epoch = epoch
        startedUnixNanos = clock.unixNanos
        clients = recovery.clients
        recoveredDeliveries = recovery.deliveries
        recoveredState = recovery.holdsState
        lastPublished = clock.now
        nextBacklogRetry = clock.now
        lastTick = clock.now
        records.append(
            Containment_V1_JournalRecord.with {
                $0.epoch = epoch
                $0.timeUnixNanos = clock.unixNanos
            }.bytes
        )
        // Hosts that registered before: a new process of one is restored, the same process is not.
        for (name, registration) in recovery.registrations {
            var record = HostRecord(name: name, lastSeen: clock.now)
            record.pid = registration.pid
            record.incarnation = registration.incarnation
            record.everConnected = true
            hosts[name] = record
        }
        for (id, host) in recovery.replay.hostOf.sorted(by: { $0.key < $1.key }) {
            assign(id, to: host)
            if hosts[host] == nil { hosts[host] = HostRecord(name: host, lastSeen: clock.now) }
        }
        resumeTransitions()
    }

    /// Applies a topology at start, as the commands it stands for — unless the journal already holds a state (the
    /// topology's commands are in it): then only its hosts are expected.
    mutating func apply(_ topology: Topology) throws {
        expect(hosts: topology.hosts)
        guard !recoveredState else {
            logger.info("the journal holds the state: the topology's commands are not applied again")
            return
        }
        try topology.checkLimits(config)
        // One transaction: all of it or none of it. A refused one leaves only its rejection in the journal (no state),
        // so the next start on this run directory applies its topology afresh.
        let commands = topology.commands()
        guard !commands.isEmpty else { return }
        if let error = submit(commands, from: nil) {
            throw Topology.refusal(index: error.index, of: commands, error.error)
        }
    }

    /// Hosts that may register (`acceptUnknownHosts` aside): known, down until they say hello.
    mutating func expect(hosts names: [String]) {
        for host in names where hosts[host] == nil {
            hosts[host] = HostRecord(name: host, lastSeen: clock.now)
        }
    }

    /// What the passing of time does: transitions that ran their duration complete, silent hosts are declared down,
    /// unanswered inspects time out, and an idle PUB gets a heartbeat.
    mutating func tick() {
        fireTimers()
        resumeAnswered()
        creditStall()
        checkHeartbeats()
        expireInspects()
        retryBacklogged()
        beacon()
    }

    /// On an idle PUB, a heartbeat with the epoch and the latest seq, so subscribers notice a restart, a gap or
    /// silence within a heartbeat interval.
    private mutating func beacon() {
        let now = clock.now
        guard now - lastPublished >= config.heartbeatInterval, !outbox.contains(where: \.isPublication) else { return }
        lastPublished = now
        let beat = Containment_V1_EventHeartbeat.with {
            $0.epoch = epoch
            $0.seq = seq
            $0.timeUnixNanos = clock.unixNanos
        }
        outbox.append(.heartbeat(beat.bytes))
    }

    /// How long the loop may sleep: until the next transition completes or the next heartbeat check.
    mutating func nextWakeUp() -> Duration {
        var wait = config.heartbeatInterval
        let now = clock.now
        for timer in timers { wait = min(wait, max(.zero, timer.deadline - now)) }
        for inspect in inspects.values { wait = min(wait, max(.zero, inspect.deadline - now)) }
        if let due = answers.nextDue(now: now) { wait = min(wait, max(.zero, due - now)) }
        // A backlogged host's deliveries are tried again soon.
        if hosts.values.contains(where: \.backlogged) { wait = min(wait, max(.zero, nextBacklogRetry - now)) }
        return wait
    }

    /// Handles one message of the command socket: the sender's routing id, then the message. `role`: with CURVE, what
    /// the sender's key was admitted as (SPEC §14, Isolation); `nil` without CURVE.
    mutating func receive(_ frames: [[UInt8]], role: CurveSettings.Role? = nil) {
        guard let sender = frames.first else { return }
        guard frames.count == 2 else {
            warn(
                sender,
                "dropped a message of more than one frame",
                metadata: ["message.frames": "\(frames.count - 1)"]
            )
            reply(
                to: sender,
                requestID: 0,
                .error(.init(.malformed("A request is exactly one frame; got \(frames.count - 1).")))
            )
            return
        }
        if let batch = ClientMessage.decodeBatch(frames[1]) {
            // A text is no longer than the command holding it: a batch of short commands is not measured.
            var longestPart = batch.clientID.utf8.count
            for command in batch.encoded where command.count > longestPart { longestPart = command.count }
            if let error = exceedsLimits(batch.commands, clientID: batch.clientID, bytes: longestPart)
                ?? refusal(ofCommandsFrom: sender, role: role)
            {
                reply(to: sender, requestID: batch.requestID, .error(.init(error)))
                return
            }
            command(
                batch.commands,
                encoded: batch.encoded,
                from: sender,
                requestID: batch.requestID,
                clientID: batch.clientID
            )
            return
        }
        let message: ClientMessage
        do {
            message = try ClientMessage.decode(frames[1])
        } catch {
            warn(sender, "dropped an undecodable request", metadata: ["error.message": "\(error.message)"])
            reply(to: sender, requestID: 0, .error(.init(error)))
            return
        }
        let commands: [WireCommand] = if case .commands(let batch) = message.body { batch.commands } else { [] }
        if let error = exceedsLimits(commands, clientID: "", whole: message, bytes: frames[1].count)
            ?? refusal(of: message.body, from: sender, role: role)
        {
            reply(to: sender, requestID: message.requestID, .error(.init(error)))
            return
        }
        switch message.body {
        case .commands(let batch):
            command(batch.commands, from: sender, requestID: message.requestID, clientID: message.clientID)
        case .snapshot:
            reply(to: sender, requestID: message.requestID, .snapshot(snapshot()))
        case .hello(let hello):
            welcome(hello, from: sender, requestID: message.requestID)
        case .heartbeat(let heartbeat):
            beat(heartbeat.host, from: sender)
        case .goodbye(let goodbye):
            hostLeft(goodbye.host, from: sender)
        case .inspect(let request):
            forwardInspect(request, from: sender, requestID: message.requestID)
        case .inspectReply(let inspected):
            relayInspect(inspected, requestID: message.requestID, from: sender)
        case .callResult(let result):
            callAnswered(result, from: sender)
        case .answer(let answer):
            answered(answer, from: sender)
        case .metrics:
            if let metricsText {
                reply(to: sender, requestID: message.requestID, .metrics(.with { $0.text = Data(metricsText()) }))
            } else {
                let error = ContainmentError(
                    .notConfigured,
                    "This supervisor keeps no metrics: set metricsPort in runtime.yaml (and restart it)."
                )
                reply(to: sender, requestID: message.requestID, .error(.init(error)))
            }
        case nil:
            reply(to: sender, requestID: message.requestID, .error(.init(.malformed("The request has no body."))))
        }
    }

    /// The limit a request breaks (`maxBatch`, `maxTextBytes`), as the error to answer — naming the limit, never
    /// echoing the input; `nil` within them. `whole`: the decoded request, all of whose texts are measured; `bytes`:
    /// a bound on its texts' length, its size or its longest part's (a request no longer than `maxTextBytes` cannot
    /// hold a longer text, so its texts are not measured).
    func exceedsLimits(
        _ commands: [WireCommand],
        clientID: String,
        whole: ClientMessage? = nil,
        bytes: Int
    ) -> ContainmentError? {
        if commands.count > config.maxBatch {
            return ContainmentError(
                .limitExceeded,
                "The request holds \(commands.count) commands; at most \(config.maxBatch) (maxBatch) are taken in one."
            )
        }
        guard bytes > config.maxTextBytes else { return nil }
        var longest = clientID.utf8.count
        if let whole {
            longest = max(longest, LongestText.of(whole))
        } else {
            for command in commands { longest = max(longest, LongestText.of(command)) }
        }
        guard longest <= config.maxTextBytes else {
            return ContainmentError(
                .limitExceeded,
                "A text of the request (an id, a name or a title) is \(longest) bytes long; at most "
                    + "\(config.maxTextBytes) (maxTextBytes) are taken."
            )
        }
        return nil
    }

    /// What a peer's role does not allow it (`nil`: allowed, or no CURVE): an observer only reads (snapshots,
    /// inspects, events); a host's key registers that host only, and acts only once registered, as its controllers;
    /// an operator acts as any party but registers no host.
    func refusal(
        of body: ClientMessage.OneOf_Body?,
        from sender: [UInt8],
        role: CurveSettings.Role?
    )
        -> ContainmentError?
    {
        guard let role else { return nil }
        switch body {
        case .snapshot, .inspect, .metrics, nil:
            return nil
        case .commands:
            return refusal(ofCommandsFrom: sender, role: role)
        case .hello(let hello):
            guard case .host(let name) = role else {
                return ContainmentError(.unauthorized, "Only a host's key registers a host; this one is \(role.name).")
            }
            guard hello.host == name else {
                return ContainmentError(.unauthorized, "This key registers host \(name) only.")
            }
            return nil
        case .heartbeat(let beat):
            return role == .host(beat.host)
                ? nil : ContainmentError(.unauthorized, "Only host \(beat.host)'s key beats for it.")
        case .goodbye(let goodbye):
            return role == .host(goodbye.host)
                ? nil : ContainmentError(.unauthorized, "Only host \(goodbye.host)'s key says its goodbye.")
        case .inspectReply:
            guard case .host = role else { return ContainmentError(.unauthorized, "Only a host answers an inspect.") }
            return nil
        case .answer:
            guard case .host = role else { return ContainmentError(.unauthorized, "Only a host answers a question.") }
            return nil
        case .callResult:
            guard case .host = role else { return ContainmentError(.unauthorized, "Only a host answers a call.") }
            return nil
        }
    }

    /// Commands from a peer of `role`: an operator's are taken; a host's only on the connection it registered on
    /// (then as its own controllers, ``submit(_:from:requestID:clientID:)``); an observer's never.
    func refusal(ofCommandsFrom sender: [UInt8], role: CurveSettings.Role?) -> ContainmentError? {
        switch role {
        case nil, .operator?: return nil
        case .observer?: return ContainmentError(.unauthorized, "An observer reads; it does not act.")
        case .host(let name)?:
            return hostNames[sender] == name
                ? nil : ContainmentError(.unauthorized, "Host \(name)'s key acts only once that host is registered.")
        }
    }

    /// A warning about a peer's bad input: at most one line per peer per second, with how many were held back.
    mutating func warn(_ peer: [UInt8], _ message: Logger.Message, metadata more: Logger.Metadata = [:]) {
        guard let held = warnings.allow(peer, at: clock.now) else { return }
        var metadata = more
        metadata["peer.id"] = "\(peer.prefix(8).map { String($0, radix: 16) }.joined())"
        if held > 0 { metadata["peer.held_back_count"] = "\(held)" }
        logger.warning(message, metadata: metadata)
    }

    /// A request of commands: answered again if it is a resend (same client id and request id), else submitted.
    /// `encoded`: each command's bytes as received, when the request was read by ``ClientMessage/decodeBatch(_:)``.
    private mutating func command(
        _ commands: [WireCommand],
        encoded: [ArraySlice<UInt8>]? = nil,
        from sender: [UInt8],
        requestID: UInt64,
        clientID: String
    ) {
        if !clientID.isEmpty, let answer = clients.answer(client: clientID, requestID: requestID) {
            resends += 1
            outbox.append(.send(peer: sender, body: answer, delivery: nil))
            return
        }
        // A call's resend while its method runs: answered once it ends, on the connection the resend came from.
        if calls.count > 0, calls.resent(client: clientID, requestID: requestID, from: sender) {
            resends += 1
            return
        }
        // Likewise a resend of a command waiting for answers, or queued behind one.
        if !answers.isEmpty, answers.resent(client: clientID, requestID: requestID, from: sender) {
            resends += 1
            return
        }
        submit(commands, encoded: encoded, from: sender, requestID: requestID, clientID: clientID)
    }

    /// The whole state now.
    mutating func snapshot() -> WireSnapshot {
        var snapshot = WireSnapshot(
            state: state,
            seq: seq,
            hosts: hosts.values.map { record in
                .with {
                    $0.name = record.name
                    $0.pid = record.pid
                    $0.up = record.up
                    $0.failed = record.failed ?? ""
                    $0.incarnation = record.incarnation
                    $0.controllers = UInt32(clamping: hostLoad[record.name] ?? 0)
                    $0.pending = UInt32(clamping: record.pending.count)
                }
            },
            hostOf: { self.hostOf[$0] ?? "" }
        )
        snapshot.epoch = epoch
        snapshot.startedUnixNanos = startedUnixNanos
        snapshot.waiting = UInt32(clamping: answers.waitingCount)
        snapshot.subscribers = UInt32(clamping: subscribers)
        snapshot.refusals = refusals
        return snapshot
    }

    /// Keeps a refusal for `status`.
    mutating func noteRefusal(code: String, message: String, seq: UInt64) {
        let time = clock.unixNanos
        refusals.append(
            .with {
                $0.seq = seq
                $0.timeUnixNanos = time
                $0.code = code
                $0.message = message
            }
        )
        if refusals.count > Self.refusalsKept { refusals.removeFirst(refusals.count - Self.refusalsKept) }
    }

    // MARK: Sending

    mutating func reply(to peer: [UInt8], requestID: UInt64, _ body: ServerMessage.OneOf_Body) {
        // A refusal before the rules (a rule violation is noted where its event is published).
        if case .error(let error) = body, error.seq == 0 {
            noteRefusal(code: error.code, message: error.message, seq: 0)
        }
        let message = ServerMessage.with {
            $0.requestID = requestID
            $0.body = body
        }
        send(message, to: peer)
    }

    /// Queues a message to a peer of the ROUTER (handed out by the next ``take()``).
    mutating func send(_ message: ServerMessage, to peer: [UInt8]) {
        outbox.append(.send(peer: peer, body: message.bytes, delivery: nil))
    }

    /// Stamps an event with the next sequence number and queues it for publication (by the next ``take()``); returns
    /// its serialized form, from which replies and deliveries carrying it are assembled (``PreEncoded``).
    @discardableResult
    mutating func publish(_ event: Event, commandID: UInt64, time: Int64) -> [UInt8] {
        seq += 1
        var host = ""
        if case .controllerCreated(let id, _) = event { host = hostOf[id] ?? "" }
        let body = PreEncoded.event(
            event,
            seq: seq,
            timeUnixNanos: time,
            commandID: commandID,
            host: host,
            epoch: epoch
        )
        outbox.append(.publish(topic: PreEncoded.topic(of: event), body: body))
        return body
    }

    /// What to do now, handed over and forgotten: the journal records first — nothing in `outgoing` may go out
    /// before every record is durable (SPEC §14, journal first) — then the events and messages, in order.
    mutating func take() -> SupervisorStep {
        let step = SupervisorStep(records: records, outgoing: outbox)
        metrics.outbox.record(outbox.count)
        metrics.observe(controllers: state.controllers.count, hosts: hosts)
        records = spare.records
        outbox = spare.outgoing
        spare = SupervisorStep(records: [], outgoing: [])
        if step.outgoing.contains(where: \.isPublication) { lastPublished = clock.now }
        return step
    }

    /// Takes back a step ``take()`` handed out, once carried out: its lists, emptied, are the next step's (keeping
    /// their capacity, so a busy supervisor does not allocate them anew every step).
    mutating func recycle(_ step: consuming SupervisorStep) {
        step.records.removeAll(keepingCapacity: true)
        step.outgoing.removeAll(keepingCapacity: true)
        spare = step
    }

    /// A delivery the loop could not hand to its host (gone, as libzmq reports): kept for the host's return.
    mutating func undelivered(_ delivery: HostDelivery) {
        keepPending(delivery.events, for: delivery.host)
        if delivery.restores { hosts[delivery.host]?.stale = true }
    }

    /// A delivery the loop could not hand to its host because its connection is full (the host is slow): the host is
    /// backlogged, and this and every later delivery to it wait in order until the connection takes them.
    mutating func congested(_ delivery: HostDelivery) {
        guard let record = hosts[delivery.host] else { return }
        if !record.backlogged {
            hosts[delivery.host]?.backlogged = true
            hosts[delivery.host]?.backlogs += 1
            let now = clock.now
            if record.backlogLogged.map({ now - $0 >= Self.backlogLogInterval }) ?? true {
                hosts[delivery.host]?.backlogLogged = now
                logger.info(
                    "a host takes its deliveries slower than they come: they wait",
                    metadata: ["host.name": "\(delivery.host)", "host.backlog_count": "\(record.backlogs + 1)"]
                )
            }
        }
        undelivered(delivery)
    }

    /// Whether deliveries to `host` wait (see ``congested(_:)``): the loop keeps them without trying to send them.
    func isBacklogged(_ host: String) -> Bool { hosts[host]?.backlogged == true }

    /// Backlogged hosts that are connected get what waits for them again, in one delivery — or, when more waited than
    /// are kept, the welcome that restores their actors.
    mutating func retryBacklogged() {
        // At most every `backlogRetry`: what waits is assembled into one message per try.
        let now = clock.now
        guard now >= nextBacklogRetry else { return }
        nextBacklogRetry = now + Self.backlogRetry
        for name in hosts.keys.sorted() where hosts[name]?.backlogged == true {
            guard let record = hosts[name], record.up, let peer = record.routingID else { continue }
            hosts[name]?.backlogged = false
            hosts[name]?.pending = []
            hosts[name]?.stale = false
            catchUp(name, on: peer, pending: record.pending, stale: record.stale)
        }
    }

    /// Keeps callbacks for a host's return, at most `pendingDeliveries` of them: past that they are all dropped and
    /// the host is stale (SPEC §14: bounded; it is brought up to date with `restored` when it returns).
    mutating func keepPending(_ events: [[UInt8]], for host: String) {
        guard let record = hosts[host], !record.stale, !events.isEmpty else { return }
        guard record.pending.count + events.count > config.pendingDeliveries else {
            hosts[host]?.pending.append(contentsOf: events)  // in place: no copy of what is kept
            return
        }
        hosts[host]?.pending = []
        hosts[host]?.stale = true
        logger.warning(
            """
            more callbacks are due to a host that is away or slow than are kept: they are dropped, and its actors will be \
            restored from their controllers' state when it returns
            """,
            metadata: ["host.name": "\(host)", "delivery.pending_limit": "\(config.pendingDeliveries)"]
        )
    }

    /// A message could not reach `peer`: its connection is gone (libzmq dropped the routing id; a host killed with
    /// SIGKILL, say). A host on that connection is down at once, and the inspects forwarded to it are answered
    /// `hostUnavailable` now instead of after their timeout.
    mutating func unreachable(_ peer: [UInt8]) {
        for (id, pending) in inspects where pending.host == peer {
            inspects[id] = nil
            reply(
                to: pending.client,
                requestID: pending.requestID,
                .error(
                    .init(
                        ContainmentError(
                            .hostUnavailable,
                            "The host running \(pending.controller) is gone (its connection closed)."
                        )
                    )
                )
            )
        }
        guard let name = hostNames[peer] else { return }
        hostNames[peer] = nil
        hosts[name]?.routingID = nil
        markDown(name, reason: "its connection is gone")
    }

    /// Whether a step is waiting to be taken.
    var hasOutput: Bool { !records.isEmpty || !outbox.isEmpty }

    /// Deliveries to `host` not handed out yet go back to its pending ones (it is down, or registers on another
    /// connection): the deliveries handed out before were sent or given back (``undelivered(_:to:)``), so pending then
    /// these is their order.
    mutating func withdrawDeliveries(to host: String) {
        var withdrawn: [[UInt8]] = []
        var restores = false
        outbox.removeAll { message in
            guard case .send(_, _, let delivery?) = message, delivery.host == host else { return false }
            withdrawn.append(contentsOf: delivery.events)
            restores = restores || delivery.restores
            return true
        }
        keepPending(withdrawn, for: host)
        if restores { hosts[host]?.stale = true }
    }
}

/// What the core hands the loop: journal records to make durable, then what may go out.
struct SupervisorStep {
    var records: [[UInt8]]
    var outgoing: [SupervisorCore.Outgoing]
}

extension SupervisorCore.Outgoing {
    /// An event or a heartbeat on the PUB.
    var isPublication: Bool {
        switch self {
        case .publish, .heartbeat: true
        case .send: false
        }
    }
}
