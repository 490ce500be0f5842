import ContainmentHost
import ContainmentModel
import ContainmentTestKit
import Foundation
import Testing

/// Runs `body` on ``withSimulatedRuntime(topology:kinds:seed:_:)`` of a topology given as text (written to a file of
/// its own and removed after), with `kinds` (those of `containment host` by default).
func withSimulatedTopology<Result: Sendable>(
    _ topology: String,
    kinds: BehaviorRegistry = .builtIn,
    seed: UInt64 = 1,
    _ body: (SimulatedRuntime) async throws -> Result
) async throws -> Result {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("simulated-\(UUID()).yaml").path
    try topology.write(toFile: path, atomically: true, encoding: .utf8)
    defer { try? FileManager.default.removeItem(atPath: path) }
    return try await withSimulatedRuntime(topology: path, kinds: kinds, seed: seed, body)
}

extension SimulatedRuntime {
    /// The descriptions of the events `requests` caused, or of the rejection as `code: message`.
    func described(_ requests: [Request]) async -> [String] {
        do {
            return try await perform(requests).map(\.description)
        } catch {
            return ["\(error)"]
        }
    }

    /// The descriptions of the callbacks `controller`'s actor received, in order.
    func describedCallbacks(of controller: ControllerID) async throws -> [String] {
        try await callbacks(of: controller).map(\.description)
    }

    /// Whether each of `ids` received exactly the callbacks `events` published for it, in order (its latest ones),
    /// once everything moved.
    func expectCallbacks(
        of ids: [ControllerID],
        as events: [Event],
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        try await runUntilIdle()
        for id in ids {
            let published = events.filter { $0.isCallback && $0.controller == id }
            #expect(!published.isEmpty, "\(id)", sourceLocation: sourceLocation)
            let received = try await callbacks(of: id).suffix(published.count)
            #expect(Array(received) == published, "\(id)", sourceLocation: sourceLocation)
        }
    }
}
