import ArgumentParser
import ContainmentHost
import ContainmentConfig
import ContainmentRuntime
import Foundation

/// `containment keygen`: CURVE key pairs (docs/SECURITY.md), as named, or every one runtime.yaml's `curve` section
/// and a topology need.
struct KeygenCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "keygen",
        abstract: "Write CURVE key pairs: PREFIX.public and PREFIX.secret (owner-only), each a Z85 key.",
        discussion: """
            With no PREFIX: every key pair the configuration's curve section names — the server's, the client's, \
            each host's of --topology, and each admitted .public file's — that does not exist yet.
            """
    )

    @Argument(help: "Key pairs to write (PREFIX.public, PREFIX.secret).") var prefixes: [String] = []
    @Option(help: "With no PREFIX: the topology whose hosts get key pairs.") var topology: String?
    @Flag(help: "Replace key pairs that exist (they are kept otherwise).") var replace = false
    @OptionGroup var runtime: RuntimeOptions

    func run() throws {
        var wanted = prefixes
        if wanted.isEmpty {
            let config = try runtime.load()
            guard let curve = config.curve else {
                throw ValidationError("The configuration has no curve section: name the key pairs to write.")
            }
            let hosts: [String]
            do {
                hosts = try topology.map { try Topology.load(path: $0).hosts } ?? []
            } catch let error as ConfigError {
                throw ValidationError(error.description)
            }
            wanted = curve.keyPairs(hosts: hosts)
        }
        var seen: Set<String> = []
        for prefix in wanted where seen.insert(prefix).inserted {
            do {
                let written = try CurveSettings.generate(prefix, replace: replace)
                print("\(written ? "wrote" : "kept") \(prefix).public, \(prefix).secret")
            } catch let error as ConfigError {
                throw ValidationError(error.description)
            }
        }
    }
}
