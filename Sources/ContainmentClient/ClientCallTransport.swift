import ContainmentBus
import ContainmentModel
import ContainmentConfig
import Foundation
import Synchronization
import ZeroMQ

/// A client's way for typed calls: one connection to the supervisor on one thread of its own (``ClientChannel``),
/// shared by every call of the actor system, so a call waiting for its answer holds no thread of Swift's cooperative
/// pool and calls cost no thread each. Calls are issued by the system party; a cancelled call throws `cancelled`.
final class ClientCallTransport: MethodCallTransport {
    private let channel: ClientChannel

    init(configPath: String?, environment: [String: String]) throws(ContainmentError) {
        let config: RuntimeConfig
        let keys: CurveClientKeys?
        do {
            config = try RuntimeConfig.load(from: configPath, environment: environment)
            keys = try config.clientKeys()
        } catch {
            throw ContainmentError(.malformed, "\(error)")
        }
        let context: Context
        do {
            context = try Context()
        } catch {
            throw ContainmentError(.hostUnavailable, "Cannot start ZeroMQ: \(error).")
        }
        // The socket holds its context, so the context lives as long as the connection.
        let client = try CommandClient(
            context: context,
            endpoints: config.commandEndpoints,
            timeout: config.requestTimeout,
            curve: keys
        )
        channel = ClientChannel(client, name: "calls-" + client.clientID.prefix(9))
    }

    func call(_ target: ControllerID, method: String, arguments: [String]) async throws(RemoteError) -> String {
        try await channel.run { client throws(RemoteError) in
            try client.call(target, method: method, arguments: arguments, by: .system)
        }
    }
}
