import ArgumentParser
import ContainmentModel
import ContainmentConfig

/// The `@main` type of an app's own host executable: it runs the kinds it registers, with the flags, settings,
/// logging and signals of `containment host`.
///
/// ```swift
/// @main struct GridHost: HostApp {
///     static var kinds: BehaviorRegistry {
///         var kinds = BehaviorRegistry()
///         kinds.register("grid", distributed: GridController.init(controller:))
///         kinds.register("tile") { TileBehavior() }
///         return kinds
///     }
/// }
/// ```
///
/// The supervisor starts it from a topology's host entry (`{name: grid-host, command: [path/to/GridHost]}`) with
/// `--name`, `--pid-file` and `--log-format`, and the run directory and settings in `CONTAINMENT_RUN_DIR` and
/// `CONTAINMENT_CONFIG`.
public protocol HostApp {
    /// The behaviors this host runs: the standard ones and the app's own kinds.
    static var kinds: BehaviorRegistry { get }
}

extension HostApp {
    public static func main() async {
        await HostMain.run(kinds: kinds)
    }
}

/// Runs a host process of the given kinds until SIGTERM or SIGINT.
public enum HostMain {
    /// Parses `arguments` (the process's own when `nil`) as `containment host` does — `--name`, `--config`,
    /// `--pid-file`, `--log-level`, `--log-format` — and serves until SIGTERM or SIGINT; then exits, with status 0
    /// after a clean stop, or prints the error (a bad flag, a bad setting, a socket that cannot connect) and exits
    /// with a failure status.
    public static func run(kinds: BehaviorRegistry, arguments: [String]? = nil) async -> Never {
        do {
            let command = try HostAppCommand.parse(arguments)
            try await command.options.serve(kinds: kinds)
            HostAppCommand.exit()
        } catch {
            HostAppCommand.exit(withError: error)
        }
    }
}

/// An app's host executable as a command of its own name: `GridHost --help` says `USAGE: GridHost …`.
struct HostAppCommand: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            commandName: CommandLine.arguments.first?.split(separator: "/").last.map(String.init) ?? "host",
            abstract: "A Containment host: runs this app's kinds of controllers for the supervisor that starts it."
        )
    }

    @OptionGroup var options: HostOptions
}

/// `containment host`'s flags, and an app's host executable's.
package struct HostOptions: ParsableArguments {
    @OptionGroup package var daemon: DaemonOptions

    @Option(help: "The host's name, as topologies and `ctl create --host` name it.")
    package var name: String

    package init() {}

    /// Runs the host until SIGTERM or SIGINT.
    package func serve(kinds: BehaviorRegistry) async throws {
        let config = try daemon.config()
        let logger = daemon.logger("containment.host.\(name)", format: config.logFormat)
        try await ContainmentHost.serve(
            HostService(name: name, config: config, kinds: kinds, pidFile: daemon.pidFile, logger: logger),
            logger: logger
        )
    }
}
