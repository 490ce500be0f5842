import ContainmentBus
import Foundation
import Logging
import ZeroMQ

/// A standby's command socket: bound on its own endpoint, so that a client or host that reaches it learns where to
/// go — every request is answered `notLeader` with the leader's endpoint (or none, during a failover). It serves no
/// events: its events endpoint is bound only once it leads.
final class StandbyResponder {
    private let router: Socket
    private let config: RuntimeConfig
    private let name: String
    private var poller = Poller()
    /// The leader now (nil: none); kept current by the standby's loop.
    var leader: LeaderRecord?

    init(context: Context, config: RuntimeConfig, logger: Logger) throws {
        self.config = config
        name = config.supervisorName ?? "supervisor"
        router = try context.socket(.router)
        try router.set(.maxMessageSize, to: config.maxMessageBytes)
        if let curve = config.curve { try router.makeCurveServer(secretKey: try curve.serverSecret()) }
        try router.bind(config.commandEndpoint)
        if config.commandEndpoint.hasPrefix("ipc://") {
            chmod(String(config.commandEndpoint.dropFirst("ipc://".count)), 0o600)
        }
        poller.register(router)
    }

    /// Answers what waits, `notLeader`.
    func answer() throws(ZMQError) {
        let refusal = SupervisorMessage.notLeader(
            standby: name,
            leader: leader.map { ($0.name, $0.command) }
        )
        while let frames = try router.receive(dontWait: true), frames.count == 2 {
            let requestID = SupervisorMessage.requestID(of: frames[1])
            _ = try router.send([frames[0], refusal.bytes(requestID: requestID)], dontWait: true)
        }
    }

    /// Unbinds (the leader's loop binds the same endpoint) and closes.
    func close() {
        try? router.unbind(config.commandEndpoint)
        router.close()
        RunDirectory.removeSocket(config.commandEndpoint)
    }
}
