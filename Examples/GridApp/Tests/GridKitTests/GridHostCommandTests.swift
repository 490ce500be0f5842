import Foundation
import Testing

/// The app's host executable speaks as itself: its help names it, not `host`.
@Suite struct GridHostCommandTests {
    static let executable = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().appendingPathComponent("../../.build/debug/GridHost").standardized

    @Test func itsHelpNamesTheExecutable() throws {
        let process = Process()
        process.executableURL = Self.executable
        process.arguments = ["--help"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(text)")
        #expect(text.contains("USAGE: GridHost "), "\(text)")
        #expect(text.contains("OVERVIEW: A Containment host"), "\(text)")
    }
}
