import ArgumentParser
import ContainmentCtl
import ContainmentHost
import ContainmentBus
import ContainmentModel
import Foundation

/// `containment ping`: command round trips through the supervisor, timed.
struct PingCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ping",
        abstract: "Time command round trips through the supervisor (a load-view that changes nothing, by default).",
        discussion: """
            Each round trip is a real command: sent, decoded, applied to the model, journaled, answered. With \
            --snapshot, snapshot requests instead. Prints the count and the p50, p90, p99 and maximum round trip.
            """
    )

    @Option(help: "How many round trips.") var count = 1_000
    @Option(help: "The controller whose loaded view to ask for (default: the first in the tree).") var controller:
        String?
    @Flag(help: "Time snapshot requests instead of commands.") var snapshot = false
    @OptionGroup var runtime: RuntimeOptions

    func run() async throws {
        let connection = try Connection(runtime)
        let client = connection.client
        let target: String
        if let controller {
            target = controller
        } else {
            guard let first = try client.snapshot().controllerIDs.first?.rawValue else {
                throw ValidationError("the tree is empty: name a --controller or create one")
            }
            target = first
        }
        let command = Request(.loadView(ControllerID(target)), by: .natural)
        _ = try? client.submit([command])
        let clock = ContinuousClock()
        var samples: [Duration] = []
        samples.reserveCapacity(count)
        for _ in 0..<count {
            let start = clock.now
            if snapshot {
                _ = try client.snapshot()
            } else {
                _ = try client.submit([command])
            }
            samples.append(clock.now - start)
        }
        samples.sort()
        func percentile(_ p: Double) -> String {
            let sample = samples[min(samples.count - 1, Int(Double(samples.count) * p))]
            return String(
                format: "%.1f µs",
                Double(sample.components.attoseconds) / 1e12 + Double(sample.components.seconds) * 1e6
            )
        }
        print(
            "\(count) \(snapshot ? "snapshot" : "command") round trips: p50 \(percentile(0.5)), p90 \(percentile(0.9)), "
                + "p99 \(percentile(0.99)), max \(percentile(1))"
        )
    }
}
