import Foundation

/// A daemon's memory and descriptors at the start of the run, a quarter of the way in, and at its end.
public struct ProcessUse: Codable, Sendable {
    var name: String
    var pid: Int32
    var alive: Bool
    var residentKiB: [Int]
    var descriptors: [Int]

    init(start: ProcessSample, warm: ProcessSample, end: ProcessSample) {
        name = end.name
        pid = end.pid
        alive = end.alive
        residentKiB = [start.residentKiB, warm.residentKiB, end.residentKiB]
        descriptors = [start.descriptors, warm.descriptors, end.descriptors]
    }
}

/// What `stress` prints: the settings, the load, the latency, and every check.
public struct StressSummary: Codable, Sendable {
    var seed: UInt64
    var hosts: Int
    var controllers: Int
    var clients: Int
    var invalidRatio: Double
    var seconds: Double
    var operations: Int
    var accepted: Int
    var rejected: Int
    /// Requests refused for want of a host (`hostUnavailable` before the rules) and tried again: with no host killed
    /// or stalled, each one is a false refusal.
    var hostRefusals: Int
    var operationsPerSecond: Double
    var eventsPublished: Int
    var latencyMicroseconds: [String: Double]
    /// A hash of every command each client sent, in order: equal for equal seeds and settings.
    var streamDigest: String
    var checks: [StressCheck]
    var processes: [ProcessUse]
    var totalSeconds: Double
    public var passed: Bool

    init(
        command: StressSettings,
        results: [StressClientResult],
        seconds: Double,
        events: Int,
        checks: [StressCheck],
        processes: [ProcessUse],
        total: Duration
    ) {
        seed = command.seed
        hosts = processes.filter { !$0.name.hasPrefix("supervisor") }.count
        controllers = command.controllers
        clients = command.clients
        invalidRatio = command.invalidRatio
        self.seconds = seconds
        let operations = results.flatMap(\.operations)
        self.operations = operations.count
        accepted = operations.filter { if case .accepted = $0.outcome { true } else { false } }.count
        rejected = self.operations - accepted
        hostRefusals = results.reduce(0) { $0 + $1.hostRefusals }
        operationsPerSecond = Double(self.operations) / max(seconds, 0.001)
        eventsPublished = events
        let latencies = results.flatMap(\.latencies).sorted()
        func percentile(_ p: Double) -> Double {
            guard !latencies.isEmpty else { return 0 }
            return Double(latencies[min(latencies.count - 1, Int(Double(latencies.count) * p))]) / 1000
        }
        latencyMicroseconds = ["p50": percentile(0.5), "p99": percentile(0.99), "p99.9": percentile(0.999)]
        streamDigest = String(EventHash.of(operations.flatMap { $0.commands.map(\.bytes) }), radix: 16)
        self.checks = checks
        self.processes = processes
        totalSeconds = Double(total.nanoseconds) / 1e9
        passed = checks.allSatisfy(\.passed)
    }

    public var table: String {
        var lines: [String] = []
        lines.append(
            "stress: seed \(seed), \(hosts) hosts, \(controllers) controllers, \(clients) clients, "
                + "invalid ratio \(invalidRatio)"
        )
        lines.append(
            String(
                format: "%d operations in %.1f s (%.0f/s): %d accepted, %d rejected; %d events published",
                operations,
                seconds,
                operationsPerSecond,
                accepted,
                rejected,
                eventsPublished
            ) + (hostRefusals > 0 ? "; \(hostRefusals) refused for want of a host, tried again" : "")
        )
        lines.append(
            String(
                format: "round trip under load: p50 %.0f µs, p99 %.0f µs, p99.9 %.0f µs",
                latencyMicroseconds["p50"] ?? 0,
                latencyMicroseconds["p99"] ?? 0,
                latencyMicroseconds["p99.9"] ?? 0
            ) + "; stream digest \(streamDigest)"
        )
        lines.append("")
        let width = checks.map(\.name.count).max() ?? 0
        for check in checks {
            let name = check.name.padding(toLength: width, withPad: " ", startingAt: 0)
            lines.append("\(check.passed ? "PASS" : "FAIL")  \(name)  \(check.detail)")
            for failure in check.failures { lines.append("        \(failure)") }
        }
        lines.append("")
        lines.append("process       pid     alive  RSS KiB (start / ¼ / end)   fds (start / ¼ / end)")
        func column(_ text: String, _ width: Int) -> String {
            text.padding(toLength: width, withPad: " ", startingAt: 0)
        }
        for process in processes {
            lines.append(
                column(process.name, 12) + "  " + column(String(process.pid), 6) + "  "
                    + column(process.alive ? "yes" : "NO", 5) + "  "
                    + column(process.residentKiB.map(String.init).joined(separator: " / "), 26) + "  "
                    + process.descriptors.map(String.init).joined(separator: " / ")
            )
        }
        lines.append("")
        lines.append(passed ? "stress: every check passed" : "stress: FAILED")
        return lines.joined(separator: "\n")
    }
}
