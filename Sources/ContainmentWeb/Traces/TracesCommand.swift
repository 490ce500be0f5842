import ArgumentParser
import ContainmentConfig
import ContainmentHost
import Foundation
import Logging
import ServiceLifecycle

/// `containment-web traces`: the spans of traced commands, exported over OTLP/HTTP to an OpenTelemetry collector,
/// Jaeger or Tempo — a client of the supervisor's command socket that follows its traced commands.
struct TracesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "traces",
        abstract: "Export the spans of traced commands over OTLP/HTTP (a collector, Jaeger, Tempo).",
        discussion: """
            Every interval it asks the supervisor for the commands traced since the last it saw, gathers each one's \
            spans a round later (the client's, the supervisor's and the hosts': what `containment trace` prints) and \
            posts them as OTLP/HTTP JSON to the endpoint (runtime.yaml's otlpEndpoint; /v1/traces is added to an \
            endpoint without a path). Each process is a service of its own: containment-client, \
            containment-supervisor, containment-host (its name the service.instance.id). It exports what the \
            processes keep (their latest 4,096 spans each): commands traced faster than it follows are lost to it.
            """
    )

    @Option(help: "The OTLP/HTTP endpoint; default: runtime.yaml's otlpEndpoint.")
    var endpoint: String?

    @Option(help: "How often, in milliseconds, to ask for newly traced commands.")
    var intervalMs: Int = 1_000

    @Option(help: "Write the process id here once running; removed on exit.")
    var pidFile: String?

    @OptionGroup var runtime: RuntimeOptions

    func validate() throws {
        guard (10...3_600_000).contains(intervalMs) else {
            throw ValidationError("--interval-ms must be 10 to 3600000")
        }
    }

    func run() async throws {
        let config = try runtime.load()
        let given = endpoint ?? config.otlpEndpoint
        guard !given.isEmpty else {
            throw ValidationError("no endpoint to export to: give --endpoint, or set otlpEndpoint in runtime.yaml")
        }
        guard let url = TraceFollower.tracesURL(given) else {
            throw ValidationError("the endpoint must be an http:// or https:// URL with a host, not \(given)")
        }
        let keys = try runtime.clientKeys(of: config)
        var logger = Logger(label: "containment.traces")
        logger.logLevel = .notice
        // A trace request waits up to requestTimeoutMs for silent hosts: the link waits a second longer.
        let supervisor = SupervisorLink(
            label: "containment-web.traces",
            config: config,
            keys: keys,
            timeout: config.requestTimeout + .seconds(1)
        )
        let follower = TraceFollower(
            supervisor: supervisor,
            endpoint: url,
            interval: .milliseconds(intervalMs),
            logger: logger
        )
        let group = ServiceGroup(
            configuration: .init(
                services: [.init(service: follower)],
                gracefulShutdownSignals: [.sigterm, .sigint],
                logger: logger
            )
        )
        if let pidFile { try RunDirectory.writePID(to: pidFile) }
        defer { if let pidFile { RunDirectory.removePID(pidFile) } }
        FileHandle.standardOutput.write(Data("traces: to \(url)  (bus: \(config.commandEndpoint))\n".utf8))
        try await group.run()
    }
}
