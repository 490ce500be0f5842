import ContainmentConfig
import Foundation
import Testing

/// A child inherits the signal mask of the thread that starts it; the runtime's threads (libdispatch's workers, the
/// concurrency pool) block most signals, and redis-server started from one ignored the SIGTERM that was to stop it.
/// Every program the runtime starts goes through `withDefaultSignals`.
struct DefaultSignalsTests {
    /// `grep SigBlk` of a child started by `command`, on a thread that blocks SIGTERM as a worker thread does.
    static func blockedSignals(
        of command: @escaping @Sendable (String, [String]) -> (executable: URL, arguments: [String])
    ) async throws -> String {
        try await runOnThread(named: "signals-test") {
            var blocked = sigset_t()
            sigemptyset(&blocked)
            sigaddset(&blocked, SIGTERM)
            pthread_sigmask(SIG_BLOCK, &blocked, nil)
            let process = Process()
            let (executable, arguments) = command("/bin/grep", ["SigBlk", "/proc/self/status"])
            process.executableURL = executable
            process.arguments = arguments
            let output = Pipe()
            process.standardOutput = output
            try process.run()
            let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            return text.trimmingCharacters(in: .whitespacesAndNewlines)
        }
    }

    @Test func aChildBeginsWithNoSignalBlockedWhicheverThreadStartsIt() async throws {
        // Started directly, it would inherit SIGTERM blocked (bit 15 of the mask: 0x4000).
        let direct = try await Self.blockedSignals(of: { (URL(fileURLWithPath: $0), $1) })
        let mask = try #require(
            UInt64(direct.dropFirst("SigBlk:".count).trimmingCharacters(in: .whitespaces), radix: 16)
        )
        #expect(mask & 0x4000 != 0, "\(direct)")
        // Through withDefaultSignals, it begins with nothing blocked.
        let clean = try await Self.blockedSignals(of: withDefaultSignals)
        #expect(clean == "SigBlk:\t0000000000000000")
    }
}
