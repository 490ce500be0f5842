import ContainmentBus
import ContainmentModel
import ContainmentConfig
import Foundation
import Logging
import Synchronization
import ZeroMQ

/// Work the host loop hands to the dispatcher, in the order it arrived.
package enum HostJob: Sendable {
    /// The supervisor's welcome: the controllers this host runs (and whether new actors begin from their state).
    case adopt(HostWelcome)
    /// Callbacks, creations and destructions, in event order; the traced commands among theirs (docs/PROTOCOL.md,
    /// "Tracing").
    case deliver([BusEvent], traces: [DeliveryTrace] = [])
    /// A forwarded trace request: answer with this process's spans of command `commandID`.
    case trace(requestID: UInt64, commandID: UInt64)
    /// A forwarded inspect: answer with the controller's callbacks.
    case inspect(requestID: UInt64, controller: ControllerID)
    /// A question to a controller's code (SPEC §15).
    case question(AskedQuestion)
}

/// The jobs the dispatcher finished since the host loop last looked: the loop tells its ``HostCore``
/// (``HostInput/jobsDone(_:)``), which stops reading the supervisor's messages while too many wait
/// (``HostCore/readsSupervisor``).
package final class FinishedJobs: Sendable {
    private let value = Atomic<Int>(0)

    package init() {}

    /// One job done (the dispatcher).
    func done() { value.add(1, ordering: .releasing) }
    /// The jobs done since the last call (the loop).
    func take() -> Int { value.exchange(0, ordering: .acquiring) }
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

/// A host's socket loop, on a thread of its own: the DEALER to the supervisor (and, with several supervisors, a probe of
/// each) and the inproc PULL its actors write to. Its ``HostCore`` registers, beats, follows the leader and says what
/// the supervisor's messages are; the loop carries that out, forwards the actors' requests and hands the dispatcher its
/// jobs in order. Not `Sendable`: it owns the sockets.
final class HostLoop {
    let config: RuntimeConfig
    let logger: Logger
    let dealer: Socket
    let inbox: Socket
    let runtime: HostRuntime
    let jobs: AsyncStream<HostJob>.Continuation
    let finished: FinishedJobs
    private let clock = ContinuousClock()
    private var core: HostCore
    /// A replicated runtime's supervisors, each with a socket of its own that asks it, every heartbeat interval, who
    /// leads: a standby answers `notLeader` with the leader's endpoint, the leader anything else (it refuses a
    /// heartbeat from a host not registered with it). So a host finds the new leader even when the old one hangs
    /// (SIGSTOP) without its connection dropping.
    private var probes: [(endpoint: String, socket: Socket)] = []
    /// Monitors are inproc endpoints of the context: one name each.
    private static let monitors = Atomic<Int>(0)
    /// The dealer's connection events (disconnected).
    private let connection: Socket

    init(
        name: String,
        context: Context,
        config: RuntimeConfig,
        inboxEndpoint: String,
        runtime: HostRuntime,
        jobs: AsyncStream<HostJob>.Continuation,
        finished: FinishedJobs,
        kinds: [KindOffer] = [],
        logger: Logger
    ) throws {
        self.finished = finished
        self.config = config
        self.logger = logger
        self.runtime = runtime
        self.jobs = jobs
        // A replicated runtime's supervisors: this host talks to one, and follows the leader.
        core = HostCore(
            name: name,
            pid: getpid(),
            kinds: kinds,
            heartbeatInterval: config.heartbeatInterval,
            endpoints: config.commandEndpoints,
            at: clock.now
        )
        dealer = try context.socket(.dealer)
        // With CURVE, this host's own key: the supervisor admits it as this host only.
        if let keys = try config.clientKeys(host: name) { try dealer.makeCurveClient(keys) }
        try dealer.set(.sendHighWaterMark, to: 0)
        // Bounded: while the dispatcher is behind, what the supervisor sends waits in its own queue for this host.
        try dealer.set(.receiveHighWaterMark, to: 1_000)
        inbox = try context.socket(.pull)
        try inbox.set(.receiveHighWaterMark, to: 0)
        try inbox.bind(inboxEndpoint)
        // When the connection to the supervisor drops, it is greeted again (and the next tried when it stays silent).
        let monitorEndpoint = "inproc://host-loop-monitor-\(Self.monitors.add(1, ordering: .relaxed).newValue)"
        try dealer.monitor(monitorEndpoint, events: [.disconnected])
        connection = try context.socket(.pair)
        try connection.connect(monitorEndpoint)
        try dealer.connect(core.endpoint)
        // One probe per supervisor, when there are several.
        if core.endpoints.count > 1 {
            for other in core.endpoints {
                let socket = try context.socket(.dealer)
                if let keys = try config.clientKeys(host: name) { try socket.makeCurveClient(keys) }
                try socket.set(.sendHighWaterMark, to: 4)
                try socket.connect(other)
                probes.append((other, socket))
            }
        }
    }

    /// Serves until told to stop (a goodbye is sent) or the context is shut down.
    func run() {
        defer {
            jobs.finish()
            runtime.replies.failAll(ContainmentError(.hostUnavailable, "Host \(core.name) is stopping."))
        }
        var poller = Poller()
        poller.register(inbox)
        poller.register(dealer)
        poller.register(connection)
        // While the dispatcher is behind: only the actors' requests, and a look again soon.
        var inboxOnly = Poller()
        inboxOnly.register(inbox)
        handle(.start)
        while true {
            do {
                if case let done = finished.take(), done > 0 { handle(.jobsDone(done)) }
                let reading = core.readsSupervisor
                let ready =
                    reading
                    ? try poller.poll(timeout: config.heartbeatInterval)
                    : try inboxOnly.poll(timeout: min(config.heartbeatInterval, .milliseconds(5)))
                for item in ready {
                    if item.index == 2 {
                        for endpoint in try droppedEndpoints() { handle(.dropped(endpoint: endpoint)) }
                    } else if item.index == 1 {
                        try drainDealer()
                    } else if try !drainInbox() {
                        sendGoodbye()
                        return
                    }
                }
                readProbes()
                handle(.tick)
            } catch let error where error.code == .contextTerminated {
                return
            } catch {
                logger.error("host loop error", metadata: ["error.message": "\(error)"])
            }
        }
    }

    /// Gives the core an input and carries out what it decides.
    private func handle(_ input: HostInput) {
        for action in core.handle(input, at: clock.now) {
            switch action {
            case .send(let message): send(message)
            case .connect(let next): connect(to: next)
            case .probe(let other):
                for (endpoint, socket) in probes where endpoint == other {
                    _ = try? socket.send([HostOutbound.heartbeat(host: core.name).bytes], dontWait: true)
                }
            case .job(let job): jobs.yield(job)
            case .resume(let reply):
                if !runtime.replies.resume(reply) {
                    logger.debug("dropped a reply nobody waits for", metadata: ["request.id": "\(reply.requestID)"])
                }
            case .log(let level, let message, let metadata): logger.log(level: level, message, metadata: metadata)
            }
        }
    }

    /// Leaves the supervisor talked to for `next`. The probes' answers not read yet were asked before: who led then,
    /// not now (read later, they would turn this host back): dropped.
    private func connect(to next: String) {
        for (_, socket) in probes {
            while (try? socket.receive(dontWait: true)) != nil {}
        }
        do {
            for other in core.endpoints where other != next { try? dealer.disconnect(other) }
            try dealer.connect(next)
        } catch {
            logger.warning("cannot connect to a supervisor", metadata: ["error.message": "\(error)"])
        }
    }

    /// The probes' answers, each given to the core (which drops those of the supervisor talked to).
    private func readProbes() {
        for (other, socket) in probes {
            while let frames = try? socket.receive(dontWait: true) {
                guard frames.count == 1, let message = try? HostInbound(decoding: frames[0]) else { continue }
                handle(.probed(endpoint: other, message))
            }
        }
    }

    /// The endpoints whose connection dropped since the last look.
    private func droppedEndpoints() throws(ZMQError) -> [String] {
        var dropped: [String] = []
        while let frames = try connection.receive(dontWait: true) {
            guard let event = SocketEvent(frames: frames), event.kind == .disconnected else { continue }
            if !dropped.contains(event.endpoint) { dropped.append(event.endpoint) }
        }
        return dropped
    }

    private func sendGoodbye() {
        send(.goodbye(host: core.name))
        logger.info("host said goodbye", metadata: ["host.name": "\(core.name)"])
    }

    private func send(_ message: HostOutbound) {
        do {
            _ = try dealer.send([message.bytes], dontWait: true)
        } catch {
            logger.warning("cannot send to the supervisor", metadata: ["error.message": "\(error)"])
        }
    }

    private func drainDealer() throws(ZMQError) {
        while core.readsSupervisor, let frames = try dealer.receive(dontWait: true) {
            guard frames.count == 1, let message = try? HostInbound(decoding: frames[0]) else {
                logger.warning("dropped a malformed message from the supervisor")
                continue
            }
            handle(.message(message))
        }
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
