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
        var pending: [WireEvent] = []
        var everConnected = false
    }

    struct TransitionTimer {
        var deadline: ContinuousClock.Instant
        var transition: RunningTransition
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

    init(context: Context, config: RuntimeConfig, logger: Logger) throws {
        self.config = config
        self.logger = logger
        router = try context.socket(.router)
        publisher = try context.socket(.pub)
        try router.set(.routerMandatory, to: true)
        try router.set(.sendHighWaterMark, to: 0)
        try publisher.set(.sendHighWaterMark, to: 1_000_000)
        journal = try JournalWriter(path: config.journalPath)
        try router.bind(config.commandEndpoint)
        try publisher.bind(config.eventEndpoint)
    }

    /// Applies a topology at start, as the commands it stands for.
    func apply(_ topology: Topology) throws {
        for host in topology.hosts where hosts[host] == nil {
            hosts[host] = HostRecord(name: host, lastSeen: clock.now)
        }
        for (request, host) in topology.requests() {
            var wire = WireCommand(request, host: host)
            if request.by == .natural { wire.by = "" }
            if let error = submit([wire], from: nil) {
                throw ConfigError("The topology's \(request.command.name) was rejected: \(error.error)")
            }
        }
    }

    /// Serves until the context is shut down (graceful shutdown), then returns.
    func run() {
        var poller = Poller()
        poller.register(router)
        logger.info(
            "supervisor serving",
            metadata: ["command": "\(config.commandEndpoint)", "events": "\(config.eventEndpoint)"]
        )
        while true {
            do {
                let ready = try poller.poll(timeout: nextWakeUp())
                if !ready.isEmpty { try drainRouter() }
                fireTimers()
                checkHeartbeats()
                expireInspects()
            } catch let error where error.code == .contextTerminated {
                break
            } catch {
                logger.error("supervisor loop error: \(error)")
            }
        }
        logger.info("supervisor stopped", metadata: ["seq": "\(seq)"])
    }

    /// How long the loop may sleep: until the next transition completes or the next heartbeat check.
    private func nextWakeUp() -> Duration {
        var wait = config.heartbeatInterval
        let now = clock.now
        for timer in timers { wait = min(wait, max(.zero, timer.deadline - now)) }
        for inspect in inspects.values { wait = min(wait, max(.zero, inspect.deadline - now)) }
        return wait
    }

    /// Handles every message waiting on the ROUTER.
    private func drainRouter() throws(ZMQError) {
        while let frames = try router.receive(dontWait: true) {
            handle(frames)
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
            if let error = submit(batch.commands, from: sender, requestID: message.requestID) {
                reply(to: sender, requestID: message.requestID, .error(.init(error)))
            }
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
        case nil:
            reply(to: sender, requestID: message.requestID, .error(.init(.malformed("The request has no body."))))
        }
    }

    /// The whole state now.
    func snapshot() -> WireSnapshot {
        WireSnapshot(
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
    }

    // MARK: Sending

    func reply(to peer: [UInt8], requestID: UInt64, _ body: ServerMessage.OneOf_Body) {
        let message = ServerMessage.with {
            $0.requestID = requestID
            $0.body = body
        }
        send(message, to: peer)
    }

    /// Sends to a peer of the ROUTER; false when the peer is gone (libzmq reports it as unreachable).
    @discardableResult
    func send(_ message: ServerMessage, to peer: [UInt8]) -> Bool {
        do {
            return try router.send([peer, message.bytes])
        } catch {
            logger.debug("cannot reach a peer: \(error)")
            return false
        }
    }

    /// Stamps an event with the next sequence number and publishes it.
    @discardableResult
    func publish(_ event: Event, commandID: UInt64, time: Int64) -> WireEvent {
        seq += 1
        let host = event.name == "controllerCreated" ? event.controller.flatMap { hostOf[$0] } ?? "" : ""
        let wire = WireEvent(event, seq: seq, timeUnixNanos: time, commandID: commandID, host: host)
        do {
            _ = try publisher.send([Array(wire.topic.utf8), wire.bytes])
        } catch {
            logger.error("cannot publish event \(seq): \(error)")
        }
        return wire
    }

    static func now() -> Int64 {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        return Int64(spec.tv_sec) * 1_000_000_000 + Int64(spec.tv_nsec)
    }
}
