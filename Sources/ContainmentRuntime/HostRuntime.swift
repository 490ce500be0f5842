import ContainmentBus
import ContainmentModel
import Synchronization
import ZeroMQ

/// What a host's actors share: the way to the supervisor (through the loop's outbox) and the replies awaited.
final class HostRuntime: Sendable {
    let name: String
    let outbox: Outbox
    let replies = PendingReplies()

    init(name: String, outbox: Outbox) {
        self.name = name
        self.outbox = outbox
    }

    /// Sends a request through the host's connection and waits for its reply.
    func request(_ message: ClientMessage) async -> ServerMessage {
        var numbered = message
        numbered.requestID = replies.nextID()
        let id = numbered.requestID
        let outgoing = numbered
        let outbox = outbox
        return await withCheckedContinuation { continuation in
            replies.register(id, continuation)
            Task { await outbox.send(outgoing) }
        }
    }
}

/// Replies awaited by request id; the host loop resumes them as they arrive.
final class PendingReplies: Sendable {
    private let waiting = Mutex<[UInt64: CheckedContinuation<ServerMessage, Never>]>([:])
    /// Ids from 2^32 up, so they never meet the loop's own (hello, heartbeat) or the supervisor's forwarded ones.
    private let next = Mutex<UInt64>(1 << 32)

    func nextID() -> UInt64 {
        next.withLock { value in
            defer { value += 1 }
            return value
        }
    }

    func register(_ id: UInt64, _ continuation: CheckedContinuation<ServerMessage, Never>) {
        waiting.withLock { $0[id] = continuation }
    }

    /// Resumes the request `message` answers; false when nobody waits for it.
    func resume(_ message: ServerMessage) -> Bool {
        guard let continuation = waiting.withLock({ $0.removeValue(forKey: message.requestID) }) else { return false }
        continuation.resume(returning: message)
        return true
    }

    /// Answers every waiting request with `error` (the host is stopping).
    func failAll(_ error: ContainmentError) {
        let all = waiting.withLock { waiting in
            defer { waiting = [:] }
            return waiting
        }
        for (id, continuation) in all {
            continuation.resume(
                returning: .with {
                    $0.requestID = id
                    $0.body = .error(.init(error))
                }
            )
        }
    }
}

/// The actors' way into the host loop: a PUSH socket to the loop's inproc PULL. An actor, so one task at a time
/// uses the socket.
actor Outbox {
    private let socket: Socket

    init(context: Context, endpoint: String) throws(ZMQError) {
        let socket = try context.socket(.push)
        try socket.set(.sendHighWaterMark, to: 0)
        try socket.connect(endpoint)
        self.socket = socket
    }

    func send(_ message: ClientMessage) {
        _ = try? socket.send([message.bytes])
    }

    /// Asks the loop to say goodbye and stop.
    func stop() {
        _ = try? socket.send([HostLoop.stopFrame])
    }

    /// Closes the socket, so the context can terminate.
    func close() {
        socket.close()
    }
}
