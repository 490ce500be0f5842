import ArgumentParser
import ContainmentHost
import ContainmentConfig
import ContainmentRuntime
import Foundation

/// `containment config check`: the runtime settings and a topology checked as the daemons would read them, without
/// starting anything (as `systemd-analyze verify` and `kubectl apply --dry-run` do).
struct ConfigCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "config",
        abstract: "Check runtime settings and topologies without starting anything.",
        subcommands: [Check.self, Replication.self]
    )

    /// What scripts/up.sh starts for a replicated runtime (`journal: etcd`): one line per supervisor
    /// (`supervisor NAME`), and — when every etcd endpoint is on this machine (http://127.0.0.1 or localhost) — the
    /// local cluster to start (`etcd CLIENT-PORTS PEER-PORTS`, each member's peer port its client port plus one).
    /// Nothing for a runtime that journals to a directory.
    struct Replication: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print the supervisors and the local etcd members of a replicated runtime (for scripts/up.sh)."
        )

        @OptionGroup var runtime: RuntimeOptions

        func run() throws {
            let config: RuntimeConfig
            do {
                config = try RuntimeConfig.load(from: runtime.config)
            } catch let error as ConfigError {
                throw Refused(error.description)
            }
            guard case .etcd(let settings) = config.journalStore else { return }
            for entry in config.supervisors { print("supervisor \(entry.name)") }
            if config.supervisors.isEmpty { print("supervisor supervisor") }
            if let members = settings.localMembers {
                print(
                    "etcd \(members.map { String($0.clientPort) }.joined(separator: ",")) "
                        + members.map { String($0.peerPort) }.joined(separator: ",")
                )
            }
        }
    }

    struct Check: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Check runtime.yaml and, with --topology, a topology.",
            discussion: """
                Reads the runtime settings (--config, else CONTAINMENT_CONFIG, else the built-in defaults) and the \
                topology as the supervisor would: an unknown key is refused with its line and the nearest known key \
                ("did you mean"), a value out of range with its bounds, and the topology's commands go through the \
                rules as one transaction on an empty tree. Exit 0 when everything holds, 1 with every reason \
                otherwise.
                """
        )

        @Option(help: "A topology file to check against the runtime settings.")
        var topology: String?

        @OptionGroup var runtime: RuntimeOptions

        func run() throws {
            let config: RuntimeConfig
            do {
                config = try RuntimeConfig.load(from: runtime.config)
            } catch let error as ConfigError {
                throw Refused(error.description)
            }
            print("runtime settings \(config.path ?? "(built-in defaults)"): ok")
            guard let topology else { return }
            let loaded: Topology
            do {
                loaded = try Topology.load(path: topology, kindsOf: .builtIn)
                try loaded.check(config: config)
            } catch let error as ConfigError {
                throw Refused(error.description.hasPrefix(topology) ? error.description : "\(topology): \(error)")
            }
            print(
                "topology \(topology): ok — \(loaded.controllers.count) controllers, hosts "
                    + (loaded.hosts.isEmpty ? "(none)" : loaded.hosts.joined(separator: ", "))
            )
        }
    }

    /// A refused file: its reasons on standard error, exit 1 (not a usage error).
    struct Refused: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }
}
