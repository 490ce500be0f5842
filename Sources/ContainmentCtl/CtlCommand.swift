import ArgumentParser
import ContainmentHost
import ContainmentBus
import ContainmentModel
import Foundation

/// `containment ctl VERB …`: one verb per model command, sent to the supervisor as one transaction.
package struct CtlCommand: AsyncParsableCommand {
    package init() {}

    package static let configuration = CommandConfiguration(
        commandName: "ctl",
        abstract: "Drive the runtime: one verb per command, acting as a controller where identity matters.",
        discussion: """
            Without --by, a verb acts as the party the rules expect (the parent for add-child, embed and a child's \
            frame; the owner for a view's other properties; the system for create, attach, resize, memory-warning). \
            A view is a controller id (its root view) or ID/NAME (a subview it owns).

            Exit status (docs/OPERATIONS.md):
              0   accepted
              1   rejected by the rules: one line `code: sentence` on standard error
              1   wait-idle, --wait: still busy at the timeout (`busy:` and what moves)
              3   no supervisor at the endpoint, or no reply within requestTimeoutMs (timeout, hostUnavailable)
              64  bad usage: an unknown verb (with the one most likely meant), a missing or malformed argument
            """,
        subcommands: CtlVerbs.all + [CallVerb.self, WaitIdle.self]
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

    @Flag(help: "Once answered, print where the command spent its time, hop by hop (as `containment trace`).")
    var trace = false

    @Flag(
        help: """
            Once accepted, wait until the runtime is idle (as `ctl wait-idle`): a timed switch completed, and what \
            controllers' code did in answer done.
            """
    )
    var wait = false

    @Option(help: "How long --wait waits, in seconds, before exit 1 naming what still moves.")
    var waitTimeout: Double = 10

    @OptionGroup var runtime: RuntimeOptions

    var party: Party { by.map { Party(parsing: $0) } ?? .natural }
}

/// A verb: the commands it stands for.
protocol CtlVerb: AsyncParsableCommand {
    var options: CtlOptions { get }
    /// The requests, given a way to read the current state when a default depends on it.
    func requests(_ state: () throws -> TreeView) throws -> [Request]
}

extension CtlVerb {
    func run() async throws {
        let connection = try Connection(options.runtime)
        let requests = try self.requests { try connection.snapshot().tree }
        try submit(requests.map { Placed($0) }, through: connection, options: options)
    }
}

/// A request and, for a create, the host it is to run on (default: the least loaded).
struct Placed: Equatable {
    var request: Request
    var host: String?

    init(_ request: Request, host: String? = nil) {
        self.request = request
        self.host = host
    }

    /// The hosts named for the controllers the creates among `placed` make.
    static func hosts(of placed: [Placed]) -> [ControllerID: String] {
        var hosts: [ControllerID: String] = [:]
        for item in placed {
            if case .create(let id, _, _) = item.request.command, let host = item.host { hosts[id] = host }
        }
        return hosts
    }
}

/// Sends requests as one transaction and prints the outcome.
func submit(_ commands: [Placed], through connection: Connection, options: CtlOptions) throws {
    let accepted = try accept(commands, through: connection, options: options)
    if !options.quiet {
        if options.json {
            print(JSONText.encode(["commandId": accepted.commandID, "events": accepted.events.map(\.jsonObject)]))
        } else {
            for event in accepted.events { print(event.line) }
        }
    }
    if options.trace { try TraceOutput.show(accepted.commandID, through: connection, json: options.json) }
    if options.wait { try waitUntilIdle(connection, timeout: options.waitTimeout) }
}

/// Submits `commands` as one transaction; a rejection is printed (as JSON with `--json`) and thrown as its exit status.
func accept(_ commands: [Placed], through connection: Connection, options: CtlOptions) throws -> Acceptance {
    do throws(RemoteError) {
        return try connection.client.submit(commands.map(\.request), hosts: Placed.hosts(of: commands))
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

/// Waits until the runtime is idle; exit 1 with `busy: …` when it is not within `timeout` seconds, 3 when unreachable.
@discardableResult
func waitUntilIdle(_ connection: Connection, timeout: Double) throws -> UInt64 {
    let outcome: IdleOutcome
    do {
        outcome = try connection.client.waitUntilIdle(timeout: .milliseconds(Int64(timeout * 1000)))
    } catch {
        FileHandle.standardError.write(Data("\(error.code): \(error.message)\n".utf8))
        throw ExitStatus.of(error.code)
    }
    switch outcome {
    case .idle(let seq):
        return seq
    case .busy(let reason):
        FileHandle.standardError.write(Data("busy: still moving after \(timeout) s: \(reason)\n".utf8))
        throw ExitStatus.rejected
    }
}

/// `ctl wait-idle`: returns once nothing moves (for scripts, between commands that start animated switches).
struct WaitIdle: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "wait-idle",
        abstract:
            "Wait until nothing moves: no timed switch, no command waiting for code, code done with its callbacks.",
        discussion: """
            Idle: no timed switch runs (SPEC §13), no command waits for controllers' code to answer (SPEC §15), no \
            callbacks wait for a host that is up, and every controller's actor handled every callback delivered to it \
            without its code issuing a command. Prints `idle at seq N`. Exit 0 idle, 1 still busy at \
            --timeout (`busy:` and what moves), 3 unreachable.
            """
    )
    @Option(help: "How long to wait, in seconds.") var timeout: Double = 10
    @Flag(help: "Print nothing when idle.") var quiet = false
    @OptionGroup var runtime: RuntimeOptions

    func run() async throws {
        let connection = try Connection(runtime)
        let seq = try waitUntilIdle(connection, timeout: timeout)
        if !quiet { print("idle at seq \(seq)") }
    }
}
