import ArgumentParser
import ContainmentConfig
import Logging
import ServiceLifecycle
import ZeroMQ

/// The option every client and daemon shares: the runtime settings.
package struct RuntimeOptions: ParsableArguments {
    @Option(
        name: .long,
        help:
            "The runtime settings (YAML, see Config/runtime.yaml); default: CONTAINMENT_CONFIG, else built-in defaults."
    )
    package var config: String?

    package init() {}

    /// The client key pair `config` names (nil without CURVE); a bad one is a usage error, with the reason.
    package func clientKeys(of config: RuntimeConfig) throws -> CurveClientKeys? {
        do {
            return try config.clientKeys()
        } catch let error as ConfigError {
            throw ValidationError(error.description)
        }
    }

    package func load() throws -> RuntimeConfig {
        do {
            return try RuntimeConfig.load(from: config)
        } catch let error as ConfigError {
            throw ValidationError(error.description)
        }
    }
}

/// Options shared by the daemons.
package struct DaemonOptions: ParsableArguments {
    @OptionGroup package var runtime: RuntimeOptions

    @Option(help: "Write the process id here once serving; removed on exit.")
    package var pidFile: String?

    @Option(help: "trace, debug, info, notice, warning, error or critical.")
    package var logLevel: String = "info"

    @Option(help: "text, or json: one JSON object a line, for log shippers (default: runtime.yaml's logFormat, text).")
    package var logFormat: String?

    package init() {}

    package func validate() throws {
        guard Logger.Level(rawValue: logLevel) != nil else {
            throw ValidationError("--log-level must be one of trace, debug, info, notice, warning, error, critical")
        }
        if let logFormat, LogFormat(rawValue: logFormat) == nil {
            throw ValidationError("--log-format must be text or json")
        }
    }

    /// runtime.yaml's settings, with `--log-format` over its `logFormat`.
    package func config() throws -> RuntimeConfig {
        var config = try runtime.load()
        if let format = logFormat.flatMap(LogFormat.init(rawValue:)) { config.logFormat = format }
        return config
    }

    /// Sets up logging in `format` and returns the daemon's logger.
    package func logger(_ label: String, format: LogFormat) -> Logger {
        switch format {
        case .text: LoggingSystem.bootstrap { StreamLogHandler.standardError(label: $0) }
        case .json: LoggingSystem.bootstrap { JSONLogHandler(label: $0) }
        }
        var logger = Logger(label: label)
        // Safe: `validate()` checked the level.
        logger.logLevel = Logger.Level(rawValue: logLevel)!
        return logger
    }
}

/// Runs one service (and any beside it) until SIGTERM or SIGINT, then shuts them down gracefully.
package func serve(_ service: some Service, beside others: [any Service] = [], logger: Logger) async throws {
    let group = ServiceGroup(
        configuration: .init(
            services: [service] + others,
            gracefulShutdownSignals: [.sigterm, .sigint],
            logger: logger
        )
    )
    try await group.run()
}
