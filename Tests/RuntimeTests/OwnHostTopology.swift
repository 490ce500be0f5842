import ContainmentModel
import ContainmentClient
import ContainmentTestKit
import Foundation
import Testing

/// A topology whose hosts run the project's own `containment host` (named as their `command`), for tests that start
/// it with ContainmentTestKit.
enum OwnHostTopology {
    /// `hosts:` naming each of `names`, each running `containment host`.
    static func hosts(_ names: String...) -> String {
        "hosts:\n" + names.map { "  - {name: \($0), command: [\(RuntimeFixture.binary), host]}\n" }.joined()
    }

    /// Runs `body` on a runtime of `topology` (and runtime.yaml `settings`), each written to a file of its own and
    /// removed after.
    static func withRuntime(
        _ topology: String,
        settings: String? = nil,
        _ body: (TestRuntime) async throws -> Void
    ) async throws {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("topology-\(UUID())").path
        try topology.write(toFile: base + ".yaml", atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: base + ".yaml") }
        if let settings { try settings.write(toFile: base + "-runtime.yaml", atomically: true, encoding: .utf8) }
        defer { try? FileManager.default.removeItem(atPath: base + "-runtime.yaml") }
        try await ContainmentTestKit.withRuntime(
            topology: base + ".yaml",
            configPath: settings == nil ? nil : base + "-runtime.yaml",
            body
        )
    }

    /// Whether each of `ids` received exactly the callbacks `events` published for it, in order (the latest ones,
    /// waiting up to 20 s for them to arrive).
    static func expectCallbacks(
        of ids: [ControllerID],
        as events: [Event],
        _ client: RuntimeClient,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        for id in ids {
            let published = events.filter { $0.isCallback && $0.controller == id }
            #expect(!published.isEmpty, "\(id)", sourceLocation: sourceLocation)
            var received: [Event] = []
            try await Poll.until(within: .seconds(20)) {
                received = Array(try await client.callbacks(of: id).suffix(published.count))
                return received == published
            }
            #expect(received == published, "\(id)", sourceLocation: sourceLocation)
        }
    }
}
