import ContainmentBus
import ContainmentConfig
import ContainmentModel
import Foundation
import Synchronization
import ZeroMQ

/// One connection to the supervisor (a ``CommandClient``: resends, CURVE keys) and the one thread that uses it. The
/// requests of every task sharing a client run in turn on that thread: a request waiting for its answer holds no
/// thread of Swift's cooperative pool, and a client holds one thread however many requests it makes (a thread per
/// request before). The thread ends with the channel.
///
/// A request whose task is cancelled is answered `cancelled` at once: one not sent yet is never sent; one already
/// sent is finished on the thread (the supervisor applies a command at most once, however it was resent) and its
/// answer dropped.
final class ClientChannel: Sendable {
    private let state: ChannelState

    init(_ connection: sending CommandClient, name: String) {
        state = ChannelState(connection)
        let state = state
        Thread {
            nameCurrentThread(name)
            state.serve()
        }.start()
    }

    deinit { state.close() }

    /// Runs `body` with the connection on the channel's thread, after the requests queued before it.
    func run<Value: Sendable>(
        _ body: @escaping @Sendable (CommandClient) throws(RemoteError) -> Value
    ) async throws(RemoteError) -> Value {
        let request = QueuedRequest<Value>()
        let outcome = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                guard request.attach(continuation) else { return }
                state.enqueue { [state] in
                    request.run { () throws(RemoteError) in try state.withConnection(body) }
                }
            }
        } onCancel: {
            request.cancel()
        }
        return try outcome.get()
    }
}

extension ClientChannel {
    /// A channel to the supervisor that the settings at `configPath` describe (else `CONTAINMENT_CONFIG`'s, else the
    /// defaults for `CONTAINMENT_RUN_DIR`), with the CURVE client key they name; its thread named by `name` from the
    /// client's id. Throws `hostUnavailable` when no supervisor listens there, `malformed` naming a setting not valid.
    static func connect(
        configPath: String?,
        environment: [String: String],
        name: (String) -> String
    ) throws(ContainmentError) -> (channel: ClientChannel, clientID: String) {
        let client = try ClientSettings(configPath: configPath, environment: environment).commandClient()
        let clientID = client.clientID
        return (ClientChannel(client, name: name(clientID)), clientID)
    }
}

/// The error a cancelled request is answered with.
private let cancelledRequest = RemoteError(
    ContainmentError(.cancelled, "The request was given up: its task was cancelled.")
)

/// What the channel's thread shares with the tasks that queue requests.
private final class ChannelState: Sendable {
    private struct Queue {
        var jobs: [@Sendable () -> Void] = []
        var closed = false
    }

    private let queue = Mutex(Queue())
    private let wake = DispatchSemaphore(value: 0)
    private let connection: Mutex<CommandClient>

    init(_ connection: sending CommandClient) {
        self.connection = Mutex(connection)
    }

    func enqueue(_ job: @escaping @Sendable () -> Void) {
        queue.withLock { $0.jobs.append(job) }
        wake.signal()
    }

    func close() {
        queue.withLock { $0.closed = true }
        wake.signal()
    }

    func withConnection<Value: Sendable>(
        _ body: (CommandClient) throws(RemoteError) -> Value
    ) throws(RemoteError) -> Value {
        // Only the channel's thread takes it: the lock is never waited for.
        try connection.withLock { client throws(RemoteError) in try body(client) }
    }

    /// The thread's loop: every job queued, in order, until the channel is closed and nothing is left.
    func serve() {
        while true {
            wake.wait()
            let (jobs, closed) = queue.withLock { queue in
                defer { queue.jobs.removeAll() }
                return (queue.jobs, queue.closed)
            }
            for job in jobs { job() }
            if closed { return }
        }
    }
}

/// One request's way back to its task: answered exactly once, by its outcome or by its cancellation.
private final class QueuedRequest<Value: Sendable>: Sendable {
    private enum Stage {
        case created
        case waiting(CheckedContinuation<Result<Value, RemoteError>, Never>)
        case cancelled
        case answered
    }

    private let stage = Mutex(Stage.created)

    /// Keeps the task's continuation; false (and the task answered `cancelled`) when it was cancelled already.
    func attach(_ continuation: CheckedContinuation<Result<Value, RemoteError>, Never>) -> Bool {
        let cancelled = stage.withLock { stage in
            guard case .created = stage else { return true }
            stage = .waiting(continuation)
            return false
        }
        if cancelled { continuation.resume(returning: .failure(cancelledRequest)) }
        return !cancelled
    }

    /// Runs the request unless its task was cancelled first, and answers the task unless it was cancelled meanwhile.
    func run(_ body: () throws(RemoteError) -> Value) {
        if case .cancelled = stage.withLock({ $0 }) { return }
        let outcome = Result { () throws(RemoteError) in try body() }
        answer(outcome)
    }

    func cancel() {
        let continuation = stage.withLock { stage -> CheckedContinuation<Result<Value, RemoteError>, Never>? in
            switch stage {
            case .created:
                stage = .cancelled
                return nil
            case .waiting(let continuation):
                stage = .cancelled
                return continuation
            case .cancelled, .answered:
                return nil
            }
        }
        continuation?.resume(returning: .failure(cancelledRequest))
    }

    private func answer(_ outcome: Result<Value, RemoteError>) {
        let continuation = stage.withLock { stage -> CheckedContinuation<Result<Value, RemoteError>, Never>? in
            guard case .waiting(let continuation) = stage else { return nil }
            stage = .answered
            return continuation
        }
        continuation?.resume(returning: outcome)
    }
}
