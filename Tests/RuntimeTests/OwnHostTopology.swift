import ContainmentTestKit
import Foundation

/// A topology whose hosts run the project's own `containment host` (named as their `command`), for tests that start
/// it with ContainmentTestKit.
enum OwnHostTopology {
    /// `hosts:` naming each of `names`, each running `containment host`.
    static func hosts(_ names: String...) -> String {
        "hosts:\n" + names.map { "  - {name: \($0), command: [\(RuntimeFixture.binary), host]}\n" }.joined()
    }

    /// Runs `body` on a runtime of `topology`, written to a file of its own and removed after.
    static func withRuntime(_ topology: String, _ body: (TestRuntime) async throws -> Void) async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("topology-\(UUID()).yaml").path
        try topology.write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        try await ContainmentTestKit.withRuntime(topology: path, body)
    }
}
