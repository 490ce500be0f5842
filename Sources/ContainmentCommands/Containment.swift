import ArgumentParser
import ContainmentCtl
import Foundation

/// `containment` (and `containment-etcd`): one executable, a subcommand per role.
package struct Containment: AsyncParsableCommand {
    package static let configuration = CommandConfiguration(
        commandName: programName,
        abstract: "A multi-process runtime for view-controller trees.",
        discussion: """
            Daemons: `supervisor` (the authority) and `host` (runs controller actors). Clients: `ctl` (one verb per \
            command), `watch` (the event stream), `tree` (the hierarchy now), `inspect` (what one actor received). \
            Every command honours CONTAINMENT_RUN_DIR (sockets, pid files, logs).
            """,
        version: ContainmentVersion.text,
        subcommands: [
            SupervisorCommand.self, HostCommand.self, CtlCommand.self, WatchCommand.self, TreeCommand.self,
            InspectCommand.self, WaitCommand.self, PingCommand.self, TopologyCommand.self, DemoCommand.self,
            StressCommand.self, BenchCommand.self, BenchPeerCommand.self, JournalCommand.self, KeygenCommand.self,
            ConfigCommand.self, StatusCommand.self, SystemdCommand.self, SimulateCommand.self, MethodsCommand.self,
            UpCommand.self, DownCommand.self, RunCommand.self, TraceCommand.self,
        ]
    )

    package init() {}

    /// The name this program runs by, in its usage lines: `containment-etcd` for that binary, else `containment`.
    static let programName =
        CommandLine.arguments.first.map { URL(fileURLWithPath: $0).lastPathComponent } == "containment-etcd"
        ? "containment-etcd" : "containment"

    /// ArgumentParser's own entry point, after a look for a mistyped subcommand: that is a usage error (exit 64) which
    /// names the subcommand most likely meant.
    package static func runCommandLine() async {
        if let message = SubcommandSuggestion.message(for: Array(CommandLine.arguments.dropFirst()), in: Self.self) {
            FileHandle.standardError.write(Data("Error: \(message)\n".utf8))
            Foundation.exit(ExitCode.validationFailure.rawValue)
        }
        do {
            var command = try parseAsRoot()
            if var command = command as? any AsyncParsableCommand {
                try await command.run()
            } else {
                try command.run()
            }
        } catch {
            exit(withError: error)
        }
    }
}
