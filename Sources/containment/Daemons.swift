import ArgumentParser
import ContainmentRuntime
import Logging
import ServiceLifecycle

/// Options shared by the daemons.
struct DaemonOptions: ParsableArguments {
    @OptionGroup var runtime: RuntimeOptions

    @Option(help: "Write the process id here once serving; removed on exit.")
    var pidFile: String?

    @Option(help: "trace, debug, info, notice, warning, error or critical.")
    var logLevel: String = "info"

    @Option(help: "text, or json: one JSON object a line, for log shippers (default: runtime.yaml's logFormat, text).")
    var logFormat: String?

    func validate() throws {
        guard Logger.Level(rawValue: logLevel) != nil else {
            throw ValidationError("--log-level must be one of trace, debug, info, notice, warning, error, critical")
        }
        if let logFormat, LogFormat(rawValue: logFormat) == nil {
            throw ValidationError("--log-format must be text or json")
        }
    }

    /// runtime.yaml's settings, with `--log-format` over its `logFormat`.
    func config() throws -> RuntimeConfig {
        var config = try runtime.load()
        if let format = logFormat.flatMap(LogFormat.init(rawValue:)) { config.logFormat = format }
        return config
    }

    /// Sets up logging in `format` and returns the daemon's logger.
    func logger(_ label: String, format: LogFormat) -> Logger {
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
func serve(_ service: some Service, beside others: [any Service] = [], logger: Logger) async throws {
    let group = ServiceGroup(
        configuration: .init(
            services: [service] + others,
            gracefulShutdownSignals: [.sigterm, .sigint],
            logger: logger
        )
    )
    try await group.run()
}

struct SupervisorCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "supervisor",
        abstract: "Run the supervisor: the authority that validates, orders, journals and publishes every mutation."
    )

    @OptionGroup var daemon: DaemonOptions

    @Option(help: "A topology to create at start (Config/topologies/*.yaml).")
    var topology: String?

    @Flag(
        help: """
            Start the topology's hosts (a host already running is adopted) and start each again when it ends, per \
            runtime.yaml's hostRestart, maxRestarts and restartWindowMs.
            """
    )
    var startHosts = false

    func run() async throws {
        let config = try daemon.config()
        let logger = daemon.logger("containment.supervisor", format: config.logFormat)
        // Before the supervisor makes its metrics: they bind to the backend bootstrapped then.
        let exporter = config.metricsPort > 0 ? MetricsExporter.start(config: config, logger: logger) : nil
        let topology: Topology?
        do {
            topology = try self.topology.map { try Topology.load(path: $0) }
        } catch let error as ConfigError {
            throw ValidationError(error.description)
        }
        try await serve(
            SupervisorService(
                config: config,
                topology: topology,
                pidFile: daemon.pidFile,
                logger: logger,
                startHosts: startHosts
            ),
            beside: exporter.map { [$0] } ?? [],
            logger: logger
        )
    }
}

struct HostCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "host",
        abstract: "Run a host: a process that runs controller actors, one actor per controller."
    )

    @OptionGroup var daemon: DaemonOptions

    @Option(help: "The host's name, as topologies and `ctl create --host` name it.")
    var name: String

    func run() async throws {
        let config = try daemon.config()
        let logger = daemon.logger("containment.host.\(name)", format: config.logFormat)
        try await serve(
            HostService(name: name, config: config, pidFile: daemon.pidFile, logger: logger),
            logger: logger
        )
    }
}
