import ContainmentConfig
import ContainmentRuntime
import Dispatch
import Foundation
import GRPCCore
import Synchronization

/// A watch over etcd's Watch stream: a task reads its responses into a queue that ``next(timeout:)`` takes from.
final class GRPCEtcdWatch: EtcdWatch {
    /// What the stream's task hands to the waiting thread.
    private final class Queue: Sendable {
        struct Taken {
            var changes: [EtcdChange] = []
            var ended: EtcdError?
        }

        private let state = Mutex(Taken())
        private let arrived = DispatchSemaphore(value: 0)

        func put(_ changes: [EtcdChange]) {
            state.withLock { $0.changes += changes }
            arrived.signal()
        }

        func end(_ error: EtcdError) {
            state.withLock { $0.ended = $0.ended ?? error }
            arrived.signal()
        }

        func take() -> Taken {
            state.withLock { state in
                defer { state.changes.removeAll() }
                return state
            }
        }

        func wait(_ timeout: Duration) {
            let nanoseconds =
                timeout.components.seconds * 1_000_000_000 + timeout.components.attoseconds / 1_000_000_000
            _ = arrived.wait(timeout: .now() + .nanoseconds(Int(nanoseconds)))
        }
    }

    private let queue = Queue()
    private let task = Mutex<Task<Void, Never>?>(nil)

    init(member: EtcdMember, request: Etcdserverpb_WatchRequest, metadata: Metadata) {
        let running = Task { [queue] in
            let ended: EtcdError
            do {
                try await member.watch.watch(
                    metadata: metadata,
                    requestProducer: { writer in
                        try await writer.write(request)
                        // The stream stays open as long as the watch: etcd ends a watch whose client stops sending.
                        while !Task.isCancelled { try await Task.sleep(for: .seconds(3_600)) }
                    },
                    onResponse: { response in
                        for try await message in response.messages {
                            if message.canceled {
                                throw EtcdError(
                                    kind: .refused(code: RPCError.Code.outOfRange.rawValue),
                                    description: message.cancelReason.isEmpty
                                        ? "etcd cancelled the watch (compacted past revision \(message.compactRevision))"
                                        : message.cancelReason
                                )
                            }
                            let changes = message.events.map { event in
                                event.type == .delete
                                    ? EtcdChange(
                                        deleted: String(decoding: event.kv.key, as: UTF8.self),
                                        revision: event.kv.modRevision
                                    )
                                    : EtcdChange(put: GRPCEtcdStore.keyValue(event.kv), revision: event.kv.modRevision)
                            }
                            guard !changes.isEmpty else { continue }
                            queue.put(changes)
                        }
                    }
                )
                ended = EtcdError(kind: .unreachable, description: "the watch's stream ended")
            } catch let error as EtcdError {
                ended = error
            } catch {
                ended = etcdError(error)
            }
            queue.end(ended)
        }
        task.withLock { $0 = running }
    }

    func next(timeout: Duration) throws(EtcdError) -> [EtcdChange] {
        var taken = queue.take()
        if taken.changes.isEmpty, taken.ended == nil {
            queue.wait(timeout)
            taken = queue.take()
        }
        if taken.changes.isEmpty, let ended = taken.ended { throw ended }
        return taken.changes
    }

    func cancel() {
        task.withLock { $0?.cancel() }
    }

    deinit { cancel() }
}
