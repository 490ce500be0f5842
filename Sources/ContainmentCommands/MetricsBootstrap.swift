import Metrics
import Prometheus

/// The supervisor's metrics (`metricsPort`): swift-metrics bootstrapped with swift-prometheus. The registry's text is
/// what the supervisor answers a `metrics` request with, and what `containment-web metrics` serves at `GET /metrics`
/// (the HTTP stack lives in that program, so the daemons build without it).
enum MetricsBootstrap {
    /// The buckets of the supervisor's histograms: request and journal times from 50 µs to 1 s; request sizes in
    /// commands and a step's messages from 1 to 4,096.
    static let durationBuckets: [Duration] = [
        .microseconds(50), .microseconds(100), .microseconds(200), .microseconds(400), .microseconds(800),
        .milliseconds(2), .milliseconds(5), .milliseconds(10), .milliseconds(50), .milliseconds(200), .seconds(1),
    ]
    static let sizeBuckets: [Double] = [1, 2, 4, 8, 16, 64, 256, 1_024, 4_096]

    /// Bootstraps the backend (before the supervisor makes its metrics: they bind to the backend bootstrapped then)
    /// and returns how to read them as Prometheus text.
    static func start() -> @Sendable () -> [UInt8] {
        let registry = PrometheusCollectorRegistry()
        var factory = PrometheusMetricsFactory(registry: registry)
        factory.defaultDurationHistogramBuckets = durationBuckets
        factory.defaultValueHistogramBuckets = sizeBuckets
        MetricsSystem.bootstrap(factory)
        return {
            var text: [UInt8] = []
            registry.emit(into: &text)
            return text
        }
    }
}
