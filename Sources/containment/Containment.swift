import ArgumentParser

/// `containment`: one executable, a subcommand per role.
@main
struct Containment: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "containment",
        abstract: "A multi-process runtime for view-controller trees.",
        discussion: """
            Daemons: `supervisor` (the authority) and `host` (runs controller actors). Clients: `ctl` (one verb per \
            command), `watch` (the event stream), `tree` (the hierarchy now), `inspect` (what one actor received). \
            Every command honours CONTAINMENT_RUN_DIR (sockets, pid files, logs).
            """,
        subcommands: [
            SupervisorCommand.self, HostCommand.self, CtlCommand.self, WatchCommand.self, TreeCommand.self,
            InspectCommand.self, WaitCommand.self, PingCommand.self, TopologyCommand.self, DemoCommand.self,
            StressCommand.self, BenchCommand.self, BenchPeerCommand.self, JournalCommand.self, KeygenCommand.self,
            InspectorCommand.self,
        ]
    )
}
