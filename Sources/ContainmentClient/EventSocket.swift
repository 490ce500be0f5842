import ContainmentBus
import ContainmentConfig
import Synchronization
import ZeroMQ

/// A subscriber's socket on the supervisor's event endpoint: the one way `watch`, the inspector, the load machinery
/// and ``RuntimeSubscriber`` subscribe. It subscribes to the topics given (every event by default) and to heartbeats,
/// bounds what it queues (a slower reader loses events, which shows as a gap in their seqs), and notices a refusal at
/// the handshake (`maxSubscribers` connected, or a key not allowed), which libzmq never retries.
///
/// Not `Sendable`: it owns sockets. Use it on the thread that made it.
package final class EventSocket {
    /// What one receive brought.
    package enum Received {
        /// An event, with its bytes as published.
        case event(BusEvent, bytes: [UInt8])
        case heartbeat(BusHeartbeat)
        /// Frames that are not an event or a heartbeat (not two frames, or bytes that do not decode).
        case undecodable
        /// The supervisor refused this subscriber at its handshake: final.
        case refused
        /// Nothing within the receive timeout.
        case nothing
    }

    private let subscriber: Socket
    private let monitor: Socket
    /// Monitors are inproc endpoints of the context: one name each.
    private static let monitors = Atomic<Int>(0)

    /// Connects to `endpoint`. `bound`: the events queued at most (0: no bound — an instrument that must see every
    /// event); `wake`: how long a receive waits.
    package convenience init(
        context: Context,
        endpoint: String,
        keys: CurveClientKeys?,
        topics: [String] = [],
        bound: Int,
        wake: Duration
    ) throws(ZMQError) {
        try self.init(context: context, endpoints: [endpoint], keys: keys, topics: topics, bound: bound, wake: wake)
    }

    /// Connects to every one of `endpoints`: a replicated runtime's supervisors, of which only the leader publishes,
    /// so the events of whichever leads arrive — a new leader's under its new epoch.
    package init(
        context: Context,
        endpoints: [String],
        keys: CurveClientKeys?,
        topics: [String] = [],
        bound: Int,
        wake: Duration
    ) throws(ZMQError) {
        subscriber = try context.socket(.sub)
        if let keys { try subscriber.makeCurveClient(keys) }
        try subscriber.set(.receiveHighWaterMark, to: bound)
        let number = Self.monitors.add(1, ordering: .relaxed).newValue
        let monitorEndpoint = "inproc://event-socket-monitor-\(number)"
        try subscriber.monitor(monitorEndpoint, events: [.handshakeFailedAuth])
        monitor = try context.socket(.pair)
        try monitor.connect(monitorEndpoint)
        for endpoint in endpoints { try subscriber.connect(endpoint) }
        for prefix in topics.isEmpty ? [""] : topics { try subscriber.subscribe(prefix) }
        if !topics.isEmpty { try subscriber.subscribe(Publication.heartbeatTopic) }
        try subscriber.set(.receiveTimeout, to: wake)
    }

    /// The next thing published, decoded; waits at most the receive timeout.
    package func receive() throws(ZMQError) -> Received {
        guard let frames = try receiveFrames() else {
            return try refusedSinceLastLook() ? .refused : .nothing
        }
        switch Publication(frames: frames) {
        case .event(let event): return .event(event, bytes: frames[1])
        case .heartbeat(let beat): return .heartbeat(beat)
        case nil: return .undecodable
        }
    }

    /// The next message's frames as published, undecoded (`nil` after the receive timeout): for an instrument that
    /// reads only the seq.
    package func receiveFrames() throws(ZMQError) -> [[UInt8]]? {
        try subscriber.receive()
    }

    /// Whether the handshake was refused since the last look.
    package func refusedSinceLastLook() throws(ZMQError) -> Bool {
        while let frames = try monitor.receive(dontWait: true) {
            if SocketEvent(frames: frames)?.kind == .handshakeFailedAuth { return true }
        }
        return false
    }

    /// Closes both sockets, so the context can terminate.
    package func close() {
        monitor.close()
        subscriber.close()
    }
}

extension EventSocket {
    /// A subscriber with a ZeroMQ context of its own (its socket keeps the context alive).
    package convenience init(
        ownContextTo endpoints: [String],
        keys: CurveClientKeys?,
        topics: [String] = [],
        bound: Int,
        wake: Duration
    ) throws(ZMQError) {
        try self.init(
            context: try Context(),
            endpoints: endpoints,
            keys: keys,
            topics: topics,
            bound: bound,
            wake: wake
        )
    }
}
