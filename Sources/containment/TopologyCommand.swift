import ArgumentParser
import ContainmentRuntime

/// `containment topology FILE`: checks a topology and prints its hosts, one per line (for scripts/up.sh).
struct TopologyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "topology",
        abstract: "Check a topology file and print the hosts it needs, one per line."
    )

    @Argument var file: String

    @Flag(help: "Only the hosts the supervisor starts (not those marked remote).")
    var local = false

    func run() throws {
        do {
            let topology = try Topology.load(path: file)
            for host in local ? topology.localHosts : topology.hosts { print(host) }
        } catch let error as ConfigError {
            throw ValidationError(error.description)
        }
    }
}
