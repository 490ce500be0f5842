import ContainmentBus
import ContainmentHost
import ContainmentModel
import ContainmentConfig
import ContainmentRuntime
import ContainmentWorkload
import Dispatch
import Logging
import Synchronization

/// The world of a ``SimulatedRuntime``: the real supervisor core and driver, and the real host cores, dispatchers and
/// controller actors running the app's behaviors, joined by queues in memory instead of sockets. Each connection keeps
/// its order (ZeroMQ's); which connection moves next is drawn from the seed. Time is virtual: it passes only when the
/// test says (``advance(by:)``).
actor MemoryWorld {
    /// The world's one thread: it and every actor of its hosts run there, whatever else the process's concurrency
    /// pool is busy with (other tests blocking its threads cannot stall it).
    let thread: WorldThread
    nonisolated var unownedExecutor: UnownedSerialExecutor { thread.serial.asUnownedSerialExecutor() }
    let config: RuntimeConfig
    let topology: Topology
    let kinds: BehaviorRegistry
    /// What its hosts register: `kinds`' kinds, verbs and typed methods.
    let offers: [KindOffer]
    private var random: SplitMix64
    private let base = ContinuousClock.now
    private var elapsed: Duration = .zero
    private let supervisor = MemorySupervisor()
    private var driver: SupervisorDriver?
    private(set) var supervisorStarts = 0
    private var hosts: [String: MemoryHost] = [:]
    private var connections: [[UInt8]: Connection] = [:]
    private var nextRoutingID: UInt32 = 0
    /// The test's own connection (its client's requests and typed calls), and the replies it waits for.
    private var clientPeer: [UInt8] = []
    private var waiting: [UInt64: (bytes: [UInt8], reply: CheckedContinuation<[UInt8], Never>)] = [:]
    private var nextRequestID: UInt64 = 1
    /// What the actors sent, taken in order by the next step (they run on the cooperative pool).
    private let mail = ActorMail()
    private var idleWaiters: [CheckedContinuation<Void, Never>] = []
    /// Every event the supervisor published, in order (what a subscriber of every topic saw).
    private(set) var published: [BusEvent] = []
    private(set) var problems: [String] = []

    /// One connection to the supervisor: what each way holds, in order.
    private struct Connection {
        var host: String?
        var toSupervisor: [[UInt8]] = []
        var toPeer: [[UInt8]] = []
    }

    init(topology: Topology, kinds: BehaviorRegistry, offers: [KindOffer], seed: UInt64, config: RuntimeConfig) {
        thread = WorldThread()
        self.topology = topology
        self.kinds = kinds
        self.offers = offers
        self.config = config
        random = SplitMix64(seed: seed)
    }

    var time: SupervisorTime {
        let (seconds, attoseconds) = elapsed.components
        return SupervisorTime(
            now: base + elapsed,
            unixNanos: 1_800_000_000_000_000_000 + seconds * 1_000_000_000 + attoseconds / 1_000_000_000
        )
    }

    // MARK: Starting and stopping

    /// Starts the supervisor (applying the topology the first time), a process per topology host, and the test's
    /// connection.
    func start() throws {
        try startSupervisor()
        clientPeer = connect(host: nil)
        for name in topology.hosts { startHost(name) }
    }

    /// Ends every host's dispatcher, and fails what still waits.
    func stop() {
        for host in hosts.values { host.stop() }
        hosts = [:]
        for (requestID, waiter) in waiting {
            waiter.reply.resume(
                returning: ServerReply.refusal(
                    requestID: requestID,
                    ContainmentError(.hostUnavailable, "The simulated runtime stopped.")
                )
            )
        }
        waiting = [:]
        for waiter in idleWaiters { waiter.resume() }
        idleWaiters = []
    }

    private func startSupervisor() throws {
        supervisor.time = time
        let recovery = try Recovery.replaying(supervisor.journal, config: config)
        var core = SupervisorCore(recovery: recovery, config: config, at: time)
        core.expect(hosts: topology.hosts)
        var driver = SupervisorDriver(core)
        try driver.begin(in: supervisor)
        supervisorStarts += 1
        if !recovery.holdsState { try driver.apply(topology, in: supervisor) }
        self.driver = driver
        route()
    }

    private func connect(host: String?) -> [UInt8] {
        nextRoutingID += 1
        let id = withUnsafeBytes(of: nextRoutingID.bigEndian) { [0] + Array($0) }
        connections[id] = Connection(host: host)
        supervisor.open.insert(id)
        return id
    }

    private func startHost(_ name: String) {
        let world = self
        let mail = mail
        let thread = thread
        let wake: @Sendable () -> Void = { Task(executorPreference: thread.tasks) { await world.wake() } }
        let runtime = HostRuntime(
            name: name,
            outbox: Outbox { message in mail.post(host: name, message, wake: wake) },
            timeout: config.requestTimeout,
            activity: HostActivity(changed: wake),
            executor: thread.tasks
        )
        let host = MemoryHost(
            name: name,
            pid: Int32(1_000 + hosts.count),
            kinds: kinds,
            offers: offers,
            runtime: runtime,
            config: config,
            executor: thread.tasks,
            at: time.now
        )
        host.peer = connect(host: name)
        hosts[name] = host
        carryOut(host.handle(.start, at: time.now), of: host)
    }

    // MARK: Moving messages

    /// Runs until nothing is left to move and the actors hold no work; throws after `limit` of real time without.
    func runUntilIdle(limit: Duration) async throws {
        let clock = ContinuousClock()
        let deadline = clock.now + limit
        while true {
            moveEverything()
            if !problems.isEmpty { throw TestRuntimeError.simulationFailed(problems.joined(separator: "; ")) }
            if mail.isEmpty, hosts.values.allSatisfy({ $0.runtime.activity?.held == 0 }) { return }
            guard clock.now < deadline else {
                let busy = hosts.values.filter { ($0.runtime.activity?.held ?? 0) > 0 }.map(\.name).sorted()
                throw TestRuntimeError.timedOut(
                    "the simulated runtime is idle (the actors of \(busy.joined(separator: ", ")) still run code: it "
                        + "waits for something other than the supervisor, or never stops)"
                )
            }
            await withCheckedContinuation { idleWaiters.append($0) }
        }
    }

    /// Something changed outside the world's turn (an actor finished a mail, or sent one): look again.
    func wake() {
        let waiters = idleWaiters
        idleWaiters = []
        for waiter in waiters { waiter.resume() }
        if waiters.isEmpty { moveEverything() }
    }

    /// Moves one message at a time, the connection drawn from the seed, until none can move.
    private func moveEverything() {
        while true {
            takeMail()
            var movable: [(peer: [UInt8], toSupervisor: Bool)] = []
            for (peer, connection) in connections.sorted(by: { $0.key.lexicographicallyPrecedes($1.key) }) {
                let host = connection.host.flatMap { hosts[$0] }
                let cut = host?.partitioned ?? false
                if !connection.toSupervisor.isEmpty, !cut, driver != nil { movable.append((peer, true)) }
                if !connection.toPeer.isEmpty, !cut, !(host?.paused ?? false) { movable.append((peer, false)) }
            }
            guard let next = movable.randomElement(using: &random) else { return }
            if next.toSupervisor {
                let bytes = connections[next.peer]!.toSupervisor.removeFirst()  // it was found not empty above
                toSupervisor(bytes, from: next.peer)
            } else {
                let bytes = connections[next.peer]!.toPeer.removeFirst()  // it was found not empty above
                toPeer(bytes, on: next.peer)
            }
        }
    }

    /// The actors' messages, each onto its host's connection now.
    private func takeMail() {
        for (name, message) in mail.take() {
            guard let peer = hosts[name]?.peer else { continue }
            connections[peer]?.toSupervisor.append(message.bytes)
        }
    }

    private func toSupervisor(_ bytes: [UInt8], from peer: [UInt8]) {
        supervisor.time = time
        driver?.handle(.message([peer, bytes], role: nil), in: supervisor)
        driver?.flush(supervisor)
        route()
        tickWhileDue()
    }

    /// The supervisor's loop wakes at once when work is due now (a command whose question was answered goes on in
    /// the next turn): so does the world's.
    private func tickWhileDue() {
        for _ in 0..<1_000 {
            guard let driver, driver.core.nextWakeUp(at: time.now) <= .zero else { return }
            self.driver?.tick(in: supervisor)
            self.driver?.flush(supervisor)
            route()
        }
    }

    /// What the supervisor sent, onto its connections; what it published, kept.
    private func route() {
        for (peer, body) in supervisor.sent { connections[peer]?.toPeer.append(body) }
        supervisor.sent = []
        for body in supervisor.published {
            guard let event = try? BusEvent(decoding: body) else { continue }
            published.append(event)
        }
        supervisor.published = []
        if let failure = driver?.failure { problems.append("the supervisor stopped: \(failure)") }
    }

    private func toPeer(_ bytes: [UInt8], on peer: [UInt8]) {
        guard let connection = connections[peer] else { return }
        guard let name = connection.host else {
            guard let requestID = ServerReply.requestID(of: bytes) else {
                problems.append("the test's connection received a message it cannot decode")
                return
            }
            waiting.removeValue(forKey: requestID)?.reply.resume(returning: bytes)
            return
        }
        guard let host = hosts[name], host.peer == peer else { return }
        guard let message = try? HostInbound(decoding: bytes) else {
            problems.append("host \(name) received a message it cannot decode")
            return
        }
        carryOut(host.handle(.message(message), at: time.now), of: host)
    }

    private func carryOut(_ actions: [HostAction], of host: MemoryHost) {
        for action in actions {
            switch action {
            case .send(let message):
                if let peer = host.peer { connections[peer]?.toSupervisor.append(message.bytes) }
            case .job(let job): host.dispatch(job)
            case .resume(let reply): _ = host.runtime.replies.resume(reply)
            case .log(let level, let message, _) where level >= .warning:
                problems.append("host \(host.name): \(message)")
            case .log, .connect, .probe: break
            }
        }
    }

    // MARK: The test's requests

    /// Sends the request `make` encodes (under the request id and client id it is given) on the test's connection
    /// and waits for its reply's bytes (resent, unchanged, to a restarted supervisor, as a client resends).
    func request(_ make: (_ requestID: UInt64, _ clientID: String) -> [UInt8]) async -> [UInt8] {
        let requestID = nextRequestID
        nextRequestID += 1
        let bytes = make(requestID, "simulated-test")
        return await withCheckedContinuation { reply in
            waiting[requestID] = (bytes, reply)
            connections[clientPeer]?.toSupervisor.append(bytes)
            moveEverything()
        }
    }

    // MARK: Time and faults

    /// Virtual time passes, a quarter of a heartbeat interval at a time: the supervisor's timers (transitions,
    /// heartbeats, deadlines) and the hosts' (heartbeats, greetings) run, and the world moves until idle each time.
    func advance(by duration: Duration, limit: Duration) async throws {
        let end = elapsed + duration
        while elapsed < end {
            elapsed = min(end, elapsed + config.heartbeatInterval / 4)
            supervisor.time = time
            driver?.tick(in: supervisor)
            driver?.flush(supervisor)
            route()
            tickWhileDue()
            for host in hosts.values.sorted(by: { $0.name < $1.name }) where !host.paused {
                carryOut(host.handle(.tick, at: time.now), of: host)
            }
            try await runUntilIdle(limit: limit)
        }
    }

    /// The supervisor killed: what it had not journaled is gone, with every connection's queue; a new process
    /// recovers from the journal, the hosts connect again (new connections) and greet it at their next heartbeat,
    /// and the test's waiting requests are sent again. Requests the actors were waiting for fail (`timeout`) at once.
    func crashSupervisor(restartAfter delay: Duration, limit: Duration) async throws {
        driver = nil
        supervisor.open = []
        connections = [:]
        for host in hosts.values {
            host.runtime.replies.failAll(ContainmentError(.timeout, "The supervisor went away."))
        }
        mail.discard()
        try startSupervisor()
        clientPeer = connect(host: nil)
        for (_, waiter) in waiting.sorted(by: { $0.key < $1.key }) {
            connections[clientPeer]?.toSupervisor.append(waiter.bytes)
        }
        for host in hosts.values.sorted(by: { $0.name < $1.name }) { host.peer = connect(host: host.name) }
        try await advance(by: delay, limit: limit)
    }

    func setPartitioned(_ host: String, _ partitioned: Bool) throws {
        guard let host = hosts[host] else { throw TestRuntimeError.invalid("no host \(host) in the topology") }
        host.partitioned = partitioned
    }

    func setPaused(_ host: String, _ paused: Bool) throws {
        guard let host = hosts[host] else { throw TestRuntimeError.invalid("no host \(host) in the topology") }
        host.paused = paused
    }
}

/// The supervisor's side of the memory world: its journal, and what each step sent and published.
private final class MemorySupervisor: SupervisorWorld {
    var time = SupervisorTime(now: .now, unixNanos: 0)
    var journal: [[UInt8]] = []
    var open: Set<[UInt8]> = []
    var sent: [(peer: [UInt8], body: [UInt8])] = []
    var published: [[UInt8]] = []

    func stepBegins(_ step: SupervisorStep, core: SupervisorCore) {}
    func journal(_ records: [[UInt8]]) throws(JournalFailure) { journal.append(contentsOf: records) }
    var barred: JournalFailure? { nil }
    func failed(_ failure: JournalFailure) {}
    func publish(topic: [UInt8], body: ArraySlice<UInt8>) { published.append(Array(body)) }
    func heartbeat(_ body: [UInt8]) {}

    func send(_ body: [UInt8], to peer: [UInt8], delivery: Bool) -> SendOutcome {
        guard open.contains(peer) else { return .gone }
        sent.append((peer, body))
        return .sent
    }

    var metricsText: [UInt8] { [] }
    func stepCarriedOut(core: SupervisorCore) throws(JournalFailure) {}
}

/// A host process of the memory world: the real host core, and the real dispatcher with the app's behaviors.
private final class MemoryHost {
    let name: String
    let runtime: HostRuntime
    private var core: HostCore
    private let jobs: AsyncStream<HostJob>.Continuation
    private let dispatching: Task<Void, Never>
    /// Its connection now (a new one after the supervisor restarts).
    var peer: [UInt8]?
    var partitioned = false
    var paused = false

    init(
        name: String,
        pid: Int32,
        kinds: BehaviorRegistry,
        offers: [KindOffer],
        runtime: HostRuntime,
        config: RuntimeConfig,
        executor: any TaskExecutor,
        at now: ContinuousClock.Instant
    ) {
        self.name = name
        self.runtime = runtime
        core = HostCore(
            name: name,
            pid: pid,
            kinds: offers,
            heartbeatInterval: config.heartbeatInterval,
            endpoints: [config.commandEndpoint],
            at: now
        )
        let (stream, continuation) = AsyncStream<HostJob>.makeStream()
        jobs = continuation
        let dispatcher = Dispatcher(
            runtime: runtime,
            kinds: kinds,
            logger: Logger(label: "containment.testkit.host") { _ in SwiftLogNoOpLogHandler() },
            historyLimit: config.callbackHistory,
            mailboxCapacity: config.mailboxCapacity
        )
        dispatching = Task(executorPreference: executor) { await dispatcher.run(stream) }
    }

    /// The core's decisions. The memory world applies no back-pressure (its connections hold what the test sends, and
    /// the dispatcher runs between the world's moves): the jobs are not counted back, and its hosts read everything.
    func handle(_ input: HostInput, at now: ContinuousClock.Instant) -> [HostAction] {
        core.handle(input, at: now)
    }

    /// A job for the dispatcher, counted as work held until it is done.
    func dispatch(_ job: HostJob) {
        runtime.activity?.begin()
        jobs.yield(job)
    }

    func stop() {
        jobs.finish()
        dispatching.cancel()
        runtime.replies.failAll(ContainmentError(.timeout, "The simulated runtime stopped."))
    }
}

/// What the actors sent, by host, in the order they sent it; taken by the world's next step.
private final class ActorMail: Sendable {
    private let messages = Mutex<[(host: String, message: HostOutbound)]>([])

    var isEmpty: Bool { messages.withLock { $0.isEmpty } }

    func post(host: String, _ message: HostOutbound, wake: () -> Void) {
        messages.withLock { $0.append((host, message)) }
        wake()
    }

    func take() -> [(host: String, message: HostOutbound)] {
        messages.withLock { taken in
            defer { taken = [] }
            return taken
        }
    }

    func discard() { messages.withLock { $0 = [] } }
}

/// A thread of its own for a world held in memory: one serial queue, seen as the world actor's executor and as the
/// executor its hosts' tasks prefer (their actors run there).
final class WorldThread: Sendable {
    let queue = DispatchQueue(label: "containment.testkit.world")
    let serial: Serial
    let tasks: Tasks

    init() {
        serial = Serial(queue)
        tasks = Tasks(queue)
    }

    /// The world actor's executor.
    final class Serial: SerialExecutor {
        let queue: DispatchQueue
        init(_ queue: DispatchQueue) { self.queue = queue }

        func enqueue(_ job: consuming ExecutorJob) {
            let job = UnownedJob(job)
            queue.async { job.runSynchronously(on: self.asUnownedSerialExecutor()) }
        }

        func asUnownedSerialExecutor() -> UnownedSerialExecutor { UnownedSerialExecutor(ordinary: self) }
    }

    /// The executor the hosts' tasks prefer.
    final class Tasks: TaskExecutor {
        let queue: DispatchQueue
        init(_ queue: DispatchQueue) { self.queue = queue }

        func enqueue(_ job: consuming ExecutorJob) {
            let job = UnownedJob(job)
            queue.async { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
        }
    }
}
