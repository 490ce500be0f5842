import ContainmentBus
import ContainmentHost
import ContainmentLoad
import ContainmentModel

/// A host process of the simulated world: the real ``HostCore`` (registration, heartbeats), and its controllers'
/// actors as the dispatcher keeps them — each receiving its callbacks in order, a seq seen before dropped, its digest
/// counted as the real actor counts it, begun again from its state when the supervisor restores it. In an answering run
/// its forms' code answers the supervisor's questions (``FormBehavior``'s answers, after a delay the seed draws, now
/// and then past the answer timeout); it runs no other controller code. It can be killed and started again (a new
/// pid), stopped and continued, and cut off from the supervisor.
final class SimHost {
    /// A controller's actor, as far as the checks see it.
    struct Actor {
        var lastSeq: UInt64 = 0
        var digest = CallbackDigest()
        /// The seqs of the callbacks it received (since its restore), for a failure to name what differs.
        var seqs: [UInt64] = []
        /// The seq of the state it was restored from (0: it was not).
        var restoredSeq: UInt64 = 0
    }

    /// The kind whose code answers questions in an answering run (`stress --answering`'s forms).
    static let answeringKind = ClientPools.answeringKind

    unowned let sim: Simulation
    let name: String
    private(set) var pid: Int32 = 0
    private var core: HostCore?
    private(set) var link: Link?
    /// With several supervisors: a probe's connection to each of the others (``HostCore`` asks who leads).
    private var probes: [String: Link] = [:]
    /// The connections this process made (a message on one of an earlier process is not for it).
    private var processLinks: Set<ObjectIdentifier> = []
    /// Its actors, by controller.
    private(set) var actors: [ControllerID: Actor] = [:]
    /// Stopped (SIGSTOP): what arrives waits, time does not pass for it.
    private(set) var paused = false
    private var waiting: [(bytes: [UInt8], link: Link)] = []
    /// What its code had ready to send when the process was stopped: sent once it continues.
    private var deferred: [HostOutbound] = []
    /// Cut off from the supervisor.
    private(set) var partitioned = false
    /// Its actors behind (``FaultKind/slowActors``) until then: what it hands the dispatcher waits, in order.
    private(set) var behindUntil: Duration?
    private var backlog: [HostJob] = []
    /// Jobs the dispatcher finished that the core has not been told of yet.
    private var finished = 0
    /// Drops its monitor reported while the host read nothing of the supervisor's: its loop polls the monitor with the
    /// supervisor's socket, so it hears of them once it reads again.
    private var unreadDrops: [String] = []
    /// It reads what waited, one message at a time (``takeWaiting()``).
    private var draining = false
    /// How many jobs may wait before it stops reading the supervisor (``HostCore``'s bound; smaller here than a real
    /// host's 256, so that a stall of a second reaches it).
    static let maxQueuedJobs = 32

    init(sim: Simulation, name: String) {
        self.sim = sim
        self.name = name
    }

    var isRunning: Bool { core != nil }
    /// Welcomed once, and running, not stopped, reachable and reading the supervisor: nothing keeps it from greeting
    /// one.
    var isLive: Bool { wasWelcomed && core != nil && !paused && !partitioned && reads && link?.open == true }
    /// Welcomed by the supervisor, as far as its process knows.
    /// Welcomed by the supervisor, as far as its process knows, on the connection it has now (one that dropped and
    /// came back is welcomed again once the supervisor hears it there).
    var isRegistered: Bool {
        guard core?.isRegistered == true, let link, let welcomedOn else { return false }
        return welcomedOn == ObjectIdentifier(link)
    }
    /// The connection its last welcome came on.
    private var welcomedOn: ObjectIdentifier?
    /// Welcomed by some supervisor since the run began (a process of it was).
    private(set) var wasWelcomed = false

    /// Starts a process: a new pid, new actors, a new connection; it greets the supervisor.
    func start() {
        guard core == nil else { return }
        sim.nextPID += 1
        pid = sim.nextPID
        actors = [:]
        paused = false
        forgetWork()
        core = HostCore(
            name: name,
            pid: pid,
            kinds: sim.settings.answering
                ? [
                    KindOffer(
                        kind: Self.answeringKind.rawValue,
                        verbs: [],
                        questions: FormBehavior.questions.map(\.rawValue).sorted()
                    )
                ] : [],
            heartbeatInterval: sim.config.heartbeatInterval,
            endpoints: sim.endpoints,
            maxQueuedJobs: Self.maxQueuedJobs,
            at: sim.time.now
        )
        processLinks = []
        probes = [:]
        connect()
        handle(.start)
        scheduleTick()
    }

    /// Kills the process (SIGKILL): its connection closes, its actors are gone.
    func kill() {
        guard core != nil else { return }
        core = nil
        link?.close()
        link = nil
        for probe in probes.values { probe.close() }
        probes = [:]
        actors = [:]
        forgetWork()
        paused = false
    }

    /// What a process had waiting, gone with it.
    private func forgetWork() {
        waiting = []
        deferred = []
        behindUntil = nil
        backlog = []
        finished = 0
        unreadDrops = []
        draining = false
    }

    func pause() { paused = true }

    /// Continues a stopped process: what arrived meanwhile is taken, in order (as far as it reads).
    func resume() {
        guard paused else { return }
        paused = false
        for message in deferred { perform(.send(message)) }
        deferred = []
        if let end = behindUntil, end <= sim.scheduler.now { catchUp() }
        takeWaiting()
    }

    /// Its actors fall behind (slow controller code, full mailboxes) for `duration`: the dispatcher finishes nothing
    /// meanwhile; once ``maxQueuedJobs`` jobs wait, the host reads nothing more of the supervisor's — it beats on, and
    /// the supervisor's queue toward it fills.
    func fallBehind(for duration: Duration) {
        guard core != nil, behindUntil == nil else { return }
        let end = sim.scheduler.now + duration
        behindUntil = end
        let pid = pid
        sim.scheduler.at(end, "host \(name)'s actors catch up") { [unowned self] in
            guard self.pid == pid, behindUntil == end, !paused else { return }
            catchUp()
        }
    }

    /// Its actors caught up (or, at the run's end, are made to): the jobs that waited are done in order, and it reads
    /// again.
    func catchUp() {
        guard behindUntil != nil else { return }
        behindUntil = nil
        let jobs = backlog
        backlog = []
        sim.scheduler.note("host \(name)'s actors catch up on \(jobs.count) jobs")
        for job in jobs { dispatch(job) }
        finished += jobs.count
        tellFinished()
        takeWaiting()
    }

    /// Whether its loop reads the supervisor's messages now (``HostCore/readsSupervisor``).
    private var reads: Bool { core?.readsSupervisor ?? true }

    /// What waited — a stopped process's messages, or the supervisor's while the host read none — taken in order, as
    /// far as it reads; then the drops its monitor reported meanwhile.
    /// One message at a time, a few microseconds apart, as its loop reads them: the supervisor's loop sends meanwhile,
    /// and finds the queue toward this host full or not as it drains.
    private func takeWaiting() {
        guard !draining else { return }
        guard !paused, core != nil, let (bytes, link) = waiting.first, reads || isProbe(link) else {
            while !paused, reads, !unreadDrops.isEmpty { handle(.dropped(endpoint: unreadDrops.removeFirst())) }
            return
        }
        waiting.removeFirst()
        take(bytes, from: link)
        draining = true
        let pid = pid
        sim.scheduler.after(sim.scheduler.duration(.microseconds(5), .microseconds(50)), "host \(name) reads on") {
            [unowned self] in
            guard self.pid == pid, draining else { return }
            draining = false
            takeWaiting()
        }
    }

    private func isProbe(_ link: Link) -> Bool { probes.values.contains { $0 === link } }

    /// `supervisor` bound its socket (it restarted, or began to lead): ZeroMQ connects again where the connection to
    /// it dropped.
    func reconnect(to supervisor: SimSupervisor) {
        guard let core else { return }
        if supervisor.endpoint == core.endpoint, link?.open != true { connect() }
        if let probe = probes[supervisor.endpoint], !probe.open { probes[supervisor.endpoint] = nil }
    }

    /// Its connection drops; ZeroMQ connects again shortly (the process lives, and goes on beating).
    func disconnect() {
        guard core != nil else { return }
        link?.close()
        let pid = pid
        let delay = sim.scheduler.duration(.milliseconds(10), .milliseconds(100))
        sim.scheduler.after(delay, "host \(name) connects again") { [unowned self] in
            guard self.pid == pid, core != nil, link?.open != true else { return }
            connect()
        }
    }

    /// A connection to the supervisor talked to now (``HostCore/endpoint``).
    private func connect() {
        guard let endpoint = core?.endpoint else { return }
        link = open(to: endpoint)
    }

    private func open(to endpoint: String) -> Link? {
        guard let supervisor = sim.supervisor(at: endpoint), let link = sim.connect(self, to: supervisor) else {
            return nil
        }
        processLinks.insert(ObjectIdentifier(link))
        if partitioned { link.cutOff() }
        return link
    }

    /// Leaves the supervisor talked to for `next`: its connection closes, which its monitor reports (a drop of a
    /// connection it left: ``HostCore`` knows it is not news).
    private func turn(to next: String) {
        if let old = link {
            old.close()
            monitorReports(old)
        }
        // Probes' answers not read yet were asked before: who led then, not now (read later, they would turn this host
        // back). Their connections go with them.
        for endpoint in probes.keys.sorted() { probes[endpoint]?.close() }
        probes = [:]
        link = open(to: next)
    }

    /// A probe of `other`: who leads there (a heartbeat on a connection of its own).
    private func probe(_ other: String) {
        if probes[other]?.open != true { probes[other] = open(to: other) }
        guard let probe = probes[other] else { return }
        sim.send(HostOutbound.heartbeat(host: name).bytes, toSupervisorOn: probe)
    }

    func cutOff() {
        partitioned = true
        link?.cutOff()
        for probe in probes.values { probe.cutOff() }
    }

    func heal() {
        partitioned = false
        if let link { sim.heal(link) }
        for endpoint in probes.keys.sorted() { if let probe = probes[endpoint] { sim.heal(probe) } }
    }

    /// Time passes for this process (its loop wakes at least four times a heartbeat interval); a process started
    /// later has its own.
    private func scheduleTick() {
        let pid = pid
        sim.scheduler.after(sim.config.heartbeatInterval / 4, "host \(name) ticks") { [unowned self] in
            guard core != nil, self.pid == pid else { return }
            if !paused { handle(.tick) }
            scheduleTick()
        }
    }

    private func handle(_ input: HostInput) {
        guard var current = core else { return }
        let reading = current.readsSupervisor
        let actions = current.handle(input, at: sim.time.now)
        core = current
        for action in actions { perform(action) }
        tellFinished()
        if reading, !reads { sim.scheduler.note("host \(name) stops reading the supervisor: its actors are behind") }
    }

    /// The jobs the dispatcher finished, told to the core (the loop's next turn).
    private func tellFinished() {
        guard finished > 0 else { return }
        let done = finished
        finished = 0
        handle(.jobsDone(done))
    }

    private func perform(_ action: HostAction) {
        switch action {
        case .send(let message):
            if let link { sim.send(message.bytes, toSupervisorOn: link) }
        case .job(let job):
            if behindUntil == nil {
                dispatch(job)
                finished += 1
            } else {
                backlog.append(job)
            }
        case .log(let level, let message, _): sim.log("host \(name) \(level): \(message)")
        case .connect(let next): turn(to: next)
        case .probe(let other): probe(other)
        case .resume:
            break  // no controller code sends requests
        }
    }

    /// The dispatcher's work, as the real one does it (``Dispatcher``), without controller code.
    private func dispatch(_ job: HostJob) {
        switch job {
        case .adopt(let welcome):
            sim.scheduler.note(
                "host \(name) adopts \(welcome.controllers.count) controllers at seq \(welcome.seq)"
                    + (welcome.restore ? ", restored" : "")
            )
            let kept = Set(welcome.controllers.map(\.id))
            for id in actors.keys where !kept.contains(id) { actors[id] = nil }
            for controller in welcome.controllers {
                var actor = actors[controller.id] ?? Actor()
                if welcome.restore {
                    // Restored: what it received before is superseded by the state.
                    actor.lastSeq = max(actor.lastSeq, welcome.seq)
                    actor.restoredSeq = welcome.seq
                    actor.digest = CallbackDigest()
                    actor.seqs = []
                }
                actors[controller.id] = actor
            }
        case .deliver(let events, _):
            for event in events {
                guard let kind = event.eventKind else { continue }
                switch HostDelivery(kind) {
                case .makeActor: if actors[event.controller] == nil { actors[event.controller] = Actor() }
                case .endActor: actors[event.controller] = nil
                case .callback:
                    guard var actor = actors[event.controller], event.seq > actor.lastSeq else {
                        sim.scheduler.note("host \(name): \(event.controller) drops seq \(event.seq)")
                        continue
                    }
                    if sim.settings.sabotage == .dropCallback, !sim.sabotaged {
                        sim.sabotaged = true
                        continue
                    }
                    sim.scheduler.note("host \(name): \(event.controller) gets seq \(event.seq)")
                    actor.lastSeq = event.seq
                    actor.digest.add(seq: event.seq)
                    actor.seqs.append(event.seq)
                    actors[event.controller] = actor
                case .notForHosts: continue
                }
            }
        case .inspect(let requestID, let controller):
            var report = InspectReport(controller: controller, host: name)
            if let actor = actors[controller] {
                report.receivedCount = actor.digest.count
                report.receivedDigest = actor.digest.hash
                report.restoredSeq = actor.restoredSeq
            }
            perform(.send(.inspected(requestID: requestID, report)))
        case .question(let asked):
            answer(asked)
        case .trace(let requestID, let commandID):
            // A simulated host runs no actors' code: it keeps no spans.
            perform(.send(.traced(requestID: requestID, TraceReport(commandID: commandID, spans: []))))
        }
    }

    /// A form's code answers `asked` in its own time: mostly within a few milliseconds, one question in twenty past
    /// the answer timeout (the supervisor has gone on without it, and drops it). A process that is stopped answers
    /// once it continues; one killed meanwhile never does.
    private func answer(_ asked: AskedQuestion) {
        let answer: Answer =
            if asked.kind == Self.answeringKind.rawValue, let question = asked.question {
                FormBehavior.answer(question, for: asked.controller)
            } else {
                .nothing
            }
        let timeout = sim.config.answerTimeout
        let delay =
            sim.scheduler.chance(0.05)
            ? sim.scheduler.duration(timeout, timeout + .milliseconds(200))
            : sim.scheduler.duration(.microseconds(100), .milliseconds(5))
        let pid = pid
        sim.scheduler.after(delay, "host \(name) answers question \(asked.id) of \(asked.controller)") {
            [unowned self] in
            guard core != nil, self.pid == pid else { return }
            let message = HostOutbound.answer(questionID: asked.id, controller: asked.controller, answer)
            if paused {
                deferred.append(message)
            } else {
                perform(.send(message))
            }
        }
    }
}

extension SimHost: LinkEnd {
    /// A message, on the connection of now or on one that went meanwhile (what a DEALER had received it still hands
    /// over); none for a process that died.
    func arrived(_ bytes: [UInt8], on link: Link) {
        guard core != nil, processLinks.contains(ObjectIdentifier(link)) else { return }
        if paused || (!isProbe(link) && (!reads || !waiting.isEmpty)) {
            waiting.append((bytes, link))
            return
        }
        take(bytes, from: link)
    }

    private func take(_ bytes: [UInt8], from link: Link) {
        link.unread -= 1
        guard let message = try? HostInbound(decoding: bytes) else {
            sim.fail("host \(name) received a message it cannot decode")
            return
        }
        if let endpoint = probes.first(where: { $0.value === link })?.key {
            handle(.probed(endpoint: endpoint, message))
        } else {
            if case .welcome = message {
                welcomedOn = ObjectIdentifier(link)
                wasWelcomed = true
            }
            handle(.message(message))
        }
    }

    /// The supervisor's socket closed a connection of this process: the monitor of the one talked to reports it.
    func dropped(_ link: Link) {
        guard core != nil, link === self.link else { return }
        monitorReports(link)
    }

    /// The connection's monitor reports its drop to the process that made it, a moment later.
    private func monitorReports(_ link: Link) {
        let endpoint = link.supervisor.endpoint
        let pid = pid
        sim.scheduler.after(sim.scheduler.duration(.zero, .milliseconds(5)), "host \(name)'s monitor") {
            [unowned self] in
            guard self.pid == pid else { return }
            if reads { handle(.dropped(endpoint: endpoint)) } else { unreadDrops.append(endpoint) }
        }
    }
}
