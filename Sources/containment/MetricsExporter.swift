import ContainmentRuntime
import Hummingbird
import Logging
import Metrics
import Prometheus
import ServiceLifecycle

/// The supervisor's metrics over HTTP (`metricsPort`): swift-metrics bootstrapped with swift-prometheus, its registry
/// served as Prometheus text at `GET /metrics` by a hummingbird application, a service beside the supervisor's.
enum MetricsExporter {
    /// The buckets of the supervisor's histograms: request and journal times from 50 µs to 1 s; request sizes in
    /// commands and a step's messages from 1 to 4,096.
    static let durationBuckets: [Duration] = [
        .microseconds(50), .microseconds(100), .microseconds(200), .microseconds(400), .microseconds(800),
        .milliseconds(2), .milliseconds(5), .milliseconds(10), .milliseconds(50), .milliseconds(200), .seconds(1),
    ]
    static let sizeBuckets: [Double] = [1, 2, 4, 8, 16, 64, 256, 1_024, 4_096]

    /// Bootstraps the metrics backend (before the supervisor makes its metrics) and returns the HTTP service.
    static func start(config: RuntimeConfig, logger: Logger) -> any Service {
        let registry = PrometheusCollectorRegistry()
        var factory = PrometheusMetricsFactory(registry: registry)
        factory.defaultDurationHistogramBuckets = durationBuckets
        factory.defaultValueHistogramBuckets = sizeBuckets
        MetricsSystem.bootstrap(factory)
        let router = Router()
        router.get("metrics") { _, _ -> Response in
            var text: [UInt8] = []
            registry.emit(into: &text)
            return Response(
                status: .ok,
                headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
                body: ResponseBody(byteBuffer: ByteBuffer(bytes: text))
            )
        }
        var serverLogger = logger
        serverLogger.logLevel = .warning
        let application = Application(
            router: router,
            configuration: .init(address: .hostname(config.metricsBind, port: config.metricsPort)),
            logger: serverLogger
        )
        return LoggedService(
            service: application,
            logger: logger,
            message: "cannot serve metrics: the supervisor stops",
            metadata: ["endpoint.metrics": "http://\(config.metricsBind):\(config.metricsPort)/metrics"]
        )
    }
}

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
