import ArgumentParser
import ContainmentHost
import ContainmentBus
import ContainmentModel
import Foundation

/// `containment ctl VERB …`: one verb per model command, sent to the supervisor as one transaction.
struct CtlCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ctl",
        abstract: "Drive the runtime: one verb per command, acting as a controller where identity matters.",
        discussion: """
            Without --by, a verb acts as the party the rules expect (the parent for add-child, embed and a child's \
            frame; the owner for a view's other properties; the system for create, attach, resize, memory-warning). \
            A view is a controller id (its root view) or ID/NAME (a subview it owns).

            Exit status (docs/OPERATIONS.md):
              0   accepted
              1   rejected by the rules: one line `code: sentence` on standard error
              3   no supervisor at the endpoint, or no reply within requestTimeoutMs (timeout, hostUnavailable)
              64  bad usage: an unknown verb (with the one most likely meant), a missing or malformed argument
            """,
        subcommands: CtlVerbs.all
    )
}

/// What every verb shares.
struct CtlOptions: ParsableArguments {
    @Option(help: "Act as this controller (or `system`); default: the party the rules expect.")
    var by: String?

    @Flag(help: "Print the reply as JSON: {commandId, events} or {code, message, index}.")
    var json = false

    @Flag(help: "Print nothing on success.")
    var quiet = false

    @OptionGroup var runtime: RuntimeOptions

    var party: Party { by.map { Party(parsing: $0) } ?? .natural }
}

/// A verb: the commands it stands for.
protocol CtlVerb: AsyncParsableCommand {
    var options: CtlOptions { get }
    /// The requests, given a way to read the current state when a default depends on it.
    func requests(_ state: () throws -> WireSnapshot) throws -> [Request]
}

extension CtlVerb {
    func run() async throws {
        let connection = try Connection(options.runtime)
        let requests = try self.requests { try connection.client.snapshot() }
        try submit(requests.map { WireCommand($0) }, through: connection, options: options)
    }
}

/// Sends commands as one transaction and prints the outcome.
func submit(_ commands: [WireCommand], through connection: Connection, options: CtlOptions) throws {
    do {
        let accepted = try connection.client.submit(commands)
        guard !options.quiet else { return }
        if options.json {
            print(JSONText.encode(["commandId": accepted.commandID, "events": accepted.events.map(\.jsonObject)]))
        } else {
            for event in accepted.events { print(event.line) }
        }
    } catch {
        if options.json {
            print(
                JSONText.encode([
                    "code": error.error.code.rawValue, "message": error.error.message, "index": error.index,
                ])
            )
        } else {
            // In a batch, which command failed: its 0-based index, as the protocol gives it.
            let which = commands.count > 1 ? " (command at index \(error.index))" : ""
            FileHandle.standardError.write(Data("\(error.error.code): \(error.error.message)\(which)\n".utf8))
        }
        throw ExitStatus.of(error.error.code)
    }
}

extension Request {
    /// `command` as `options` says: its `--by`, or the natural party.
    init(_ command: Command, _ options: CtlOptions) {
        self.init(command, by: options.party)
    }
}
