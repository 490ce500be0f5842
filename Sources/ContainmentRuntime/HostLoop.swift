import ContainmentBus
import ContainmentModel
import Foundation
import Logging
import ZeroMQ

/// Work the host loop hands to the dispatcher, in the order it arrived.
enum HostJob: Sendable {
    /// The supervisor's welcome: the controllers this host runs (and whether new actors begin from their state).
    case adopt(Containment_V1_Welcome)
    /// Callbacks, creations and destructions, in event order.
    case deliver([WireEvent])
    /// A forwarded inspect: answer with the controller's callbacks.
    case inspect(requestID: UInt64, controller: ControllerID)
}

/// A host's socket loop, on a thread of its own: the DEALER to the supervisor and the inproc PULL its actors write
/// to. It registers, beats, forwards the actors' requests, resumes their replies, and hands deliveries to the
/// dispatcher in order. Not `Sendable`: it owns the sockets.
final class HostLoop {
    static let stopFrame: [UInt8] = Array("stop".utf8)
    /// Request ids of the loop's own messages.
    private static let helloID: UInt64 = 1

    let name: String
    let config: RuntimeConfig
    let logger: Logger
    let dealer: Socket
    let inbox: Socket
    let runtime: HostRuntime
    let jobs: AsyncStream<HostJob>.Continuation
    private let clock = ContinuousClock()
    private var lastBeat: ContinuousClock.Instant
    private var lastHello: ContinuousClock.Instant?
    private var registered = false
    /// The highest seq delivered to this host so far (told in every Hello).
    private var lastDelivered: UInt64 = 0
    /// How long to wait for a welcome before saying hello again: doubles up to 8 heartbeat intervals.
    private var helloBackoff: Duration

    init(
        name: String,
        context: Context,
        config: RuntimeConfig,
        inboxEndpoint: String,
        runtime: HostRuntime,
        jobs: AsyncStream<HostJob>.Continuation,
        logger: Logger
    ) throws {
        self.name = name
        self.config = config
        self.logger = logger
        self.runtime = runtime
        self.jobs = jobs
        dealer = try context.socket(.dealer)
        try dealer.set(.sendHighWaterMark, to: 0)
        try dealer.set(.receiveHighWaterMark, to: 0)
        inbox = try context.socket(.pull)
        try inbox.set(.receiveHighWaterMark, to: 0)
        try inbox.bind(inboxEndpoint)
        try dealer.connect(config.commandEndpoint)
        lastBeat = clock.now
        helloBackoff = config.heartbeatInterval
    }

    /// Serves until told to stop (a goodbye is sent) or the context is shut down.
    func run() {
        defer {
            jobs.finish()
            runtime.replies.failAll(ContainmentError(.hostUnavailable, "Host \(name) is stopping."))
        }
        var poller = Poller()
        poller.register(dealer)
        poller.register(inbox)
        hello()
        while true {
            do {
                let ready = try poller.poll(timeout: config.heartbeatInterval)
                for item in ready {
                    if item.index == 0 {
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
                logger.error("host loop error: \(error)")
            }
        }
    }

    private func hello() {
        lastHello = clock.now
        send(
            .with {
                $0.requestID = Self.helloID
                $0.hello = .with {
                    $0.host = name
                    $0.pid = getpid()
                    $0.protocolVersion = protocolVersion
                    $0.lastSeq = lastDelivered
                }
            }
        )
    }

    private func sendGoodbye() {
        send(.with { $0.goodbye = .with { $0.host = name } })
        logger.info("host said goodbye", metadata: ["host": "\(name)"])
    }

    /// Heartbeats; registration again when the supervisor has not welcomed us (it may have restarted).
    private func tick() {
        let now = clock.now
        if !registered {
            if let last = lastHello, now - last >= helloBackoff {
                helloBackoff = min(helloBackoff * 2, config.heartbeatInterval * 8)
                hello()
            }
            return
        }
        if now - lastBeat >= config.heartbeatInterval {
            lastBeat = now
            send(.with { $0.heartbeat = .with { $0.host = name } })
        }
    }

    private func send(_ message: ClientMessage) {
        do {
            _ = try dealer.send([message.bytes], dontWait: true)
        } catch {
            logger.warning("cannot send to the supervisor: \(error)")
        }
    }

    private func drainDealer() throws(ZMQError) {
        while let frames = try dealer.receive(dontWait: true) {
            guard frames.count == 1, let message = try? ServerMessage.decode(frames[0]) else {
                logger.warning("dropped a malformed message from the supervisor")
                continue
            }
            handle(message)
        }
    }

    private func handle(_ message: ServerMessage) {
        switch message.body {
        case .welcome(let welcome):
            registered = true
            helloBackoff = config.heartbeatInterval
            logger.info(
                "host registered",
                metadata: ["host": "\(name)", "controllers": "\(welcome.controllers.count)"]
            )
            jobs.yield(.adopt(welcome))
        case .delivery(let delivery):
            for event in delivery.events where event.seq > lastDelivered { lastDelivered = event.seq }
            jobs.yield(.deliver(delivery.events))
        case .inspect(let request):
            jobs.yield(.inspect(requestID: message.requestID, controller: ControllerID(request.controller)))
        case .error(let error)
        where message.requestID == 0 && error.code == ContainmentError.Code.hostUnavailable.rawValue:
            // The supervisor does not know us (it restarted): register again — once, however many heartbeats queued
            // while it was away are refused; `tick` says hello again (with backoff) if no welcome comes.
            guard registered else { return }
            registered = false
            helloBackoff = config.heartbeatInterval
            hello()
        case .error(let error) where message.requestID == Self.helloID:
            logger.error("the supervisor refused this host: \(error.code): \(error.message)")
        default:
            if !runtime.replies.resume(message) {
                logger.debug("dropped a reply nobody waits for", metadata: ["request": "\(message.requestID)"])
            }
        }
    }

    /// Forwards what the actors sent; false when told to stop.
    private func drainInbox() throws(ZMQError) -> Bool {
        while let frames = try inbox.receive(dontWait: true) {
            guard let frame = frames.first else { continue }
            if frame == Self.stopFrame { return false }
            _ = try dealer.send([frame], dontWait: true)
        }
        return true
    }
}
