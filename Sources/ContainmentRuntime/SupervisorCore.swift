import ContainmentBus
import ContainmentModel
import Foundation
import Logging
import ZeroMQ

/// The supervisor's loop: the single sequencer of mutations. It owns the authoritative model state and every socket,
/// and runs on one thread, so nothing in it needs a lock.
///
/// Each command is validated by the model, journaled, its events published with gap-free sequence numbers, its
/// callbacks delivered to the hosts that run the controllers, and answered. Not `Sendable`: it lives on its thread.
final class SupervisorCore {
    struct HostRecord {
        var name: String
        var routingID: [UInt8]?
        var pid: Int32 = 0
        var up = false
        var lastSeen: ContinuousClock.Instant
        /// Callbacks for its controllers while it is not connected, delivered when it (re)connects.
        /// (Each serialized, as `publish` wrote it.)
        var pending: [[UInt8]] = []
        var everConnected = false
    }

    struct TransitionTimer {
        var deadline: ContinuousClock.Instant
        var transition: RunningTransition
    }

    /// A message waiting for the journal to be flushed (see ``flush()``).
    enum Outgoing {
        /// An event: topic and body, for the PUB.
        case publish(topic: [UInt8], body: [UInt8])
        /// A message to a peer of the ROUTER; a delivery names its host and events, queued again if it cannot go.
        case send(peer: [UInt8], body: [UInt8], delivery: (host: String, events: [[UInt8]])?)
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
    let router: Socket
    let publisher: Socket
    let journal: JournalWriter
    let clock = ContinuousClock()

    var state = ContainmentState()
    var seq: UInt64 = 0
    var nextCommandID: UInt64 = 1
    var hosts: [String: HostRecord] = [:]
    var hostNames: [[UInt8]: String] = [:]
    var hostOf: [ControllerID: String] = [:]
    /// How many controllers each host runs.
    var hostLoad: [String: Int] = [:]
    var timers: [TransitionTimer] = []
    var inspects: [UInt64: ForwardedInspect] = [:]
    var nextForwardID: UInt64 = 1
    /// Events and messages produced since the last ``flush()``, in the order they are to go out.
    var outbox: [Outgoing] = []
    /// Messages handled before the outbox is flushed while more are waiting.
    static let batchLimit = 128

    /// The supervisor's epoch: one more than the journal's last start, journaled before anything is served.
    let epoch: UInt64
    /// Exactly once: the answers remembered per client id.
    var clients: ClientReplies
    /// Set when the journal cannot be written: nothing more is accepted, sent or published, and the loop ends.
    var failure: JournalFailure?
    /// Whether the journal held a state at start (else the topology is applied).
    let recoveredState: Bool
    /// Writes checkpoints in the background.
    let checkpointer: Checkpointer
    /// Records the journal held at start (the checkpoint's and those replayed after it), and the record count at the
    /// last checkpoint.
    let recordsAtStart: Int
    var recordsAtCheckpoint: Int
    /// When an event (or a heartbeat) last went out on the PUB.
    var lastPublished: ContinuousClock.Instant
    /// The recovered journal's last deliveries, for hosts re-registering after a restart.
    var recoveredDeliveries: RecoveredDeliveries
    /// Resends answered from ``clients`` instead of applied.
    var resends = 0

    /// Recovers the state from the journal in the run directory, journals the new epoch, then binds the sockets.
    init(context: Context, config: RuntimeConfig, logger: Logger) throws {
        self.config = config
        self.logger = logger
        let recovery = try Recovery.run(config: config, logger: logger)
        state = recovery.replay.state
        seq = recovery.replay.lastSeq
        nextCommandID = recovery.replay.lastCommandID + 1
        let epoch = recovery.replay.epoch + 1
        self.epoch = epoch
        clients = recovery.clients
        recoveredDeliveries = recovery.deliveries
        recoveredState = recovery.holdsState
        recordsAtStart = recovery.checkpointRecords + recovery.records
        recordsAtCheckpoint = recovery.checkpointRecords
        checkpointer = Checkpointer(directory: config.journalPath, retain: config.journalRetain, logger: logger)
        lastPublished = clock.now
        journal = try JournalWriter(
            directory: config.journalPath,
            segment: recovery.segment,
            size: recovery.endOffset,
            sync: config.journalSync,
            syncInterval: config.journalSyncInterval,
            segmentBytes: config.journalSegmentBytes
        )
        try journal.append(
            serialized: Containment_V1_JournalRecord.with {
                $0.epoch = epoch
                $0.timeUnixNanos = SupervisorCore.now()
            }.bytes
        )
        try journal.flush()
        router = try context.socket(.router)
        publisher = try context.socket(.pub)
        try router.set(.routerMandatory, to: true)
        try router.set(.sendHighWaterMark, to: 0)
        try publisher.set(.sendHighWaterMark, to: 1_000_000)
        try router.bind(config.commandEndpoint)
        try publisher.bind(config.eventEndpoint)
        for (id, host) in recovery.replay.hostOf.sorted(by: { $0.key < $1.key }) {
            assign(id, to: host)
            if hosts[host] == nil { hosts[host] = HostRecord(name: host, lastSeen: clock.now) }
        }
        resumeTransitions()
        if recovery.records > 0 || recovery.checkpoint != nil {
            logger.info(
                "supervisor recovered the journal",
                metadata: [
                    "checkpoint": "\(recovery.checkpoint.map { CheckpointFile.name($0) } ?? "none")",
                    "records": "\(recovery.records)", "controllers": "\(state.controllers.count)", "seq": "\(seq)",
                    "epoch": "\(epoch)",
                ]
            )
        }
    }

    /// Applies a topology at start, as the commands it stands for — unless the journal already holds a state (the
    /// topology's commands are in it): then only its hosts are expected.
    func apply(_ topology: Topology) throws {
        for host in topology.hosts where hosts[host] == nil {
            hosts[host] = HostRecord(name: host, lastSeen: clock.now)
        }
        guard !recoveredState else {
            logger.info("the journal holds the state: the topology's commands are not applied again")
            return
        }
        for (request, host) in topology.requests() {
            var wire = WireCommand(request, host: host)
            if request.by == .natural { wire.by = "" }
            if let error = submit([wire], from: nil) {
                flush()
                throw ConfigError("The topology's \(request.command.name) was rejected: \(error.error)")
            }
        }
        flush()
        if let failure { throw failure }
    }

    /// Serves until the context is shut down (graceful shutdown), then returns.
    func run() {
        var poller = Poller()
        poller.register(router)
        logger.info(
            "supervisor serving",
            metadata: ["command": "\(config.commandEndpoint)", "events": "\(config.eventEndpoint)"]
        )
        while failure == nil {
            do {
                let ready = try poller.poll(timeout: nextWakeUp())
                if !ready.isEmpty { try drainRouter() }
                fireTimers()
                checkHeartbeats()
                expireInspects()
                flush()
                do {
                    try journal.syncIfDue()
                } catch {
                    fail(error)
                }
                beacon()
            } catch let error where error.code == .contextTerminated {
                break
            } catch {
                logger.error("supervisor loop error: \(error)")
            }
        }
        if failure == nil { journal.finish() }
        checkpointer.wait()
        logger.info("supervisor stopped", metadata: ["seq": "\(seq)", "epoch": "\(epoch)"])
    }

    /// The journal cannot be written: stop (fail-stop, docs/DURABILITY.md). What the failed records stand for is
    /// neither published nor answered — their clients time out and resend to the restarted supervisor, which has
    /// exactly what reached the journal.
    func fail(_ error: JournalFailure) {
        guard failure == nil else { return }
        failure = error
        outbox.removeAll()
        logger.critical("the journal cannot be written: the supervisor stops", metadata: ["reason": "\(error)"])
    }

    /// On an idle PUB, a heartbeat with the epoch and the latest seq, so subscribers notice a restart, a gap or
    /// silence within a heartbeat interval.
    private func beacon() {
        let now = clock.now
        guard now - lastPublished >= config.heartbeatInterval else { return }
        lastPublished = now
        let beat = Containment_V1_EventHeartbeat.with {
            $0.epoch = epoch
            $0.seq = seq
            $0.timeUnixNanos = Self.now()
        }
        _ = try? publisher.send([WireEvent.heartbeatTopic, beat.bytes], dontWait: true)
    }

    /// How long the loop may sleep: until the next transition completes or the next heartbeat check.
    private func nextWakeUp() -> Duration {
        var wait = config.heartbeatInterval
        if config.journalSync == .interval { wait = min(wait, config.journalSyncInterval) }
        let now = clock.now
        for timer in timers { wait = min(wait, max(.zero, timer.deadline - now)) }
        for inspect in inspects.values { wait = min(wait, max(.zero, inspect.deadline - now)) }
        return wait
    }

    /// Handles every message waiting on the ROUTER, flushing the outbox after every ``batchLimit`` of them and at the
    /// end.
    private func drainRouter() throws(ZMQError) {
        var handled = 0
        defer { flush() }
        while failure == nil, let frames = try router.receive(dontWait: true) {
            handle(frames)
            handled += 1
            if handled.isMultiple(of: Self.batchLimit) { flush() }
        }
    }

    private func handle(_ frames: [[UInt8]]) {
        guard let sender = frames.first else { return }
        guard frames.count == 2 else {
            logger.warning(
                "dropped a message of \(frames.count - 1) frames (one is expected)",
                metadata: ["peer": "\(sender)"]
            )
            reply(
                to: sender,
                requestID: 0,
                .error(.init(.malformed("A request is exactly one frame; got \(frames.count - 1).")))
            )
            return
        }
        if let batch = ClientMessage.decodeBatch(frames[1]) {
            command(batch.commands, from: sender, requestID: batch.requestID, clientID: batch.clientID)
            return
        }
        let message: ClientMessage
        do {
            message = try ClientMessage.decode(frames[1])
        } catch {
            logger.warning("dropped an undecodable request: \(error.message)")
            reply(to: sender, requestID: 0, .error(.init(error)))
            return
        }
        switch message.body {
        case .commands(let batch):
            command(batch.commands, from: sender, requestID: message.requestID, clientID: message.clientID)
        case .snapshot:
            reply(to: sender, requestID: message.requestID, .snapshot(snapshot()))
        case .hello(let hello):
            // What could not be delivered so far must be pending before a host's registration takes it.
            flush()
            welcome(hello, from: sender, requestID: message.requestID)
        case .heartbeat(let heartbeat):
            flush()
            beat(heartbeat.host, from: sender)
        case .goodbye(let goodbye):
            flush()
            hostLeft(goodbye.host, from: sender)
        case .inspect(let request):
            forwardInspect(request, from: sender, requestID: message.requestID)
        case .inspectReply(let inspected):
            relayInspect(inspected, requestID: message.requestID, from: sender)
        case nil:
            reply(to: sender, requestID: message.requestID, .error(.init(.malformed("The request has no body."))))
        }
    }

    /// A request of commands: answered again if it is a resend (same client id and request id), else submitted.
    private func command(_ commands: [WireCommand], from sender: [UInt8], requestID: UInt64, clientID: String) {
        if !clientID.isEmpty, let answer = clients.answer(client: clientID, requestID: requestID) {
            resends += 1
            outbox.append(.send(peer: sender, body: answer, delivery: nil))
            return
        }
        submit(commands, from: sender, requestID: requestID, clientID: clientID)
    }

    /// The whole state now.
    func snapshot() -> WireSnapshot {
        var snapshot = WireSnapshot(
            state: state,
            seq: seq,
            hosts: hosts.values.map { record in
                .with {
                    $0.name = record.name
                    $0.pid = record.pid
                    $0.up = record.up
                }
            },
            hostOf: { self.hostOf[$0] ?? "" }
        )
        snapshot.epoch = epoch
        return snapshot
    }

    // MARK: Sending

    func reply(to peer: [UInt8], requestID: UInt64, _ body: ServerMessage.OneOf_Body) {
        let message = ServerMessage.with {
            $0.requestID = requestID
            $0.body = body
        }
        send(message, to: peer)
    }

    /// Queues a message to a peer of the ROUTER (sent by the next ``flush()``).
    func send(_ message: ServerMessage, to peer: [UInt8]) {
        outbox.append(.send(peer: peer, body: message.bytes, delivery: nil))
    }

    /// Stamps an event with the next sequence number and queues it for publication (by the next ``flush()``); returns
    /// its serialized form, from which replies and deliveries carrying it are assembled (``PreEncoded``).
    @discardableResult
    func publish(_ event: Event, commandID: UInt64, time: Int64) -> [UInt8] {
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

    /// Writes the journal's buffered records (synced per `journalSync`), then sends what the outbox holds, in order: no
    /// event is published and no reply sent before the record of its command is in the journal; if it cannot be
    /// written, nothing is sent and the supervisor stops (``fail(_:)``). A delivery that cannot reach its
    /// host (gone, as libzmq reports) is queued for the host's return.
    func flush() {
        guard failure == nil else { return }
        do {
            try journal.flush()
        } catch {
            fail(error)
            return
        }
        // After the batch's messages went out: a checkpoint never stands for deliveries that were not sent.
        defer { checkpointIfDue() }
        guard !outbox.isEmpty else { return }
        var published = false
        let outgoing = outbox
        outbox.removeAll(keepingCapacity: true)
        for message in outgoing {
            switch message {
            case .publish(let topic, let body):
                published = true
                do {
                    _ = try publisher.send([topic, body])
                } catch {
                    logger.error("cannot publish an event: \(error)")
                }
            case .send(let peer, let body, let delivery):
                let sent: Bool
                do {
                    sent = try router.send([peer, body])
                } catch {
                    logger.debug("cannot reach a peer: \(error)")
                    sent = false
                }
                if !sent, let delivery { hosts[delivery.host]?.pending.append(contentsOf: delivery.events) }
            }
        }
        if published { lastPublished = clock.now }
    }

    /// After `checkpointEvery` records, and when the last checkpoint is written: begins a new segment and hands a copy
    /// of the state (the journal's records so far, all flushed) to the ``Checkpointer``.
    private func checkpointIfDue() {
        let records = recordsAtStart + journal.appended
        guard config.checkpointEvery > 0, records - recordsAtCheckpoint >= config.checkpointEvery,
            !checkpointer.isBusy
        else { return }
        do {
            try journal.beginSegment()
        } catch {
            fail(error)
            return
        }
        recordsAtCheckpoint = records
        var checkpoint = Checkpoint(
            nextSegment: journal.segment,
            epoch: epoch,
            lastSeq: seq,
            lastCommandID: nextCommandID - 1,
            records: UInt64(records),
            state: state,
            hostOf: hostOf,
            clients: clients
        )
        checkpoint.timeUnixNanos = Self.now()
        checkpointer.write(checkpoint)
    }

    static func now() -> Int64 {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        return Int64(spec.tv_sec) * 1_000_000_000 + Int64(spec.tv_nsec)
    }
}
