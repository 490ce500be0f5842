/// `containment simulate`'s work: seeds run one after another, each report's lines, and a summary — every line a
/// function of the settings and the seeds alone.
package enum SimulationRuns {
    /// Runs `count` seeds from `settings.seed` on; `write` takes each line. Returns whether every seed passed.
    package static func run(
        _ settings: SimulationSettings,
        seeds count: Int,
        full: Bool,
        write: (String) -> Void
    ) -> Bool {
        var faults: [FaultKind: Int] = [:]
        var failed: [UInt64] = []
        var operations = 0
        var steps = 0
        for offset in 0..<UInt64(max(1, count)) {
            var one = settings
            one.seed = settings.seed &+ offset
            let report = Simulation(one).run()
            for line in report.lines(full: full) { write(line) }
            for line in report.trace ?? [] { write("    \(line)") }
            for (kind, injected) in report.faults { faults[kind, default: 0] += injected }
            operations += report.operations
            steps += report.steps
            if !report.passed { failed.append(one.seed) }
        }
        guard count > 1 else { return failed.isEmpty }
        let injected = FaultKind.allCases.filter { settings.faults.contains($0) }
            .map { "\($0.rawValue) \(faults[$0, default: 0])" }.joined(separator: ", ")
        write(
            "\(count) seeds: \(count - failed.count) passed, \(failed.count) failed; \(operations) operations, "
                + "\(steps) scheduled steps; faults injected: \(injected.isEmpty ? "none" : injected)"
        )
        if !failed.isEmpty { write("failed seeds: \(failed.map(String.init).joined(separator: " "))") }
        return failed.isEmpty
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
