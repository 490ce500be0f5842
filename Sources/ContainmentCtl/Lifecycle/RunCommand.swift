import ArgumentParser
import ContainmentConfig
import ContainmentHost
import Foundation

/// `containment run TOPOLOGY`: a runtime in the foreground, as `docker compose up` runs one — started as `up` does, its
/// tree and then its events printed as `watch --from-start` prints them, and everything stopped as `down` does when
/// the command is interrupted (Ctrl-C, SIGTERM), its time is up, or the supervisor ends.
package struct RunCommand: AsyncParsableCommand {
    package init() {}

    package static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run a runtime in the foreground: start it, print its events, stop it all on Ctrl-C or SIGTERM.",
        discussion: """
            Works from any directory, as `up` does (TOPOLOGY read where it is, everything written to the run \
            directory). Once every host is up it prints the tree and every event after it (`watch --from-start`), \
            until SIGINT (Ctrl-C) or SIGTERM, --for seconds, or the supervisor's end; then stops every daemon as \
            `down` does. Exit 0 when it was stopped and everything stopped on its own; 1 when it did not start, the \
            supervisor ended by itself, or something had to be killed or cleaned (each said on standard error).
            """
    )
    @Argument(help: "The topology (YAML).") var topology: String
    @Option(name: .customLong("for"), help: "Stop after this many seconds (default: when interrupted).")
    var duration: Double?
    @OptionGroup var runtime: RuntimeOptions

    /// Why the run ends.
    enum Ending: Equatable {
        case signal(Int32)
        case timeUp
        case supervisorEnded
    }

    package func run() async throws {
        // Taken before anything starts: a Ctrl-C while the hosts start stops them once they are up.
        let endings = AsyncStream.makeStream(of: Ending.self)
        let sources = [SIGINT, SIGTERM].map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { endings.continuation.yield(.signal(number)) }
            source.resume()
            return source
        }
        defer { sources.forEach { $0.cancel() } }
        let started = try await UpCommand.start(topology: topology, runtime: runtime)
        let lifecycle = started.lifecycle
        let supervisors = lifecycle.supervisorNames.map { "supervisors \($0.joined(separator: " "))" } ?? "supervisor"
        Self.say(
            "run: \(supervisors) and \(started.hosts.count) hosts (\(started.hosts.joined(separator: " "))) in "
                + "\(started.runDirectory); Ctrl-C stops them"
        )
        let watch: Process
        do {
            watch = try lifecycle.startOwn(["watch", "--from-start"])
        } catch {
            // Nothing is left running because the printing could not start.
            FileHandle.standardError.write(Data("run: cannot start watch: \(error)\n".utf8))
            try? lifecycle.stopAndSay()
            throw ExitCode(1)
        }
        let timer = Task {
            if let duration {
                try? await Task.sleep(for: .milliseconds(Int64(duration * 1_000)))
                endings.continuation.yield(.timeUp)
            }
        }
        let pidFiles = lifecycle.supervisors.map(lifecycle.pidFile(supervisor:))
        let supervisor = Task {
            // Polled every 0.2 s: supervisors that end on their own end the run within that.
            while !Task.isCancelled, pidFiles.contains(where: { Lifecycle.livePID($0) != nil }) {
                try? await Task.sleep(for: .milliseconds(200))
            }
            if !Task.isCancelled { endings.continuation.yield(.supervisorEnded) }
        }
        var ending = Ending.timeUp
        for await first in endings.stream {
            ending = first
            break
        }
        timer.cancel()
        supervisor.cancel()
        Self.stop(watch)
        switch ending {
        case .signal(let number): Self.say("run: \(number == SIGINT ? "interrupted" : "terminated"); stopping")
        case .timeUp: Self.say("run: \(duration ?? 0) s passed; stopping")
        case .supervisorEnded:
            FileHandle.standardError.write(Data("run: the supervisor ended by itself (see its log)\n".utf8))
        }
        try lifecycle.stopAndSay()
        if ending == .supervisorEnded { throw ExitCode(1) }
    }

    /// Stops `process` with SIGTERM, and with SIGKILL if it still runs 5 s later (polled every 0.1 s).
    static func stop(_ process: Process) {
        process.terminate()
        for _ in 0..<50 where process.isRunning { Thread.sleep(forTimeInterval: 0.1) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }

    /// A line on standard output at once: `print` buffers it when the output is a file or a pipe, where `watch`'s
    /// lines, from its own process, would come first.
    static func say(_ line: String) {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }
}
