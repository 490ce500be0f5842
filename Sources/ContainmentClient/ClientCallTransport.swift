import ContainmentBus
import ContainmentModel
import ContainmentConfig
import Foundation
import Synchronization
import ZeroMQ

/// A client's way for typed calls: one connection to the supervisor (a ``CommandClient``, with its resends and CURVE
/// keys), taken by one call at a time on a thread of its own, so a call waiting for its answer holds no thread of
/// Swift's cooperative pool. Calls are issued by the system party.
final class ClientCallTransport: MethodCallTransport {
    private let connection: Mutex<CommandClient>

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
        connection = Mutex(
            try CommandClient(
                context: context,
                endpoints: config.commandEndpoints,
                timeout: config.requestTimeout,
                curve: keys
            )
        )
    }

    func call(_ target: ControllerID, method: String, arguments: [String]) async throws(RemoteError) -> String {
        let outcome: Result<String, RemoteError>
        do {
            outcome = try await runOnThread(named: "containment-call") { [self] in
                self.connection.withLock { client in
                    Result { () throws(RemoteError) in
                        try client.call(target, method: method, arguments: arguments, by: .system)
                    }
                }
            }
        } catch {
            throw RemoteError(ContainmentError(.hostUnavailable, "The call could not be made: \(error)."))
        }
        return try outcome.get()
    }
}
