import ContainmentBus
import ContainmentModel
import ContainmentConfig
import ContainmentTracing
import Synchronization
import ZeroMQ

/// What a host's actors share: the way to the supervisor (through the loop's outbox) and the replies awaited.
package final class HostRuntime: Sendable {
    let name: String
    let outbox: Outbox
    package let replies: PendingReplies
    /// How long a request waits for its reply (`requestTimeoutMs`).
    let timeout: Duration
    /// Counts the work the actors hold (a world in memory waits until none is left); nil in a host process.
    package let activity: HostActivity?
    /// Where the actors' tasks run: a world in memory's own thread; nil (the concurrency pool) in a host process.
    package let executor: (any TaskExecutor)?
    /// The spans of traced commands' callbacks this process ran (docs/PROTOCOL.md, "Tracing").
    package let spans = SpanRing()

    package init(
        name: String,
        outbox: Outbox,
        timeout: Duration = .seconds(5),
        activity: HostActivity? = nil,
        executor: (any TaskExecutor)? = nil
    ) {
        self.name = name
        self.outbox = outbox
        self.timeout = timeout
        self.activity = activity
        self.executor = executor
        replies = PendingReplies(activity: activity)
    }

    /// Sends a request through the host's connection and waits for its reply — at most ``timeout``, then it is
    /// answered `timeout`; a cancelled task's request is answered `timeout` at once. A late reply is dropped.
    func request(_ request: HostRequest) async -> HostReply {
        let id = replies.nextID()
        let outgoing = HostOutbound.request(requestID: id, request)
        let outbox = outbox
        let replies = replies
        let timeout = timeout
        let activity = activity
        let executor = executor
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
                    activity?.end()
                    return
                }
                // From the moment it is out, this work waits for the supervisor (counted again when answered).
                Task(executorPreference: executor) {
                    await outbox.send(outgoing)
                    activity?.end()
                }
            }
        } onCancel: {
            replies.fail(id, ContainmentError(.timeout, "The request was cancelled before its reply came."))
        }
    }
}

/// Replies awaited by request id; the host loop resumes them as they arrive.
package final class PendingReplies: Sendable {
    private let waiting = Mutex<[UInt64: CheckedContinuation<HostReply, Never>]>([:])
    /// The host's work counted: a request answered is work again, counted before its code goes on.
    private let activity: HostActivity?

    init(activity: HostActivity? = nil) { self.activity = activity }
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
    package func resume(_ reply: HostReply) -> Bool {
        guard let continuation = waiting.withLock({ $0.removeValue(forKey: reply.requestID) }) else { return false }
        activity?.begin()
        continuation.resume(returning: reply)
        return true
    }

    /// Answers request `id` with `error`, if it still waits (its deadline passed, or its task was cancelled).
    func fail(_ id: UInt64, _ error: ContainmentError) {
        guard let continuation = waiting.withLock({ $0.removeValue(forKey: id) }) else { return }
        activity?.begin()
        continuation.resume(returning: .failed(requestID: id, error))
    }

    /// Answers every waiting request with `error` (the host is stopping).
    package func failAll(_ error: ContainmentError) {
        let all = waiting.withLock { waiting in
            defer { waiting = [:] }
            return waiting
        }
        for (id, continuation) in all {
            activity?.begin()
            continuation.resume(returning: .failed(requestID: id, error))
        }
    }
}

/// The actors' way into the host loop: a PUSH socket to the loop's inproc PULL — or, in a world held in memory (the
/// test kit's), a function that takes each message in order. An actor, so one task at a time uses the socket.
package actor Outbox {
    private enum Way {
        case socket(Socket)
        case memory(@Sendable (HostOutbound) -> Void)
    }

    private let way: Way

    init(context: Context, endpoint: String) throws(ZMQError) {
        let socket = try context.socket(.push)
        try socket.set(.sendHighWaterMark, to: 0)
        try socket.connect(endpoint)
        way = .socket(socket)
    }

    /// An outbox whose messages `take` receives, in the order the actors send them.
    package init(_ take: @escaping @Sendable (HostOutbound) -> Void) {
        way = .memory(take)
    }

    func send(_ message: HostOutbound) {
        switch way {
        case .socket(let socket): _ = try? socket.send(LoopMail.forward(message.bytes).frames)
        case .memory(let take): take(message)
        }
    }

    /// Asks the loop to say goodbye and stop.
    func stop() {
        guard case .socket(let socket) = way else { return }
        _ = try? socket.send(LoopMail.stop.frames)
    }

    /// Closes the socket, so the context can terminate.
    func close() {
        guard case .socket(let socket) = way else { return }
        socket.close()
    }
}

/// The work a host's actors hold — jobs handed to the dispatcher, mail in the actors' mailboxes — counted for a world
/// held in memory, which is idle once none is left; `changed` is called each time some is done.
package final class HostActivity: Sendable {
    private let count = Mutex(0)
    private let changed: @Sendable () -> Void

    package init(changed: @escaping @Sendable () -> Void) { self.changed = changed }

    /// Work held now.
    package var held: Int { count.withLock { $0 } }

    package func begin() { count.withLock { $0 += 1 } }

    package func end() {
        count.withLock { $0 -= 1 }
        changed()
    }
}
