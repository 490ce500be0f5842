import ArgumentParser
import ContainmentBus
import ContainmentHost
import ContainmentModel
import ContainmentConfig
import Foundation
import Hummingbird
import Logging
import ServiceLifecycle
import ZeroMQ

/// `containment-web metrics`: the supervisor's metrics at `GET /metrics`, for Prometheus — each scrape a `metrics`
/// request to the supervisor, whose registry answers with its text.
struct MetricsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "metrics",
        abstract: "Serve the supervisor's metrics as Prometheus text at GET /metrics.",
        discussion: """
            Each scrape asks the supervisor (a `metrics` request on its command socket) and serves its answer: the \
            series of docs/OPERATIONS.md. The supervisor keeps metrics only with metricsPort set in runtime.yaml; \
            without it, or while no supervisor answers, a scrape gets 503 and the reason.
            """
    )

    @Option(help: "The TCP port to serve on; default: runtime.yaml's metricsPort.")
    var port: Int?

    @Option(help: "The address to listen on; default: runtime.yaml's metricsBind (127.0.0.1).")
    var bind: String?

    @Option(help: "Write the process id here once serving; removed on exit.")
    var pidFile: String?

    @OptionGroup var runtime: RuntimeOptions

    func run() async throws {
        let config = try runtime.load()
        let port = port ?? config.metricsPort
        guard (1...65_535).contains(port) else {
            throw ValidationError("no port to serve on: give --port 1…65535, or set metricsPort in runtime.yaml")
        }
        let bind = bind ?? config.metricsBind
        let keys = try runtime.clientKeys(of: config)
        var logger = Logger(label: "containment.metrics")
        logger.logLevel = .warning
        let supervisor = SupervisorLink(label: "containment-web.metrics", config: config, keys: keys)
        let router = Router()
        router.get("metrics") { _, _ -> Response in
            switch await supervisor.ask({ client throws(ContainmentError) in try client.metrics() }) {
            case .success(let text):
                return Response(
                    status: .ok,
                    headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
                    body: ResponseBody(byteBuffer: ByteBuffer(bytes: text))
                )
            case .failure(let error):
                return Response(
                    status: .serviceUnavailable,
                    headers: [.contentType: "text/plain; charset=utf-8"],
                    body: ResponseBody(byteBuffer: ByteBuffer(string: "\(error.code): \(error.message)\n"))
                )
            }
        }
        let address = "http://\(bind):\(port)/metrics"
        let app = Application(
            router: router,
            configuration: .init(address: .hostname(bind, port: port)),
            onServerRunning: { [pidFile] _ in
                if let pidFile { try? RunDirectory.writePID(to: pidFile) }
                FileHandle.standardOutput.write(Data("metrics: \(address)  (bus: \(config.commandEndpoint))\n".utf8))
            },
            logger: logger
        )
        let group = ServiceGroup(
            configuration: .init(
                services: [
                    LoggedService(
                        service: app,
                        logger: logger,
                        message: "cannot serve metrics",
                        metadata: ["endpoint.metrics": "\(address)"]
                    )
                ],
                gracefulShutdownSignals: [.sigterm, .sigint],
                logger: logger
            )
        )
        defer { if let pidFile { RunDirectory.removePID(pidFile) } }
        try await group.run()
    }
}
