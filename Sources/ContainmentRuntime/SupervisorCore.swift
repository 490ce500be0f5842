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

    let config: RuntimeConfig
    /// What a request may not do, whatever the rules say: its limits, its sender's role.
    let admission: Admission
    let clock: any SupervisorClock

    var state = ContainmentState()
    var seq: UInt64 = 0
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
    /// The latest refusals since this supervisor started, oldest first, for `status` (at most `refusalsKept`).
    var refusals: [BusSnapshot.Refusal] = []
    static let refusalsKept = 10
    /// Connections to the event socket now, as the loop's socket monitor counts them (`status`).
    var subscribers = 0
    /// The metrics as Prometheus text, when they are kept (`metricsPort`): the answer to a `metrics` request.
    var metricsText: (@Sendable () -> [UInt8])?
    /// The step being built: journal records, then what may go out once they are durable.
    var output = SupervisorOutbox()
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
    init(recovery: Recovery, config: RuntimeConfig, clock: any SupervisorClock) {
        self.config = config
        admission = Admission(maxBatch: config.maxBatch, maxTextBytes: config.maxTextBytes)
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
        output.journal(JournalRecords.start(epoch: epoch, timeUnixNanos: clock.unixNanos))
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
        scheduleTransitions()
    }

    /// Applies a topology at start, as the commands it stands for — unless the journal already holds a state (the
    /// topology's commands are in it): then only its hosts are expected.
    mutating func apply(_ topology: Topology) throws {
        expect(hosts: topology.hosts)
        guard !recoveredState else {
            output.log(.info, "the journal holds the state: the topology's commands are not applied again")
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
        guard now - lastPublished >= config.heartbeatInterval, !output.holdsPublication else { return }
        lastPublished = now
        output.append(.heartbeat(Publication.heartbeatBody(epoch: epoch, seq: seq, timeUnixNanos: clock.unixNanos)))
    }

    /// How long the loop may sleep: until the next transition completes or the next heartbeat check.
    mutating func nextWakeUp() -> Duration {
        var wait = config.heartbeatInterval
        let now = clock.now
        if let deadline = timers.nextDeadline { wait = min(wait, max(.zero, deadline - now)) }
        if let deadline = inspects.nextDeadline { wait = min(wait, max(.zero, deadline - now)) }
        if let due = answers.nextDue(now: now) { wait = min(wait, max(.zero, due - now)) }
        // A backlogged host's deliveries are tried again soon.
        if hosts.values.contains(where: \.backlogged) { wait = min(wait, max(.zero, nextBacklogRetry - now)) }
        return wait
    }
}
