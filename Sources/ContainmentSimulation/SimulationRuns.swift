import Dispatch
import Foundation
import Synchronization

/// `containment simulate`'s work: seeds run `jobs` at a time (each world alone on its thread), each report's lines in
/// seed order, and a summary — every line a function of the settings and the seeds alone, however many jobs.
package enum SimulationRuns {
    /// The seeds' reports as they come, printed in seed order; and the summary's totals.
    private struct Progress {
        var next = 0
        var printed = 0
        var done: [Int: SimulationReport] = [:]
        var faults: [FaultKind: Int] = [:]
        var failed: [UInt64] = []
        var operations = 0
        var steps = 0
        var shapes: [String: Int] = [:]
        var hostRefusals = (all: 0, hostsLive: 0)
    }

    /// Runs `count` seeds from `settings.seed` on, `jobs` at once; `write` takes each line, in order. Returns whether
    /// every seed passed.
    package static func run(
        _ settings: SimulationSettings,
        seeds count: Int,
        jobs: Int = 1,
        full: Bool,
        write: @Sendable (String) -> Void
    ) -> Bool {
        let count = max(1, count)
        let progress = Mutex(Progress())
        DispatchQueue.concurrentPerform(iterations: max(1, min(jobs, count))) { _ in
            while true {
                let index = progress.withLock { progress -> Int? in
                    guard progress.next < count else { return nil }
                    defer { progress.next += 1 }
                    return progress.next
                }
                guard let index else { return }
                let report = Simulation(settings.world(seed: settings.seed &+ UInt64(index))).run()
                progress.withLock { progress in
                    progress.done[index] = report
                    while let ready = progress.done.removeValue(forKey: progress.printed) {
                        for line in ready.lines(full: full) { write(line) }
                        for line in ready.trace ?? [] { write("    \(line)") }
                        for (kind, injected) in ready.faults { progress.faults[kind, default: 0] += injected }
                        progress.operations += ready.operations
                        progress.steps += ready.steps
                        progress.shapes[ready.shape, default: 0] += 1
                        progress.hostRefusals.all += ready.hostRefusals.all
                        progress.hostRefusals.hostsLive += ready.hostRefusals.hostsLive
                        if !ready.passed { progress.failed.append(ready.seed) }
                        progress.printed += 1
                    }
                }
            }
        }
        let (faults, failed, operations, steps, shapes, refusals) = progress.withLock {
            ($0.faults, $0.failed, $0.operations, $0.steps, $0.shapes, $0.hostRefusals)
        }
        guard count > 1 else { return failed.isEmpty }
        let injected = FaultKind.allCases.filter { settings.everyInjectable.contains($0) }
            .map { "\($0.rawValue) \(faults[$0, default: 0])" }.joined(separator: ", ")
        write(
            "\(count) seeds: \(count - failed.count) passed, \(failed.count) failed; \(operations) operations, "
                + "\(steps) scheduled steps; faults injected: \(injected.isEmpty ? "none" : injected)"
        )
        write(
            "refused for want of a host (and tried again): \(refusals.all), \(refusals.hostsLive) of them with every "
                + "host process live"
        )
        if shapes.count > 1 {
            let worlds = shapes.sorted { ($0.value, $1.key) > ($1.value, $0.key) }.map { "\($0.value) \($0.key)" }
            write("worlds: \(worlds.joined(separator: "; "))")
        }
        if !failed.isEmpty { write("failed seeds: \(failed.map(String.init).joined(separator: " "))") }
        return failed.isEmpty
    }

    /// Swift seeds its hashing per process: with it, the core's dictionaries are walked in another order each run. So
    /// `simulate` runs its worlds in a child of the same command with deterministic hashing, and the same seed prints
    /// the same bytes: the child's exit status, or nil in the child itself.
    package static func inDeterministicChild() throws -> Int32? {
        guard ProcessInfo.processInfo.environment["SWIFT_DETERMINISTIC_HASHING"] == nil else { return nil }
        let child = Process()
        child.executableURL = URL(fileURLWithPath: "/proc/self/exe")
        child.arguments = Array(CommandLine.arguments.dropFirst())
        child.environment = ProcessInfo.processInfo.environment.merging(["SWIFT_DETERMINISTIC_HASHING": "1"]) { $1 }
        try child.run()
        child.waitUntilExit()
        return child.terminationStatus
    }

    /// A simulated duration as written on the command line: `10m`, `30s`, `500ms`, or seconds (`2.5`).
    package static func duration(_ text: String) -> Duration? {
        let units: [(String, Double)] = [("ms", 0.001), ("s", 1), ("m", 60), ("h", 3_600)]
        for (suffix, scale) in units where text.hasSuffix(suffix) {
            guard let value = Double(text.dropLast(suffix.count)), value > 0 else { return nil }
            return .milliseconds(Int64(value * scale * 1_000))
        }
        return Double(text).flatMap { $0 > 0 ? .milliseconds(Int64($0 * 1_000)) : nil }
    }
}
