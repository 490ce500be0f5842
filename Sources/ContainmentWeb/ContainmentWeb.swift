import ArgumentParser
import ContainmentConfig

/// `containment-web`: what the runtime serves over HTTP, in a program of its own so that the daemons and the command
/// line build without the HTTP stack (hummingbird, swift-nio). Both are ordinary clients of the bus.
@main
struct ContainmentWeb: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "containment-web",
        abstract:
            "Serve the runtime over HTTP: the live inspector page, the supervisor's Prometheus metrics, and traces.",
        discussion: """
            Each is a client of the supervisor's sockets (runtime.yaml, CONTAINMENT_CONFIG, CONTAINMENT_RUN_DIR, CURVE \
            keys as for `containment`), so it runs on any machine that reaches the bus. scripts/up.sh --inspector \
            starts the inspector, and starts the metrics when runtime.yaml sets metricsPort and the traces' export \
            when it sets otlpEndpoint.
            """,
        version: "containment-web \(ContainmentRelease.number) (git \(BuildStamp.commit))",
        subcommands: [InspectorCommand.self, MetricsCommand.self, TracesCommand.self]
    )
}
