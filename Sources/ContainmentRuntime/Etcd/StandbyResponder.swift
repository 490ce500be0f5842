import ContainmentBus
import Dispatch
import Foundation
import Logging
import Synchronization
import ZeroMQ

/// A standby's command socket: bound on its own endpoint, so that a client or host that reaches it learns where to
/// go — every request is answered `notLeader` with the leader's endpoint (or none, during a failover, or when etcd has
/// no majority). It answers on a thread of its own, at once, however long the standby's calls to etcd take. It serves
/// no events: its events endpoint is bound only once it leads.
final class StandbyResponder: Sendable {
    private struct Known {
        /// The leader now (nil: none).
        var leader: LeaderRecord?
        /// Whether etcd cannot be reached now (no majority of its members answers): no one can lead.
        var etcdUnreachable = false
        var stopped = false
    }

    private let known = Mutex(Known())
    private let done = DispatchSemaphore(value: 0)
    private let endpoint: String

    /// Binds `config.commandEndpoint` (with CURVE when configured) and starts answering.
    init(context: Context, config: RuntimeConfig, logger: Logger) throws {
        endpoint = config.commandEndpoint
        let name = config.supervisorName ?? "supervisor"
        let router = try context.socket(.router)
        do {
            try router.set(.maxMessageSize, to: config.maxMessageBytes)
            if let curve = config.curve { try router.makeCurveServer(secretKey: try curve.serverSecret()) }
            try router.bind(config.commandEndpoint)
        } catch {
            router.close()
            throw error
        }
        if endpoint.hasPrefix("ipc://") { chmod(String(endpoint.dropFirst("ipc://".count)), 0o600) }
        // Safe: from here on the socket is used by the answering thread alone (this one never touches `router` again),
        // which closes it; ZeroMQ asks only that a socket be used by one thread at a time.
        nonisolated(unsafe) let owned = router
        Thread.detachNewThread { [self] in
            defer {
                try? owned.unbind(endpoint)
                owned.close()
                done.signal()
            }
            var poller = Poller()
            poller.register(owned)
            while !known.withLock({ $0.stopped }) {
                do {
                    guard try !poller.poll(timeout: .milliseconds(50)).isEmpty else { continue }
                    let now = known.withLock { $0 }
                    let refusal = SupervisorMessage.notLeader(
                        standby: name,
                        leader: now.etcdUnreachable ? nil : now.leader.map { ($0.name, $0.command) },
                        etcdUnreachable: now.etcdUnreachable
                    )
                    while let frames = try owned.receive(dontWait: true), frames.count == 2 {
                        let requestID = SupervisorMessage.requestID(of: frames[1])
                        _ = try owned.send([frames[0], refusal.bytes(requestID: requestID)], dontWait: true)
                    }
                } catch {
                    // The context ends (the supervisor stops), or the socket failed: nothing more to answer.
                    if (error as? ZMQError)?.code != .contextTerminated {
                        logger.warning("standby: cannot answer", metadata: ["error.message": "\(error)"])
                    }
                    return
                }
            }
        }
    }

    /// The leader now; nil while none leads. A record that names this standby's own endpoint is a dead incarnation's
    /// (this one never led), left until its lease lapses: none leads, then — naming it would send hosts and clients
    /// back here, and away from the leader to come.
    func set(leader: LeaderRecord?) {
        known.withLock {
            $0.leader = leader?.command == endpoint ? nil : leader
            $0.etcdUnreachable = false
        }
    }

    /// etcd cannot be reached: no one can lead until it is back.
    func setEtcdUnreachable() {
        known.withLock { $0.etcdUnreachable = true }
    }

    /// Stops answering and unbinds (the leader's loop binds the same endpoint).
    func close() {
        known.withLock { $0.stopped = true }
        done.wait()
        RunDirectory.removeSocket(endpoint)
    }
}
