import ContainmentBus
import ContainmentModel
import Foundation

/// A client's way for typed calls: one connection to the supervisor on one thread of its own (``ClientChannel``),
/// shared by every call of the actor system, so a call waiting for its answer holds no thread of Swift's cooperative
/// pool and calls cost no thread each. Calls are issued by the system party; a cancelled call throws `cancelled`.
final class ClientCallTransport: MethodCallTransport {
    private let channel: ClientChannel

    init(configPath: String?, environment: [String: String]) throws(ContainmentError) {
        channel = try ClientChannel.connect(configPath: configPath, environment: environment) {
            "calls-" + $0.prefix(9)
        }.channel
    }

    func call(_ target: ControllerID, method: String, arguments: [String]) async throws(RemoteError) -> String {
        try await channel.run { client throws(RemoteError) in
            try client.call(target, method: method, arguments: arguments, by: .system)
        }
    }
}
