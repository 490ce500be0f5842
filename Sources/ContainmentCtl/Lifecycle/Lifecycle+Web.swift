import ArgumentParser
import Foundation

extension Lifecycle {
    /// `containment-web` (the inspector, the metrics and the traces' export over HTTP, kept out of this executable): CONTAINMENT_WEB_BIN,
    /// else the one beside this executable.
    static var webExecutable: String {
        ProcessInfo.processInfo.environment["CONTAINMENT_WEB_BIN"].flatMap { $0.isEmpty ? nil : $0 }
            ?? sibling("containment-web")
    }

    /// Starts `containment-web NAME ARGUMENTS` detached, its log and pid file in the run directory, and returns once
    /// it serves (its pid file written; polled every 0.1 s, for up to 10 s). One already running is left as it is;
    /// what it says then. Throws exit 1 with its reason when it does not serve (a port in use, say).
    func startWeb(_ name: String, _ arguments: [String]) throws -> String? {
        let pidFile = "\(runDirectory)/\(name).pid"
        if let pid = Self.livePID(pidFile) { return "up: \(name) already runs (pid \(pid))" }
        let executable = Self.webExecutable
        guard FileManager.default.isExecutableFile(atPath: executable) else {
            throw Self.failure(
                "up: containment-web (the inspector and the metrics over HTTP) not found at \(executable): build it "
                    + "(swift build --product containment-web) or name it with CONTAINMENT_WEB_BIN"
            )
        }
        let log = "\(runDirectory)/logs/\(name).log"
        let process = try startDetached(executable, [name] + arguments + ["--pid-file", pidFile], log: log)
        for _ in 0..<100 {
            if Self.livePID(pidFile) != nil { return nil }
            if !process.isRunning { break }
            usleep(100_000)
        }
        let said = logSinceStart(log).split(whereSeparator: \.isNewline).suffix(3).map { "    \($0)" }
        throw Self.failure(
            (["up: containment-web \(name) did not start; it said:"] + said + ["up: its log: \(log)"])
                .joined(separator: "\n")
        )
    }
}
