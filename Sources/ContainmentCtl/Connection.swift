import ArgumentParser
import Foundation
import ContainmentBus
import ContainmentHost
import ContainmentModel
import ContainmentConfig

/// A connection to the supervisor's command socket for one client command.
package struct Connection {
    package let client: CommandClient
    package let config: RuntimeConfig

    /// `timeout`: how long to wait for each answer (the runtime's `requestTimeoutMs` unless given).
    package init(_ options: RuntimeOptions, timeout: Duration? = nil) throws {
        config = try options.load()
        let keys = try options.clientKeys(of: config)
        do throws(ContainmentError) {
            client = try CommandClient(
                ownContextTo: config.commandEndpoints,
                timeout: timeout ?? config.requestTimeout,
                curve: keys
            )
            client.maxMessageBytes = config.maxMessageBytes
            // Every command a client command sends is traced: `containment trace ID` shows its hops.
            client.tracing = true
        } catch {
            // No supervisor at the endpoint: exit 3, as for one that does not answer.
            FileHandle.standardError.write(Data("\(error.code): \(error.message)\n".utf8))
            throw ExitStatus.of(error.code)
        }
    }
}

extension Connection {
    /// The whole state now; a failure is one line `code: message` on standard error and its exit status (3 when no
    /// supervisor answers).
    package func snapshot() throws -> BusSnapshot {
        do {
            return try client.snapshot()
        } catch {
            FileHandle.standardError.write(Data("\(error.code): \(error.message)\n".utf8))
            throw ExitStatus.of(error.code)
        }
    }
}

/// Exit codes of the clients: 1 for a rejected command, 3 when the runtime cannot be reached.
package enum ExitStatus {
    package static let rejected = ExitCode(1)
    package static let unreachable = ExitCode(3)

    package static func of(_ code: ContainmentError.Code) -> ExitCode {
        code == .timeout || code == .hostUnavailable ? unreachable : rejected
    }
}
