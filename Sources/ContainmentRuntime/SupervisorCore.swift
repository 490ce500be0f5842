import ContainmentConfig
import ContainmentBus
import ContainmentModel
import Foundation
import Logging

/// The supervisor's core (DESIGN.md): the single sequencer of mutations, a value without I/O. It owns the
/// authoritative model state; it is given each input with the time (``handle(_:at:)``) and the passing of time
/// (``tick(at:)``), and returns what to do as values (``SupervisorAction``): journal records, and the events, replies
/// and deliveries that may go out only once those records are durable. ``SupervisorLoop`` does the I/O; a simulated
/// world or a test can run the same core without any.
///
/// Each command is validated by the model, journaled, its events published with gap-free sequence numbers, its
/// callbacks delivered to the hosts that run the controllers, and answered. The loop copies it for a checkpoint at the
/// cost of a few reference counts.
package struct SupervisorCore {
    let config: RuntimeConfig
    /// What a request may not do, whatever the rules say: its limits, its sender's role.
    let admission: Admission
    /// The time of the input being handled (``handle(_:at:)``, ``tick(at:)``).
    var time: SupervisorTime

    package var state = ContainmentState()
    package var seq: UInt64 = 0
    var nextCommandID: UInt64 = 1
    var hosts: [String: HostRecord] = [:]
    /// The hosts whose `failed` is set: commands for their controllers are refused (usually none, so a command's check
    /// costs nothing).
    var failedHosts: Set<String> = []
    var hostNames: [[UInt8]: String] = [:]
    /// Which host runs each controller.
    var placement = Placement()
    var hostOf: IDTable<ControllerID, String> { placement.hostOf }
    /// Timed transitions, completed when due.
    var timers = TransitionTimers()
    /// Inspects forwarded to the hosts that run their controllers, until answered.
    var inspects = InspectForwarding()
    /// Traced commands' spans, and trace requests waiting for hosts (docs/PROTOCOL.md, "Tracing").
    var tracing: SupervisorTracing
    /// The latest refusals since this supervisor started, oldest first, for `status` (at most `refusalsKept`).
    var refusals: [BusSnapshot.Refusal] = []
    /// The last snapshot handed out, and what it was built from (``sharedSnapshot()``).
    var lastSnapshot: (key: SnapshotKey, shared: SharedSnapshot)?
    static let refusalsKept = 10
    /// Connections to the event socket now, as the loop's socket monitor counts them (`status`).
    var subscribers = 0
    /// Whether the loop keeps metrics (`metricsPort`): a `metrics` request is then its to answer, and the step tells
    /// what its requests came to (``tally(_:)``).
    var keepsMetrics = false
    /// What the input being handled decided so far, returned by ``handle(_:at:)`` and ``tick(at:)``.
    private var emitted = SupervisorStep()
    /// Deliveries returned since the loop last took its step to carry it out (``stepTaken()``): those a host's return
    /// or loss takes back (``withdrawDeliveries(to:)``) before they went.
    private var handedOut: [OutgoingDelivery] = []
    /// How often deliveries waiting for a backlogged host are tried again.
    static let backlogRetry: Duration = .milliseconds(10)
    /// A host found backlogged again and again is logged once per this interval.
    static let backlogLogInterval: Duration = .seconds(10)

    /// The supervisor's epoch: one more than the journal's last start, journaled before anything is served.
    package let epoch: UInt64
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
    /// Peers whose unread replies wait past half their budget, with the bytes then (``ReplyQueues``); the bytes built
    /// for each peer in the step being gathered (none of it sent yet); warnings about peers that do not read.
    var backedUp: [[UInt8]: Int] = [:]
    var builtThisStep: [[UInt8]: Int] = [:]
    var replyWarnings = WarningLimiter(interval: .seconds(10))
    /// When deliveries waiting for backlogged hosts may be tried again.
    var nextBacklogRetry: ContinuousClock.Instant
    /// When time last passed for the core (``tick(at:)``): a longer gap than the loop ever sleeps means the supervisor
    /// itself was held up (stopped, starved of CPU, busy with a long step), which is no evidence against its hosts.
    var lastTick: ContinuousClock.Instant

    /// Goes on from what recovery found in the journal, at `time`; ``begin()`` gives the first record: the start of
    /// the new epoch.
    package init(recovery: Recovery, config: RuntimeConfig, at time: SupervisorTime) {
        self.config = config
        admission = Admission(maxBatch: config.maxBatch, maxTextBytes: config.maxTextBytes)
        self.time = time
        state = recovery.replay.state
        config.configure(&state)
        seq = recovery.replay.lastSeq
        nextCommandID = recovery.replay.lastCommandID + 1
        let epoch = recovery.replay.epoch + 1
        self.epoch = epoch
        startedUnixNanos = time.unixNanos
        tracing = SupervisorTracing(seed: UInt64(bitPattern: time.unixNanos) ^ epoch)
        clients = recovery.clients
        recoveredDeliveries = recovery.deliveries
        recoveredState = recovery.holdsState
        lastPublished = time.now
        nextBacklogRetry = time.now
        lastTick = time.now
        // Hosts that registered before: a new process of one is restored, the same process is not.
        for (name, registration) in recovery.registrations {
            var record = HostRecord(name: name, lastSeen: time.now)
            record.pid = registration.pid
            record.incarnation = registration.incarnation
            record.everConnected = true
            // Its process may well be alive and about to greet this supervisor: within a heartbeat timeout, it is.
            record.expectedUntil = time.now + config.heartbeatTimeout
            hosts[name] = record
        }
        for (id, host) in recovery.replay.hostOf.sorted(by: { $0.key < $1.key }) {
            assign(id, to: host)
            if hosts[host] == nil {
                // A host that never registered, though the journal places controllers on it: the callbacks they were
                // owed waited in the previous supervisor's memory and went with it, so its actors begin from the
                // state when it comes (found by `simulate --replicated`: a leader that created a topology's
                // controllers died before their host greeted it; seed 4, 3 s, a fault every 500 ms).
                var record = HostRecord(name: host, lastSeen: time.now)
                record.stale = true
                hosts[host] = record
            }
        }
        scheduleTransitions()
    }

    /// The first record of the new epoch, to be journaled before anything is served.
    package func begin() -> [SupervisorAction] {
        [.journal(.start(epoch: epoch, timeUnixNanos: time.unixNanos))]
    }

    /// Applies a topology at start, as the commands it stands for — unless the journal already holds a state (the
    /// topology's commands are in it): then only its hosts are expected. The actions are to be carried out even when it
    /// is refused: the refusal's record is among them.
    package mutating func apply(
        _ topology: Topology,
        at time: SupervisorTime
    ) -> (actions: [SupervisorAction], refusal: (any Error)?) {
        self.time = time
        expect(hosts: topology.hosts)
        guard !recoveredState else {
            log(.info, "the journal holds the state: the topology's commands are not applied again")
            return (takeEmitted(), nil)
        }
        do {
            try topology.checkLimits(config)
        } catch {
            return (takeEmitted(), error)
        }
        // One transaction: all of it or none of it. A refused one leaves only its rejection in the journal (no state),
        // so the next start on this run directory applies its topology afresh.
        let commands = topology.commands()
        guard !commands.isEmpty else { return (takeEmitted(), nil) }
        if let error = submit(commands, from: nil) {
            return (takeEmitted(), Topology.refusal(index: error.index, of: commands, error.error))
        }
        return (takeEmitted(), nil)
    }

    /// Hosts that may register (`acceptUnknownHosts` aside): known, down until they say hello.
    package mutating func expect(hosts names: [String]) {
        for host in names where hosts[host] == nil {
            hosts[host] = HostRecord(name: host, lastSeen: time.now)
        }
    }

    /// What the passing of time does: transitions that ran their duration complete, silent hosts are declared down,
    /// unanswered inspects time out, and an idle PUB gets a heartbeat.
    package mutating func tick(at time: SupervisorTime) -> [SupervisorAction] {
        var step = SupervisorStep()
        tick(at: time, into: &step)
        return step.actions
    }

    /// ``tick(at:)``, its actions appended to `step`.
    package mutating func tick(at time: SupervisorTime, into step: inout SupervisorStep) {
        emitting(into: &step) { core in
            core.time = time
            core.fireTimers()
            core.resumeAnswered()
            core.creditStall()
            core.checkHeartbeats()
            core.expireInspects()
            core.expireTraces()
            core.retryBacklogged()
            core.beacon()
        }
    }

    /// Runs `body` with `step`'s actions as those it emits to, so each is appended where it ends once.
    mutating func emitting(into step: inout SupervisorStep, _ body: (inout SupervisorCore) -> Void) {
        swap(&emitted, &step)
        body(&self)
        swap(&emitted, &step)
    }

    /// Adds an action to those the input being handled returns.
    mutating func emit(_ action: SupervisorAction) {
        if case .deliver(_, let delivery) = action { handedOut.append(delivery) }
        emitted.append(action)
    }

    /// What a request came to, for the metrics — only when they are kept (``keepsMetrics``): otherwise it would cost
    /// every request two actions for nobody.
    mutating func tally(_ count: SupervisorCount) {
        if keepsMetrics { emitted.append(.count(count)) }
    }

    /// A line for the log: the core decides what is worth saying, the loop says it.
    mutating func log(_ level: Logger.Level, _ message: Logger.Message, _ metadata: Logger.Metadata = [:]) {
        emitted.append(.log(SupervisorLog(level: level, message: message, metadata: metadata)))
    }

    /// How many actions the input being handled emitted so far.
    var emittedCount: Int { emitted.actions.count }

    /// The id of the command whose actions were emitted from `since` on: its first event's, or its reply's to `peer`.
    func commandID(emittedSince since: Int, to peer: [UInt8], requestID: UInt64) -> UInt64 {
        for action in emitted.actions[min(since, emitted.actions.count)...] {
            switch action {
            case .publish(let event): return event.commandID
            case .reply(peer, requestID, .accepted(let commandID, _, _)): return commandID
            case .reply(peer, requestID, .message(let message)): return message.refusal?.commandID ?? 0
            default: continue
            }
        }
        return 0
    }

    /// What the input being handled decided, handed over and forgotten.
    mutating func takeEmitted() -> [SupervisorAction] {
        defer { emitted = SupervisorStep() }
        return emitted.actions
    }

    /// The loop is carrying out every action returned so far: none can be taken back any more (one that cannot go
    /// comes back as an input).
    package mutating func stepTaken() {
        handedOut.removeAll(keepingCapacity: true)
        if !builtThisStep.isEmpty { builtThisStep.removeAll() }
    }

    /// The deliveries to `host` returned since the loop last took its step, taken back: their events in order,
    /// and whether one restored its actors. A `withdraw` tells the loop to drop them.
    mutating func takeBackDeliveries(to host: String) -> (events: [StampedEvent], restores: Bool) {
        guard handedOut.contains(where: { $0.host == host }) else { return ([], false) }
        var events: [StampedEvent] = []
        var restores = false
        handedOut.removeAll { delivery in
            guard delivery.host == host else { return false }
            events.append(contentsOf: delivery.events)
            restores = restores || delivery.restores
            return true
        }
        emitted.append(.withdraw(host: host))
        return (events, restores)
    }

    /// On an idle PUB, a heartbeat with the epoch and the latest seq, so subscribers notice a restart, a gap or
    /// silence within a heartbeat interval.
    private mutating func beacon() {
        let now = time.now
        guard now - lastPublished >= config.heartbeatInterval else { return }
        lastPublished = now
        emit(.heartbeat(epoch: epoch, seq: seq, timeUnixNanos: time.unixNanos))
    }

    /// How long the loop may sleep from `now`: until the next transition completes or the next heartbeat check.
    package func nextWakeUp(at now: ContinuousClock.Instant) -> Duration {
        var wait = config.heartbeatInterval
        if let deadline = timers.nextDeadline { wait = min(wait, max(.zero, deadline - now)) }
        if let deadline = inspects.nextDeadline { wait = min(wait, max(.zero, deadline - now)) }
        if let deadline = tracing.gathering.nextDeadline { wait = min(wait, max(.zero, deadline - now)) }
        if let due = answers.nextDue(now: now) { wait = min(wait, max(.zero, due - now)) }
        // A backlogged host's deliveries are tried again soon.
        if hosts.values.contains(where: \.backlogged) { wait = min(wait, max(.zero, nextBacklogRetry - now)) }
        return wait
    }
}

/// What a snapshot is built from besides the state, and what says the state is the same (``SupervisorCore/sharedSnapshot()``).
struct SnapshotKey: Equatable {
    var seq: UInt64
    var nextCommandID: UInt64
    var waiting: Int
    var subscribers: Int
    var refusals: [BusSnapshot.Refusal]
    var hosts: [BusSnapshot.Host]
}
