import ContainmentBus
import ContainmentModel
import ContainmentRuntime
import Foundation
import Logging
import Synchronization
import ZeroMQ

/// Work the host loop hands to the dispatcher, in the order it arrived.
enum HostJob: Sendable {
    /// The supervisor's welcome: the controllers this host runs (and whether new actors begin from their state).
    case adopt(HostWelcome)
    /// Callbacks, creations and destructions, in event order.
    case deliver([BusEvent])
    /// A forwarded inspect: answer with the controller's callbacks.
    case inspect(requestID: UInt64, controller: ControllerID)
    /// A question to a controller's code (SPEC §15).
    case question(AskedQuestion)
}

/// How many jobs the host loop handed the dispatcher that it has not finished: the loop stops reading the supervisor's
/// messages while ``HostLoop/maxQueuedJobs`` wait, so back-pressure from the actors' mailboxes reaches the supervisor
/// (as a connection that fills up) instead of memory here.
final class QueuedJobs: Sendable {
    private let value = Atomic<Int>(0)

    var count: Int { value.load(ordering: .acquiring) }
    func add() { value.add(1, ordering: .releasing) }
    func done() { value.subtract(1, ordering: .releasing) }
}

/// What the actors' ``Outbox`` hands the host loop over its inproc socket: a message for the supervisor, or the order
/// to say goodbye and stop. Two frames (a tag, the message) or one (the tag).
enum LoopMail: Equatable {
    case forward([UInt8])
    case stop

    private static let forwardTag: UInt8 = 1
    private static let stopTag: UInt8 = 2

    var frames: [[UInt8]] {
        switch self {
        case .forward(let message): [[Self.forwardTag], message]
        case .stop: [[Self.stopTag]]
        }
    }

    init?(_ frames: [[UInt8]]) {
        switch frames.first {
        case [Self.forwardTag] where frames.count == 2: self = .forward(frames[1])
        case [Self.stopTag] where frames.count == 1: self = .stop
        default: return nil
        }
    }
}

/// A host's socket loop, on a thread of its own: the DEALER to the supervisor and the inproc PULL its actors write
/// to. It registers, beats, forwards the actors' requests, resumes their replies, and hands deliveries to the
/// dispatcher in order. Not `Sendable`: it owns the sockets.
final class HostLoop {
    /// Jobs waiting for the dispatcher before the loop stops reading the supervisor's messages.
    static let maxQueuedJobs = 256
    /// Request ids of the loop's own messages.
    private static let helloID: UInt64 = 1

    let name: String
    /// The verbs its kinds expose, told in every Hello.
    let kinds: [KindOffer]
    let config: RuntimeConfig
    let logger: Logger
    let dealer: Socket
    let inbox: Socket
    let runtime: HostRuntime
    let jobs: AsyncStream<HostJob>.Continuation
    let queued: QueuedJobs
    private let clock = ContinuousClock()
    /// Where this host stands with the supervisor.
    private enum Registration {
        /// Not welcomed (yet, or again: the supervisor restarted): the last hello went at `lastHello` (nil: none
        /// yet), and the next goes `backoff` after it — doubling up to 8 heartbeat intervals.
        case greeting(lastHello: ContinuousClock.Instant?, backoff: Duration)
        /// Welcomed: a heartbeat every interval, the last at `lastBeat`.
        case registered(lastBeat: ContinuousClock.Instant)
    }
    private var registration: Registration
    /// The highest seq delivered to this host so far (told in every Hello).
    private var lastDelivered: UInt64 = 0

    init(
        name: String,
        context: Context,
        config: RuntimeConfig,
        inboxEndpoint: String,
        runtime: HostRuntime,
        jobs: AsyncStream<HostJob>.Continuation,
        queued: QueuedJobs,
        kinds: [KindOffer] = [],
        logger: Logger
    ) throws {
        self.name = name
        self.kinds = kinds
        self.queued = queued
        self.config = config
        self.logger = logger
        self.runtime = runtime
        self.jobs = jobs
        dealer = try context.socket(.dealer)
        // With CURVE, this host's own key: the supervisor admits it as this host only.
        if let keys = try config.clientKeys(host: name) { try dealer.makeCurveClient(keys) }
        try dealer.set(.sendHighWaterMark, to: 0)
        // Bounded: while the dispatcher is behind, what the supervisor sends waits in its own queue for this host.
        try dealer.set(.receiveHighWaterMark, to: 1_000)
        inbox = try context.socket(.pull)
        try inbox.set(.receiveHighWaterMark, to: 0)
        try inbox.bind(inboxEndpoint)
        // A replicated runtime's supervisors: this host talks to one, and follows the leader (see `turn(to:)`).
        endpoints = config.commandEndpoints
        endpoint = endpoints[0]
        // When the connection to the supervisor drops, it is greeted again (and the next tried when it stays silent).
        let monitorEndpoint = "inproc://host-loop-monitor-\(Self.monitors.add(1, ordering: .relaxed).newValue)"
        try dealer.monitor(monitorEndpoint, events: [.disconnected])
        connection = try context.socket(.pair)
        try connection.connect(monitorEndpoint)
        try dealer.connect(endpoint)
        // One probe per supervisor, when there are several (see `probe()`).
        if endpoints.count > 1 {
            for other in endpoints {
                let socket = try context.socket(.dealer)
                if let keys = try config.clientKeys(host: name) { try socket.makeCurveClient(keys) }
                try socket.set(.sendHighWaterMark, to: 4)
                try socket.connect(other)
                probes.append((other, socket))
            }
        }
        registration = .greeting(lastHello: nil, backoff: config.heartbeatInterval)
    }

    /// A replicated runtime's supervisors, each with a socket of its own that asks it, every heartbeat interval, who
    /// leads: a standby answers `notLeader` with the leader's endpoint, the leader anything else (it refuses a
    /// heartbeat from a host not registered with it). So a host finds the new leader even when the old one hangs
    /// (SIGSTOP) without its connection dropping.
    private var probes: [(endpoint: String, socket: Socket)] = []

    /// Reads the probes' answers, turns to the leader when it is not the supervisor talked to, and asks again. The
    /// supervisor talked to is not asked (its own answers say more), and an answer from it is old: dropped.
    private func probe() {
        var leader: String?
        for (other, socket) in probes {
            while let frames = try? socket.receive(dontWait: true) {
                guard other != endpoint, frames.count == 1,
                    case .reply(let reply)? = try? HostInbound(decoding: frames[0])
                else {
                    continue
                }
                if let named = reply.notLeader {
                    if !named.isEmpty { leader = named }
                } else {
                    leader = other
                }
            }
        }
        if let leader, leader != endpoint, endpoints.contains(leader) { turn(to: leader) }
        for (other, socket) in probes where other != endpoint {
            _ = try? socket.send([HostOutbound.heartbeat(host: name).bytes], dontWait: true)
        }
    }

    /// Monitors are inproc endpoints of the context: one name each.
    private static let monitors = Atomic<Int>(0)
    private var lastProbe = ContinuousClock.now
    /// Every supervisor's command endpoint, and the one this host talks to now.
    private let endpoints: [String]
    private var endpoint: String
    /// The dealer's connection events (disconnected).
    private let connection: Socket

    /// Talks to supervisor `next` from now on, and registers with it (it leads, or names who does).
    private func turn(to next: String) {
        guard next != endpoint else { return }
        if connect(to: next) {
            logger.info("host turns to another supervisor", metadata: ["endpoint.command": "\(next)"])
        }
        registration = .greeting(lastHello: nil, backoff: config.heartbeatInterval)
        hello()
    }

    /// Leaves the supervisor talked to for `next`; false when it cannot connect. The probes' answers not read yet
    /// were asked before: who led then, not now (read later, they would turn this host back): dropped.
    private func connect(to next: String) -> Bool {
        for (_, socket) in probes {
            while (try? socket.receive(dontWait: true)) != nil {}
        }
        do {
            try? dealer.disconnect(endpoint)
            try dealer.connect(next)
            endpoint = next
            return true
        } catch {
            logger.warning("cannot connect to a supervisor", metadata: ["error.message": "\(error)"])
            return false
        }
    }

    /// The supervisor after the one talked to now.
    private var nextEndpoint: String {
        endpoints[((endpoints.firstIndex(of: endpoint) ?? 0) + 1) % endpoints.count]
    }

    /// Whether the connection to the supervisor talked to now dropped since the last look. (Leaving one for another
    /// drops the old connection too: that is not news.)
    private func dropped() throws(ZMQError) -> Bool {
        var dropped = false
        while let frames = try connection.receive(dontWait: true) {
            guard let event = SocketEvent(frames: frames), event.kind == .disconnected else { continue }
            if event.endpoint == endpoint { dropped = true }
        }
        return dropped
    }

    /// Serves until told to stop (a goodbye is sent) or the context is shut down.
    func run() {
        defer {
            jobs.finish()
            runtime.replies.failAll(ContainmentError(.hostUnavailable, "Host \(name) is stopping."))
        }
        var poller = Poller()
        poller.register(inbox)
        poller.register(dealer)
        poller.register(connection)
        // While the dispatcher is behind: only the actors' requests, and a look again soon.
        var inboxOnly = Poller()
        inboxOnly.register(inbox)
        hello()
        while true {
            do {
                let reading = queued.count < Self.maxQueuedJobs
                let ready =
                    reading
                    ? try poller.poll(timeout: config.heartbeatInterval)
                    : try inboxOnly.poll(timeout: min(config.heartbeatInterval, .milliseconds(5)))
                for item in ready {
                    if item.index == 2 {
                        // The supervisor talked to died, or — a standby that now leads — bound its socket anew:
                        // greeted again, it answers once it is back; silent, the greeting moves on (`tick()`).
                        if try dropped(), endpoints.count > 1 {
                            registration = .greeting(lastHello: nil, backoff: config.heartbeatInterval)
                            hello()
                        }
                    } else if item.index == 1 {
                        try drainDealer()
                    } else if try !drainInbox() {
                        sendGoodbye()
                        return
                    }
                }
                tick()
            } catch let error where error.code == .contextTerminated {
                return
            } catch {
                logger.error("host loop error", metadata: ["error.message": "\(error)"])
            }
        }
    }

    private func hello() {
        if case .greeting(_, let backoff) = registration {
            registration = .greeting(lastHello: clock.now, backoff: backoff)
        }
        send(.hello(requestID: Self.helloID, host: name, pid: getpid(), lastSeq: lastDelivered, kinds: kinds))
    }

    private func sendGoodbye() {
        send(.goodbye(host: name))
        logger.info("host said goodbye", metadata: ["host.name": "\(name)"])
    }

    /// Heartbeats; registration again when the supervisor has not welcomed us (it may have restarted).
    private func tick() {
        let now = clock.now
        if !probes.isEmpty, now - lastProbe >= config.heartbeatInterval {
            lastProbe = now
            probe()
        }
        switch registration {
        case .greeting(let last, let backoff):
            if let last, now - last >= backoff {
                registration = .greeting(lastHello: last, backoff: min(backoff * 2, config.heartbeatInterval * 8))
                // Not welcomed: with several supervisors, the next may lead (or name the one that does).
                if endpoints.count > 1 { _ = connect(to: nextEndpoint) }
                hello()
            }
        case .registered(let lastBeat):
            if now - lastBeat >= config.heartbeatInterval {
                registration = .registered(lastBeat: now)
                send(.heartbeat(host: name))
            }
        }
    }

    private func send(_ message: HostOutbound) {
        do {
            _ = try dealer.send([message.bytes], dontWait: true)
        } catch {
            logger.warning("cannot send to the supervisor", metadata: ["error.message": "\(error)"])
        }
    }

    private func drainDealer() throws(ZMQError) {
        while queued.count < Self.maxQueuedJobs, let frames = try dealer.receive(dontWait: true) {
            guard frames.count == 1, let message = try? HostInbound(decoding: frames[0]) else {
                logger.warning("dropped a malformed message from the supervisor")
                continue
            }
            handle(message)
        }
    }

    private func handle(_ message: HostInbound) {
        switch message {
        case .reply(let reply) where reply.notLeader != nil:
            // A standby: to the leader it names; while none leads, the greeting goes on (tick's backoff).
            if let leader = reply.notLeader, !leader.isEmpty, endpoints.contains(leader) {
                turn(to: leader)
            } else if case .registered = registration {
                registration = .greeting(lastHello: clock.now, backoff: config.heartbeatInterval)
            }
        case .welcome(let welcome):
            registration = .registered(lastBeat: clock.now)
            logger.info(
                "host registered",
                metadata: ["host.name": "\(name)", "controller.count": "\(welcome.controllers.count)"]
            )
            queue(.adopt(welcome))
        case .delivery(let events):
            for event in events where event.seq > lastDelivered { lastDelivered = event.seq }
            queue(.deliver(events))
        case .inspect(let requestID, let controller):
            queue(.inspect(requestID: requestID, controller: controller))
        case .question(let question):
            queue(.question(question))
        case .reply(let reply) where reply.requestID == 0 && reply.refusal?.error.code == .hostUnavailable:
            // The supervisor does not know us (it restarted): register again — once, however many heartbeats queued
            // while it was away are refused; `tick` says hello again (with backoff) if no welcome comes.
            guard case .registered = registration else { return }
            registration = .greeting(lastHello: nil, backoff: config.heartbeatInterval)
            hello()
        case .reply(let reply) where reply.requestID == Self.helloID:
            if let refusal = reply.refusal?.error {
                logger.error(
                    "the supervisor refused this host",
                    metadata: ["error.code": "\(refusal.code)", "error.message": "\(refusal.message)"]
                )
            }
        case .reply(let reply):
            if !runtime.replies.resume(reply) {
                logger.debug("dropped a reply nobody waits for", metadata: ["request.id": "\(reply.requestID)"])
            }
        }
    }

    /// Hands a job to the dispatcher, counted until it is done.
    private func queue(_ job: HostJob) {
        queued.add()
        jobs.yield(job)
    }

    /// Forwards what the actors sent; false when told to stop.
    private func drainInbox() throws(ZMQError) -> Bool {
        while let frames = try inbox.receive(dontWait: true) {
            switch LoopMail(frames) {
            case .forward(let message): _ = try dealer.send([message], dontWait: true)
            case .stop: return false
            case nil: logger.warning("dropped a malformed message of the host's own outbox")
            }
        }
        return true
    }
}
