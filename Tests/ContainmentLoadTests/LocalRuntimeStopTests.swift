import Foundation
import Testing

@testable import ContainmentLoad

/// `LocalRuntime.stop` finds the hosts it stops by their command lines, not their pid files: a host the supervisor
/// started again at the last moment (after a kill, its pid file not written yet) ran on as an orphan.
@Suite struct LocalRuntimeStopTests {
    @Test func aHostProcessIsFoundByItsCommandLineBeforeItWritesItsPidFile() throws {
        let run = FileManager.default.temporaryDirectory.appendingPathComponent("load-stop-\(UUID())").path
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        // A stand-in host: its command line names a pid file in the run directory, which it never writes. It says
        // when it runs: until the child has exec'd, /proc shows the test process's command line under its pid.
        process.arguments = [
            "-c", "echo running; read -r _", "host", "--name", "h3", "--pid-file", run + "/host-h3.pid",
        ]
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        defer {
            try? input.fileHandleForWriting.close()
            process.waitUntilExit()
        }
        let said = String(decoding: output.fileHandleForReading.availableData, as: UTF8.self)
        #expect(said == "running\n")
        let found = LocalRuntime.hostProcesses(of: run)
        #expect(found.map(\.name) == ["h3"] && found.map(\.pid) == [process.processIdentifier])
        #expect(LocalRuntime.hostProcesses(of: run + "-other").isEmpty)
    }
}
