import ArgumentParser
import ContainmentHost
import ContainmentConfig
import ContainmentRuntime

/// `containment topology FILE`: checks a topology and prints its hosts, one per line (for scripts/up.sh).
struct TopologyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "topology",
        abstract: "Check a topology file and print the hosts it needs, one per line.",
        discussion: """
            Checks what the supervisor would: the file's keys, each controller's kind against its host, every name \
            and text against runtime.yaml's limits (maxTextBytes), and every command through the rules as one \
            transaction on an empty tree (a cycle, a container of the wrong kind, a presentation that cannot be \
            made), without starting anything. Exit 1 with the first command refused and why.
            """
    )

    @Argument(help: "A topology file (YAML).") var file: String

    @OptionGroup var runtime: RuntimeOptions

    @Flag(help: "Only the hosts the supervisor starts (not those marked remote).")
    var local = false

    func run() throws {
        // A refused file is exit 1 with the reason (not a usage error).
        let topology = try Topology.load(path: file, kindsOf: .builtIn)
        do {
            try topology.check(config: try runtime.load())
        } catch let error as ConfigError {
            throw ConfigError("\(file): \(error.description)")
        }
        for host in local ? topology.localHosts : topology.hosts { print(host) }
    }
}
