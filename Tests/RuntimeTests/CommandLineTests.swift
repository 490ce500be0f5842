import Foundation
import Subprocess
import Testing

/// Issue 27, a CLI that explains itself: exit 3 when no supervisor can be reached (as `ctl --help` promises), and a
/// mistyped subcommand is a usage error (64) that names the one most likely meant.
@Suite struct CommandLineTests {
    static let nowhere: [Environment.Key: String?] = [
        "CONTAINMENT_RUN_DIR": "/tmp/containment-nothing-here-\(getpid())"
    ]

    @Test(arguments: [["ctl", "select", "menu", "1"], ["tree"], ["inspect", "menu"]])
    func noSupervisorIsExit3(arguments: [String]) async throws {
        let output = try await RuntimeFixture.run(RuntimeFixture.binary, arguments, environment: Self.nowhere)
        #expect(output.status == 3, "\(arguments): \(output.stderr)")
        #expect(output.stderr.contains("hostUnavailable: No supervisor listens at"), "\(output.stderr)")
    }

    @Test func aMistypedSubcommandNamesTheOneMeant() async throws {
        let verb = try await RuntimeFixture.run(RuntimeFixture.binary, ["ctl", "slect", "menu", "1"])
        #expect(verb.status == 64)
        #expect(
            verb.stderr.contains("containment ctl: no subcommand \"slect\"; did you mean \"select\"?"),
            "\(verb.stderr)"
        )
        let nested = try await RuntimeFixture.run(RuntimeFixture.binary, ["journal", "statz"])
        #expect(nested.status == 64 && nested.stderr.contains("did you mean \"stats\"?"), "\(nested.stderr)")
        // Nothing near: the subcommands to choose from are a --help away.
        let far = try await RuntimeFixture.run(RuntimeFixture.binary, ["zzzz"])
        #expect(far.status == 64 && far.stderr.contains("no subcommand \"zzzz\" (see 'containment --help')"))
        // Options, help and real subcommands are ArgumentParser's as before.
        let help = try await RuntimeFixture.run(RuntimeFixture.binary, ["ctl", "select", "--help"])
        #expect(help.status == 0 && help.stdout.contains("USAGE: containment ctl select"))
    }

    /// `tree` draws in one format at a time, `--constraints` only with `--svg`: anything else is a usage error before
    /// any supervisor is asked.
    @Test func treeTakesOneFormat() async throws {
        let both = try await RuntimeFixture.run(
            RuntimeFixture.binary,
            ["tree", "--dot", "--svg"],
            environment: Self.nowhere
        )
        let message = "Choose one of --json, --dot and --svg (--constraints draws on --svg)."
        #expect(both.status == 64 && both.stderr.contains(message), "\(both.stderr)")
        // The constraints are drawn on the SVG drawing only.
        let alone = try await RuntimeFixture.run(
            RuntimeFixture.binary,
            ["tree", "--json", "--constraints"],
            environment: Self.nowhere
        )
        #expect(alone.status == 64 && alone.stderr.contains(message), "\(alone.stderr)")
    }

    /// Every argument, option and flag of every subcommand says what it is (ArgumentParser's own `help` aside).
    @Test func everyArgumentHasHelp() async throws {
        let dump = try await RuntimeFixture.run(RuntimeFixture.binary, ["--experimental-dump-help"])
        let tool = try #require(JSON.object(dump.stdout)?["command"] as? [String: Any])
        var missing: [String] = []
        var counted = 0
        func walk(_ command: [String: Any], _ path: [String]) {
            for argument in command["arguments"] as? [[String: Any]] ?? []
            where argument["shouldDisplay"] as? Bool != false {
                counted += 1
                if (argument["abstract"] as? String ?? "").isEmpty {
                    let names = (argument["names"] as? [[String: Any]] ?? []).compactMap { $0["name"] as? String }
                    missing.append(
                        "\(path.joined(separator: " ")): \(names.first ?? argument["valueName"] as? String ?? "?")"
                    )
                }
            }
            for sub in command["subcommands"] as? [[String: Any]] ?? [] where sub["commandName"] as? String != "help" {
                walk(sub, path + [sub["commandName"] as? String ?? "?"])
            }
        }
        walk(tool, ["containment"])
        #expect(counted > 100)
        #expect(missing.isEmpty, "\(missing)")
    }
}
