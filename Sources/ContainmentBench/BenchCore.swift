import ContainmentConfig
import ContainmentRuntime

/// `bench core`: the supervisor's own work per request on one thread (``SupervisorCoreBenchmark``), for the
/// pipelined requests (one `set_alpha` each) and for event delivery's (`--events-per-request` each).
struct CoreFigures: Codable, Sendable {
    var pipelined: SupervisorCoreBenchmark.Figure
    var delivery: SupervisorCoreBenchmark.Figure

    static func measure(_ settings: BenchSettings) -> CoreFigures {
        let requests = settings.quick ? 20_000 : 200_000
        return CoreFigures(
            pipelined: SupervisorCoreBenchmark.measure(requests: requests, commandsPerRequest: 1),
            delivery: SupervisorCoreBenchmark.measure(
                requests: requests / settings.eventsPerRequest,
                commandsPerRequest: settings.eventsPerRequest
            )
        )
    }
}

extension BenchReport {
    /// The rows of the full run's table: requests/s, and events/s for delivery's requests.
    static func coreRows(_ core: CoreFigures) -> [[String]] {
        [
            [
                "supervisor core alone, requests of 1 set_alpha, requests/s", count(core.pipelined.requestsPerSecond),
                "", "",
            ],
            [
                "supervisor core alone, requests of \(core.delivery.commandsPerRequest) set_alpha, events/s",
                count(core.delivery.eventsPerSecond), "", "",
            ],
        ]
    }

    static func coreLines(_ core: CoreFigures) -> [String] {
        [core.pipelined, core.delivery].map { figure in
            "supervisor core, requests of \(figure.commandsPerRequest) set_alpha: "
                + "\(count(figure.requestsPerSecond)) requests/s, \(count(figure.eventsPerSecond)) events/s, "
                + String(format: "%.2f µs a request", figure.seconds * 1e6 / Double(figure.requests))
        }
    }
}
