import ContainmentBus
import ContainmentConfig
import ContainmentModel
import Dispatch
import ZeroMQ

/// One connection to the supervisor's command socket, asked one request at a time: a ``CommandClient``'s calls block,
/// so they run on a serial queue of the link's, off Swift concurrency's few threads. A request that timed out leaves
/// its reply to come, so the next one starts on a fresh socket.
final class SupervisorLink: @unchecked Sendable {
    // Unchecked: `client` is read and written only by blocks on `queue`, which is serial — one block at a time, each
    // seeing the last one's writes — and a ZeroMQ socket may move between threads so serialized.
    private let queue: DispatchQueue
    private let config: RuntimeConfig
    private let keys: CurveClientKeys?
    private let timeout: Duration
    private var client: CommandClient?

    /// `timeout`: how long a request waits for its reply; runtime.yaml's requestTimeoutMs when `nil`.
    init(label: String, config: RuntimeConfig, keys: CurveClientKeys?, timeout: Duration? = nil) {
        queue = DispatchQueue(label: label)
        self.config = config
        self.keys = keys
        self.timeout = timeout ?? config.requestTimeout
    }

    /// What `request` got from the supervisor, or why it got nothing.
    func ask<Answer: Sendable>(
        _ request: @escaping @Sendable (CommandClient) throws(ContainmentError) -> Answer
    ) async -> Result<Answer, ContainmentError> {
        await withCheckedContinuation { answer in
            queue.async { answer.resume(returning: self.askOnQueue(request)) }
        }
    }

    private func askOnQueue<Answer>(
        _ request: (CommandClient) throws(ContainmentError) -> Answer
    ) -> Result<Answer, ContainmentError> {
        do throws(ContainmentError) {
            return .success(try request(try connected()))
        } catch {
            if error.code == .timeout { client = nil }
            return .failure(error)
        }
    }

    private func connected() throws(ContainmentError) -> CommandClient {
        if let client { return client }
        let made = try CommandClient(ownContextTo: config.commandEndpoints, timeout: timeout, curve: keys)
        client = made
        return made
    }
}
