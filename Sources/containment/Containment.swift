import ArgumentParser

/// `containment`: one executable, a subcommand per role.
@main
struct Containment: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "containment",
        abstract: "A multi-process runtime for view-controller trees.",
        discussion: """
            The supervisor, hosts, ctl, watch and tree arrive with the runtime; today `demo` plays the seeds' \
            container listings through the model and prints their events.
            """,
        subcommands: [DemoCommand.self]
    )
}
