import ContainmentConfig
import ContainmentBus
import Dispatch
import Foundation
import Logging
import Synchronization
import ZeroMQ

/// A standby's command socket: bound on its own endpoint, so that a client or host that reaches it learns where to
/// go — every request is answered `notLeader` with the leader's endpoint (or none, during a failover, or when etcd has
/// no majority). It answers on a thread of its own, at once, however long the standby's calls to etcd take. It serves
/// no events: its events endpoint is bound only once it leads. Under CURVE it answers only the keys the leader admits
/// (its own ZAP handler, on the same allow-list): a stranger learns nothing, not even who leads.
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

    /// The socket it answers on, and with CURVE its ZAP handler.
    private struct Sockets {
        let router: Socket
        let zap: ZapHandler?

        func close(unbinding endpoint: String) {
            try? router.unbind(endpoint)
            router.close()
            zap?.close()
        }
    }

    /// Binds `config.commandEndpoint` (with CURVE when configured, admitting the keys of `allow`) and starts
    /// answering.
    init(context: Context, config: RuntimeConfig, allow: [CurveKey: CurveSettings.Role], logger: Logger) throws {
        endpoint = config.commandEndpoint
        let name = config.supervisorName ?? "supervisor"
        let router = try context.socket(.router)
        var zap: ZapHandler?
        do {
            try router.set(.maxMessageSize, to: config.maxMessageBytes)
            if let curve = config.curve {
                zap = try ZapHandler(context: context)
                try router.makeCurveServer(secretKey: try curve.serverSecret())
            }
            try router.bind(config.commandEndpoint)
        } catch {
            Sockets(router: router, zap: zap).close(unbinding: config.commandEndpoint)
            throw error
        }
        if endpoint.hasPrefix("ipc://") { chmod(String(endpoint.dropFirst("ipc://".count)), 0o600) }
        // Safe: from here on the sockets are used by the answering thread alone (this one never touches them again),
        // which closes them; ZeroMQ asks only that a socket be used by one thread at a time.
        nonisolated(unsafe) let owned = Sockets(router: router, zap: zap)
        Thread.detachNewThread { [self] in
            defer {
                owned.close(unbinding: endpoint)
                done.signal()
            }
            var poller = Poller()
            poller.register(owned.router)
            if let zap = owned.zap { poller.register(zap.socket) }
            while !known.withLock({ $0.stopped }) {
                do {
                    let ready = try poller.poll(timeout: .milliseconds(50))
                    guard !ready.isEmpty else { continue }
                    if ready.contains(where: { $0.index == 1 }) {
                        try owned.zap?.handlePending { request in request.curveKey.flatMap { allow[$0] }?.name }
                    }
                    guard ready.contains(where: { $0.index == 0 }) else { continue }
                    let now = known.withLock { $0 }
                    let refusal = SupervisorMessage.notLeader(
                        standby: name,
                        leader: now.etcdUnreachable ? nil : now.leader.map { ($0.name, $0.command) },
                        etcdUnreachable: now.etcdUnreachable
                    )
                    while let frames = try owned.router.receive(dontWait: true), frames.count == 2 {
                        let requestID = SupervisorMessage.requestID(of: frames[1])
                        _ = try owned.router.send([frames[0], refusal.bytes(requestID: requestID)], dontWait: true)
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

    /// The leader now; nil while none leads (``StandbyLook/follows(_:)``: never this standby's own endpoint).
    func set(leader: LeaderRecord?) {
        known.withLock {
            $0.leader = leader
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
