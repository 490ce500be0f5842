import Foundation
import Testing

/// Issue 28: the command line (`Sources/ContainmentCommands`, shared by `containment` and `containment-etcd`) is
/// argument parsing and wiring: the sockets are the libraries' (ContainmentBus, ContainmentClient, ContainmentBench),
/// so it imports no ZeroMQ.
@Suite struct LayeringTests {
    @Test func theExecutableImportsNoZeroMQ() throws {
        let sources = RuntimeFixture.repository.appendingPathComponent("Sources/ContainmentCommands")
        let files = FileManager.default.enumerator(atPath: sources.path)?.compactMap { $0 as? String } ?? []
        let swift = files.filter { $0.hasSuffix(".swift") }
        #expect(swift.count > 10, "the scan found \(swift.count) files: is it reading Sources/ContainmentCommands?")
        let importing = try swift.filter { file in
            try String(contentsOf: sources.appendingPathComponent(file), encoding: .utf8)
                .split(separator: "\n").contains { $0.trimmingCharacters(in: .whitespaces) == "import ZeroMQ" }
        }
        #expect(importing.isEmpty, "\(importing)")
    }

    /// What the commands do lives in the libraries (the watch loop and status in ContainmentClient, the journal's
    /// reports and the systemd units in ContainmentRuntime, ctl's grammar in ContainmentCtl, bench in
    /// ContainmentBench): the command line stays argument parsing and wiring, under 1,500 lines.
    @Test func theExecutableIsThin() throws {
        let sources = RuntimeFixture.repository.appendingPathComponent("Sources/ContainmentCommands")
        let files = FileManager.default.enumerator(atPath: sources.path)?.compactMap { $0 as? String } ?? []
        let lines = try files.filter { $0.hasSuffix(".swift") }.reduce(0) { total, file in
            total
                + (try String(contentsOf: sources.appendingPathComponent(file), encoding: .utf8))
                .split(separator: "\n", omittingEmptySubsequences: false).count - 1
        }
        #expect(lines > 500, "the scan counted \(lines) lines: is it reading Sources/ContainmentCommands?")
        #expect(lines < 1_500, "Sources/ContainmentCommands holds \(lines) lines")
    }

    /// The supervisor's core is made of parts with one job each, none of them a file of more than 300 lines: the
    /// core's own extensions (`SupervisorCore*.swift`) and its values (`Supervisor/`).
    @Test func theSupervisorCoresPartsAreEachUnder300Lines() throws {
        let runtime = RuntimeFixture.repository.appendingPathComponent("Sources/ContainmentRuntime")
        let files = (FileManager.default.enumerator(atPath: runtime.path)?.compactMap { $0 as? String } ?? [])
            .filter { ($0.hasPrefix("SupervisorCore") || $0.hasPrefix("Supervisor/")) && $0.hasSuffix(".swift") }
        #expect(files.count >= 10, "the scan found \(files): is it reading Sources/ContainmentRuntime?")
        for file in files {
            let lines =
                try String(contentsOf: runtime.appendingPathComponent(file), encoding: .utf8)
                .split(separator: "\n", omittingEmptySubsequences: false).count - 1
            #expect(lines < 300, "\(file) holds \(lines) lines")
        }
    }

    /// The core decides; the loop logs and counts: no file of the core imports swift-metrics or makes a `Logger` (it
    /// puts its log lines and its tally in its step).
    @Test func theCoreNeitherLogsNorCounts() throws {
        let runtime = RuntimeFixture.repository.appendingPathComponent("Sources/ContainmentRuntime")
        let files =
            (FileManager.default.enumerator(atPath: runtime.path)?.compactMap { $0 as? String } ?? [])
            .filter { ($0.hasPrefix("SupervisorCore+") || $0.hasPrefix("Supervisor/")) && $0.hasSuffix(".swift") }
            + ["SupervisorCore.swift"]
        #expect(files.count >= 10, "the scan found \(files): is it reading Sources/ContainmentRuntime?")
        for file in files {
            let text = try String(contentsOf: runtime.appendingPathComponent(file), encoding: .utf8)
            #expect(!text.contains("import Metrics"), "\(file) imports swift-metrics")
            #expect(!text.contains("Logger("), "\(file) makes a Logger")
            #expect(!text.contains("SupervisorMetrics"), "\(file) holds the metrics")
        }
    }
}
