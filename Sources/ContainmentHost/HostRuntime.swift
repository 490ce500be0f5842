import ContainmentBus
import ContainmentModel
import ContainmentRuntime
import Synchronization
import ZeroMQ

/// What a host's actors share: the way to the supervisor (through the loop's outbox) and the replies awaited.
final class HostRuntime: Sendable {
    let name: String
    let outbox: Outbox
    let replies = PendingReplies()
    /// How long a request waits for its reply (`requestTimeoutMs`).
    let timeout: Duration

    init(name: String, outbox: Outbox, timeout: Duration = .seconds(5)) {
        self.name = name
        self.outbox = outbox
        self.timeout = timeout
    }

    /// Sends a request through the host's connection and waits for its reply — at most ``timeout``, then it is
    /// answered `timeout`; a cancelled task's request is answered `timeout` at once. A late reply is dropped.
    func request(_ request: HostRequest) async -> HostReply {
        let id = replies.nextID()
        let outgoing = HostOutbound.request(requestID: id, request)
        let outbox = outbox
        let replies = replies
        let timeout = timeout
        let deadline = Task {
            try await Task.sleep(for: timeout)
            replies.fail(id, ContainmentError(.timeout, "No reply from the supervisor within \(timeout)."))
        }
        defer { deadline.cancel() }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                replies.register(id, continuation)
                // Cancelled before the handler could find it registered: answered now all the same.
                if Task.isCancelled {
                    replies.fail(id, ContainmentError(.timeout, "The request was cancelled before its reply came."))
                    return
                }
                Task { await outbox.send(outgoing) }
            }
        } onCancel: {
            replies.fail(id, ContainmentError(.timeout, "The request was cancelled before its reply came."))
        }
    }
}

/// Replies awaited by request id; the host loop resumes them as they arrive.
final class PendingReplies: Sendable {
    private let waiting = Mutex<[UInt64: CheckedContinuation<HostReply, Never>]>([:])
    /// Ids from 2^32 up, so they never meet the loop's own (hello, heartbeat) or the supervisor's forwarded ones.
    private let next = Mutex<UInt64>(1 << 32)

    /// How many requests wait for their replies now.
    var waitingCount: Int { waiting.withLock { $0.count } }

    func nextID() -> UInt64 {
        next.withLock { value in
            defer { value += 1 }
            return value
        }
    }

    func register(_ id: UInt64, _ continuation: CheckedContinuation<HostReply, Never>) {
        waiting.withLock { $0[id] = continuation }
    }

    /// Resumes the request `message` answers; false when nobody waits for it.
    func resume(_ reply: HostReply) -> Bool {
        guard let continuation = waiting.withLock({ $0.removeValue(forKey: reply.requestID) }) else { return false }
        continuation.resume(returning: reply)
        return true
    }

    /// Answers request `id` with `error`, if it still waits (its deadline passed, or its task was cancelled).
    func fail(_ id: UInt64, _ error: ContainmentError) {
        guard let continuation = waiting.withLock({ $0.removeValue(forKey: id) }) else { return }
        continuation.resume(returning: .failed(requestID: id, error))
    }

    /// Answers every waiting request with `error` (the host is stopping).
    func failAll(_ error: ContainmentError) {
        let all = waiting.withLock { waiting in
            defer { waiting = [:] }
            return waiting
        }
        for (id, continuation) in all {
            continuation.resume(returning: .failed(requestID: id, error))
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

    func send(_ message: HostOutbound) {
        _ = try? socket.send(LoopMail.forward(message.bytes).frames)
    }

    /// Asks the loop to say goodbye and stop.
    func stop() {
        _ = try? socket.send(LoopMail.stop.frames)
    }

    /// Closes the socket, so the context can terminate.
    func close() {
        socket.close()
    }
}
