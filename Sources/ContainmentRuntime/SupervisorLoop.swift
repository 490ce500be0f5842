import ContainmentConfig
import ContainmentBus
import ContainmentModel
import ContainmentTracing
import Foundation
import Logging
import ZeroMQ

/// The supervisor's I/O around its ``SupervisorCore``: recovery from the journal at start, the ROUTER and PUB
/// sockets, the journal writer and the checkpoints — the machine's ``SupervisorWorld``. It runs on one thread: it feeds
/// the core (through its ``SupervisorDriver``) the command socket's messages and the passing of time, and the driver
/// carries each step out journal first — the records written and synced per `journalSync`, and only then the events
/// published and the messages sent. A journal that cannot be written stops it (fail-stop, docs/DURABILITY.md).
final class SupervisorLoop {
    let config: RuntimeConfig
    let logger: Logger
    private(set) var driver: SupervisorDriver
    var core: SupervisorCore { driver.core }
    /// The supervisor's metrics (swift-metrics): counted here, from each step and each write, not in the core.
    var metrics = SupervisorMetrics()
    /// The metrics as Prometheus text, when they are kept (`metricsPort`): the answer to a `metrics` request.
    var metricsTextSource: (@Sendable () -> [UInt8])? {
        didSet {
            keepsMetrics = metricsTextSource != nil
            driver.core.keepsMetrics = keepsMetrics
        }
    }
    /// Whether metrics are kept: otherwise nothing is counted or timed for them (swift-metrics' no-op backend would
    /// still cost each reply a clock reading and each event a call).
    private var keepsMetrics = false
    let router: Socket
    let publisher: Socket
    /// The publisher's connections as they come and go (a socket monitor), counted as its subscribers: at most
    /// `maxSubscribers` (the ZAP handler refuses more at their handshake).
    let publisherMonitor: Socket
    private(set) var subscribers = 0
    /// Subscribers refused because `maxSubscribers` were connected.
    private(set) var refusedSubscribers = 0
    /// When to give freed memory back to the system: a while after subscribers left (libzmq frees a pipe once both
    /// its threads have seen it end), so the queues of stalled subscribers do not stay in the supervisor's size.
    private var trimDue: ContinuousClock.Instant?
    /// The ZAP domain of the publisher's handshakes, which tells them from the command socket's.
    static let eventsDomain = "events"
    static let publisherMonitorEndpoint = "inproc://containment.publisher-monitor"
    let journal: any JournalAppender
    let checkpointer: any CheckpointWriting
    /// With `journal: etcd`: this supervisor's leadership, which must still hold for anything to go out.
    let leadership: EtcdLeadership?
    /// Records the journal held at start (the checkpoint's and those replayed after it), and the record count at the
    /// last checkpoint.
    let recordsAtStart: Int
    var recordsAtCheckpoint: Int
    /// The local hosts it starts and restarts (`--start-hosts`), if any.
    var hostSupervisor: HostSupervisor?
    /// Set when the journal cannot be written: nothing more is sent or published, and the loop ends.
    var failure: JournalFailure? { driver.failure }
    /// Messages handled before a step is carried out while more are waiting.
    static let batchLimit = 128
    /// Messages libzmq queues for one peer of the ROUTER at most. Few, because libzmq counts messages, not bytes: a
    /// client that does not read would otherwise hold up to this many snapshots here (1,000 of 220 KB held 645 MiB,
    /// issue 42). Past it a reply waits in the supervisor's own queue, bounded in bytes (``ReplyQueues``), and
    /// deliveries wait for their host in the core (``SupervisorCore/congested(_:)``).
    static let peerQueue = 32
    /// When the first message of the step being gathered came: the start of its requests' time in the supervisor.
    private var stepStarted: ContinuousClock.Instant?
    /// The same, for the step being carried out: its replies' time in the supervisor is measured from it.
    private var replyStarted: ContinuousClock.Instant?
    private let clock = SystemClock()
    /// Peers the ZAP handler refused (their key is not on the allow-list).
    private(set) var refusedPeers = 0

    /// Recovers the state from the journal in the run directory, journals the new epoch, then binds the sockets.
    /// The handler that admits peers: with CURVE by key (and the roles of the keys it admits), and subscribers up to
    /// `maxSubscribers` with CURVE or without.
    private let zap: ZapHandler
    private let allow: [CurveKey: CurveSettings.Role]

    /// `allow`: with `config.curve`, the keys admitted and their roles (``CurveSettings/allowList(hosts:)``).
    convenience init(
        context: Context,
        config: RuntimeConfig,
        logger: Logger,
        allow: [CurveKey: CurveSettings.Role] = [:]
    ) throws {
        let recovery = try Recovery.run(config: config, logger: logger)
        let journal = try JournalWriter(
            directory: config.journalPath,
            segment: recovery.segment,
            size: recovery.endOffset,
            sync: config.journalSync,
            syncInterval: config.journalSyncInterval,
            segmentBytes: config.journalSegmentBytes
        )
        try self.init(
            context: context,
            config: config,
            logger: logger,
            allow: allow,
            recovery: recovery,
            journal: journal,
            checkpointer: Checkpointer(directory: config.journalPath, retain: config.journalRetain, logger: logger),
            leadership: nil
        )
    }

    /// Serves from `recovery`, writing to `journal` (and its checkpoints through `checkpointer`); with `leadership`
    /// (`journal: etcd`), only while it holds.
    init(
        context: Context,
        config: RuntimeConfig,
        logger: Logger,
        allow: [CurveKey: CurveSettings.Role],
        recovery: Recovery,
        journal: any JournalAppender,
        checkpointer: any CheckpointWriting,
        leadership: EtcdLeadership?
    ) throws {
        self.allow = allow
        self.config = config
        self.logger = logger
        self.leadership = leadership
        driver = SupervisorDriver(SupervisorCore(recovery: recovery, config: config, at: SystemClock().time))
        // Traced commands' marks read the real-time clock (spans of processes on one machine line up).
        driver.core.spanClock = { UnixClock.nanos }
        recordsAtStart = recovery.checkpointRecords + recovery.records
        recordsAtCheckpoint = recovery.checkpointRecords
        self.checkpointer = checkpointer
        self.journal = journal
        // The start record: journaled before the sockets are bound, so nothing is served under an epoch not on disk.
        for case .journal(let record) in driver.core.begin() { try journal.append(serialized: record.encoded()) }
        try journal.flush()
        router = try context.socket(.router)
        publisher = try context.socket(.pub)
        try router.set(.routerMandatory, to: true)
        // A larger message costs its sender the connection (libzmq reads no further).
        try router.set(.maxMessageSize, to: config.maxMessageBytes)
        // Bounded per peer: a host that takes its deliveries slower than they come fills its pipe, and is then
        // backlogged (``SupervisorCore/congested(_:)``) rather than buffered without bound.
        try router.set(.sendHighWaterMark, to: Self.peerQueue)
        // Bounded per subscriber: one that reads slower than events come loses the ones past `subscriberQueue` (and
        // sees the gap in their seqs) instead of growing the supervisor without bound.
        try publisher.set(.sendHighWaterMark, to: config.subscriberQueue)
        zap = try ZapHandler(context: context)
        // Every subscriber's handshake goes through the ZAP handler (with CURVE or without): at most maxSubscribers.
        try publisher.set(.zapDomain, to: Self.eventsDomain)
        if let curve = config.curve {
            // CURVE on both sockets; the ZAP handler admits only the allow-list's keys (docs/SECURITY.md).
            let secret = try curve.serverSecret()
            try router.makeCurveServer(secretKey: secret)
            try publisher.makeCurveServer(secretKey: secret)
        }
        try publisher.monitor(Self.publisherMonitorEndpoint, events: [.accepted, .disconnected])
        publisherMonitor = try context.socket(.pair)
        try publisherMonitor.connect(Self.publisherMonitorEndpoint)
        metrics.subscribers(0)
        try router.bind(config.commandEndpoint)
        try publisher.bind(config.eventEndpoint)
        // ipc sockets are the owner's only (docs/SECURITY.md): another user cannot connect to them.
        for endpoint in [config.commandEndpoint, config.eventEndpoint] where endpoint.hasPrefix("ipc://") {
            chmod(String(endpoint.dropFirst("ipc://".count)), 0o600)
        }
        if recovery.records > 0 || recovery.checkpoint != nil {
            logger.info(
                "supervisor recovered the journal",
                metadata: [
                    "checkpoint.name": "\(recovery.checkpoint.map { CheckpointFile.name($0) } ?? "none")",
                    "journal.records": "\(recovery.records)", "controller.count": "\(core.state.controllers.count)",
                    "event.seq": "\(core.seq)", "supervisor.epoch": "\(core.epoch)",
                ]
            )
        }
    }

    /// Applies a topology at start (see ``SupervisorCore/apply(_:at:)``), journal first.
    func apply(_ topology: Topology) throws {
        try driver.apply(topology, in: self)
    }

    /// Serves until the context is shut down (graceful shutdown), then returns.
    func run() {
        var poller = Poller()
        poller.register(router)
        poller.register(zap.socket)
        logger.info(
            "supervisor serving",
            metadata: ["endpoint.command": "\(config.commandEndpoint)", "endpoint.events": "\(config.eventEndpoint)"]
        )
        while failure == nil {
            do {
                var wait = driver.nextWakeUp(at: clock.now)
                if config.journalSync == .interval { wait = min(wait, config.journalSyncInterval) }
                // A host that ended is noticed within 50 ms.
                if hostSupervisor != nil { wait = min(wait, .milliseconds(50)) }
                if let trimDue { wait = min(wait, max(.zero, trimDue - clock.now)) }
                let ready = try poller.poll(timeout: wait)
                if ready.contains(where: { $0.index == 1 }) { try admit() }
                if ready.contains(where: { $0.index == 0 }) { try drainRouter() }
                superviseHosts()
                try countSubscribers()
                driver.retryReplies(in: self)
                // The replies of peers that left, given back to the system a little later (as subscribers' queues).
                if driver.takeFreedReplyBytes() >= 1 << 20, trimDue == nil { trimDue = clock.now + Self.trimDelay }
                trimIfDue()
                driver.tick(in: self)
                flush()
                do {
                    try journal.syncIfDue()
                } catch {
                    driver.fail(error, self)
                }
            } catch let error where error.code == .contextTerminated {
                break
            } catch {
                logger.error("supervisor loop error", metadata: ["error.message": "\(error)"])
            }
        }
        if failure == nil { journal.finish() }
        // A supervisor that no longer leads stands by, and its standby's handler binds in this context.
        zap.close()
        checkpointer.wait()
        logger.info("supervisor stopped", metadata: ["event.seq": "\(core.seq)", "supervisor.epoch": "\(core.epoch)"])
    }

    /// Answers the ZAP handler's requests: a subscriber while fewer than `maxSubscribers` are connected; with CURVE, a
    /// peer whose key is on the allow-list, with its role as its user id. Any other is refused (it gets nothing, not
    /// even an error).
    private func admit() throws(ZMQError) {
        // The connections accepted so far, this one among them.
        try countSubscribers()
        try zap.handlePending { request in
            if request.domain == Self.eventsDomain, subscribers > config.maxSubscribers {
                refusedSubscribers += 1
                // The first, then one line per hundred.
                if refusedSubscribers % 100 == 1 {
                    logger.warning(
                        "refused a subscriber: maxSubscribers are connected",
                        metadata: [
                            "subscriber.max": "\(config.maxSubscribers)",
                            "subscriber.refused_count": "\(refusedSubscribers)",
                        ]
                    )
                }
                return nil
            }
            guard config.curve != nil else { return "subscriber" }
            guard let key = request.curveKey, let role = allow[key] else {
                refusedPeers += 1
                // The first, then one line per hundred.
                if refusedPeers % 100 == 1 {
                    logger.notice(
                        "refused a peer: its key is not allowed",
                        metadata: ["peer.address": "\(request.address)", "peer.refused_count": "\(refusedPeers)"]
                    )
                }
                return nil
            }
            return role.name
        }
    }

    /// The publisher's connections since the last look: one more for each accepted, one fewer for each ended (then
    /// freed memory is given back a little later).
    private func countSubscribers() throws(ZMQError) {
        var changed = false
        while let frames = try publisherMonitor.receive(dontWait: true) {
            guard let event = SocketEvent(frames: frames) else { continue }
            if event.kind == .accepted { subscribers += 1 }
            if event.kind == .disconnected {
                subscribers = max(0, subscribers - 1)
                trimDue = clock.now + Self.trimDelay
            }
            changed = true
        }
        if changed {
            metrics.subscribers(subscribers)
            driver.handle(.subscribers(subscribers), in: self)
        }
    }

    /// How long after a subscriber left its queue's memory is given back: a few heartbeats (the idle PUB's sends are
    /// when libzmq ends its pipes) — and again as long as more leave.
    static let trimDelay: Duration = .seconds(2)

    private func trimIfDue() {
        guard let due = trimDue, clock.now >= due else { return }
        trimDue = nil
        releaseFreeMemory()
    }

    /// Hosts that ended: down at once (with how they ended), then started again or given up on by their policy.
    private func superviseHosts() {
        guard let hostSupervisor else { return }
        for ended in hostSupervisor.poll() {
            driver.handle(.hostExited(ended.host, reason: ended.exit.description), in: self)
            if case .giveUp(let reason) = ended.decision {
                driver.handle(.hostFailed(ended.host, reason: reason), in: self)
            }
        }
    }

    /// Feeds the core every message waiting on the ROUTER, carrying out its step after every ``batchLimit`` of them and
    /// at the end.
    private func drainRouter() throws(ZMQError) {
        var handled = 0
        defer { flush() }
        let curve = config.curve != nil
        while failure == nil, let message = try receive(withRole: curve) {
            if keepsMetrics, stepStarted == nil { stepStarted = clock.now }
            driver.handle(.message(message.frames, role: message.role), in: self)
            handled += 1
            if handled.isMultiple(of: Self.batchLimit) { flush() }
        }
    }

    /// The next message waiting on the ROUTER, if any. With CURVE every peer was admitted with a role (its
    /// `User-Id`); fail closed: a message under CURVE without a role it names (which the ZAP handler never admits)
    /// only reads. Without CURVE there is none, and the message's metadata is not looked at.
    private func receive(withRole: Bool) throws(ZMQError) -> (frames: [[UInt8]], role: CurveSettings.Role?)? {
        guard withRole else { return try router.receive(dontWait: true).map { ($0, nil) } }
        guard let message = try router.receive(dontWait: true, property: "User-Id") else { return nil }
        return (message.frames, message.property.flatMap(CurveSettings.Role.init) ?? .observer)
    }

    /// Carries out the core's steps (``SupervisorDriver/flush(_:)``).
    func flush() {
        driver.flush(self)
    }

    /// After `checkpointEvery` records, and when the last checkpoint is written: begins a new segment and hands a copy
    /// of the core's state (the journal's records so far, all written) to the ``Checkpointer``.
    private func checkpointIfDue(_ core: SupervisorCore) throws(JournalFailure) {
        let records = recordsAtStart + journal.appended
        guard config.checkpointEvery > 0, records - recordsAtCheckpoint >= config.checkpointEvery,
            !checkpointer.isBusy
        else { return }
        try journal.beginSegment()
        recordsAtCheckpoint = records
        let checkpoint = Checkpoint(
            of: core,
            nextSegment: journal.segment,
            records: records,
            timeUnixNanos: clock.unixNanos
        )
        checkpointer.write(checkpoint)
    }
}

extension SupervisorLoop: SupervisorWorld {
    var time: SupervisorTime { clock.time }

    func stepBegins(_ step: SupervisorStep, core: SupervisorCore) {
        // What the core decided is worth saying: it stands even if the journal cannot take the step.
        for line in step.logs { logger.log(level: line.level, line.message, metadata: line.metadata) }
        guard keepsMetrics else { return }
        metrics.count(step.tally, messages: step.outgoingCount)
        metrics.observe(controllers: core.state.controllers.count, hosts: core.hosts)
        replyStarted = stepStarted
        stepStarted = nil
    }

    func journal(_ records: [[UInt8]]) throws(JournalFailure) {
        var bytes = 0
        for record in records {
            try journal.append(serialized: record)
            bytes += record.count + 8
        }
        guard keepsMetrics else { return try journal.flush() }
        let writing = clock.now
        try journal.flush()
        if !records.isEmpty {
            metrics.journalWrite.record(duration: clock.now - writing)
            metrics.journalBytes.increment(by: bytes)
        }
    }

    /// A leader whose lease may have lapsed (it was frozen, or cut off from etcd) says nothing more: a standby may
    /// lead by now.
    var barred: JournalFailure? {
        guard let leadership, !leadership.isValid else { return nil }
        return JournalFailure(description: "etcd: this supervisor's lease lapsed: it no longer leads")
    }

    /// The journal cannot be written: stop (fail-stop, docs/DURABILITY.md). What the failed records stand for is
    /// neither published nor answered — their clients time out and resend to the restarted supervisor, which has
    /// exactly what reached the journal.
    func failed(_ failure: JournalFailure) {
        logger.critical(
            "the journal cannot be written: the supervisor stops",
            metadata: ["error.message": "\(failure)"]
        )
    }

    func publish(topic: [UInt8], body: ArraySlice<UInt8>) {
        if keepsMetrics { metrics.eventsPublished.increment() }
        do {
            _ = try publisher.send(topic, body)
        } catch {
            logger.error("cannot publish an event", metadata: ["error.message": "\(error)"])
        }
    }

    func heartbeat(_ body: [UInt8]) {
        _ = try? publisher.send(Publication.heartbeatFrame, body, dontWait: true)
    }

    func send(_ body: [UInt8], to peer: [UInt8], delivery: Bool) -> SendOutcome {
        do {
            // Its pipe full: a slow host's deliveries wait in the core, a slow reader's replies in the driver.
            guard try router.send(peer, body, dontWait: true) else { return .full }
            // A reply: the time since the step's first message came (decoding, the model, the journal).
            if !delivery, keepsMetrics, let started = replyStarted {
                metrics.requestDuration.record(duration: clock.now - started)
            }
            return .sent
        } catch {
            logger.debug("cannot reach a peer", metadata: ["error.message": "\(error)"])
            return .gone
        }
    }

    var metricsText: [UInt8] { metricsTextSource?() ?? [] }

    func stepCarriedOut(core: SupervisorCore) throws(JournalFailure) { try checkpointIfDue(core) }
}
