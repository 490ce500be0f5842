import ContainmentBus
import ContainmentConfig
import ContainmentModel
import ZeroMQ

/// What every client of a runtime starts from: the settings at `configPath` (else `CONTAINMENT_CONFIG`'s, else the
/// defaults for `CONTAINMENT_RUN_DIR`), the CURVE client key they name, and a ZeroMQ context for its sockets (each
/// socket holds the context, so it lives as long as they do).
struct ClientSettings {
    let config: RuntimeConfig
    let keys: CurveClientKeys?
    let context: Context

    /// Throws `malformed` naming a setting not valid, `hostUnavailable` when ZeroMQ cannot start.
    init(configPath: String?, environment: [String: String]) throws(ContainmentError) {
        do {
            config = try RuntimeConfig.load(from: configPath, environment: environment)
            keys = try config.clientKeys()
        } catch {
            throw ContainmentError(.malformed, "\(error)")
        }
        do {
            context = try Context()
        } catch {
            throw ContainmentError(.hostUnavailable, "Cannot start ZeroMQ: \(error).")
        }
    }

    /// A connection to the supervisor's command socket (resends, CURVE keys); `hostUnavailable` when none listens.
    func commandClient() throws(ContainmentError) -> CommandClient {
        try CommandClient(
            context: context,
            endpoints: config.commandEndpoints,
            timeout: config.requestTimeout,
            curve: keys
        )
    }
}
