import Logging
import ServiceLifecycle

/// A service whose failure is logged (an error, with the reason) before it ends the group: a port already in use
/// says so in the daemon's log, not only at debug level.
struct LoggedService<Wrapped: Service>: Service {
    let service: Wrapped
    let logger: Logger
    let message: Logger.Message
    let metadata: Logger.Metadata

    func run() async throws {
        do {
            try await service.run()
        } catch {
            var metadata = metadata
            metadata["error.message"] = "\(error)"
            logger.error(message, metadata: metadata)
            throw error
        }
    }
}
