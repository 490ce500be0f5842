import ContainmentClient
import ContainmentModel
import ContainmentTestKit
import Foundation
import Testing

/// Issue 44, item 7: `RuntimeClient` is async and `Sendable`; its one socket is used by one thread of its own, which
/// ends with the client; a request whose task is cancelled gives up at once with `cancelled`.
@Suite struct AsyncClientTests {
    /// The threads of this process named `name` (Linux keeps 15 bytes of a thread's name).
    static func threads(named name: String) -> Int {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
        return tasks.filter { task in
            let comm = try? String(contentsOfFile: "/proc/self/task/\(task)/comm", encoding: .utf8)
            return comm?.trimmingCharacters(in: .whitespacesAndNewlines) == name
        }.count
    }

    /// Creates `ids` with one request each, all at once from as many tasks through one client; returns the name of
    /// the client's thread, counted while the client lives.
    static func createConcurrently(_ ids: [ControllerID], in runtime: TestRuntime) async throws -> String {
        let client = try runtime.client()
        let name = "client-" + client.clientID.prefix(8)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for id in ids {
                group.addTask { _ = try await client.perform([.create(id, kind: .content)]) }
            }
            try await group.waitForAll()
        }
        #expect(Self.threads(named: name) == 1, "the client's requests ran on \(Self.threads(named: name)) threads")
        let snapshot = try await client.snapshot()
        #expect(ids.allSatisfy { snapshot.controller($0) != nil })
        return name
    }

    @Test func theRequestsOfManyTasksShareTheClientsOneThreadWhichEndsWithIt() async throws {
        let path = try TestKitTests.topology()
        defer { try? FileManager.default.removeItem(atPath: path) }
        try await withRuntime(topology: path, timeout: TestKitTests.startTimeout) { runtime in
            let ids = (0..<24).map { ControllerID("many\($0)") }
            let name = try await Self.createConcurrently(ids, in: runtime)
            // The client is gone: its thread ends (asynchronously, so polled).
            #expect(try await Poll.until { Self.threads(named: name) == 0 }, "the client's thread outlived it")
        }
    }

    /// No supervisor listens, and requests are resent for ten minutes before they fail: only a cancellation ends them
    /// sooner. The first is in flight on the client's thread when it is cancelled, the second still queued behind it.
    @Test func aCancelledTasksRequestGivesUpAtOnceInFlightOrQueued() async throws {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("containment-cancel-\(UUID().uuidString.prefix(8))").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        // A TCP endpoint nobody listens at (an ipc:// socket file that is not there is refused at once).
        try "command: tcp://127.0.0.1:9\nrequestTimeoutMs: 600000\n"
            .write(toFile: directory + "/runtime.yaml", atomically: true, encoding: .utf8)
        let client = try RuntimeClient(
            environment: ["CONTAINMENT_RUN_DIR": directory, "CONTAINMENT_CONFIG": directory + "/runtime.yaml"]
        )
        let inFlight = Task { try await client.snapshot() }
        let queued = Task { try await client.perform([.create("never", kind: .content)]) }
        // Time under test: the first request resent for 200 ms before its task is cancelled (were it not sent yet,
        // it must give up all the same).
        try await Task.sleep(for: .milliseconds(200))
        inFlight.cancel()
        queued.cancel()
        for outcome in [await inFlight.result.map { _ in () }, await queued.result.map { _ in () }] {
            guard case .failure(let error) = outcome else {
                Issue.record("a cancelled request was answered")
                continue
            }
            #expect((error as? RemoteError)?.error.code == .cancelled, "\(error)")
        }
        // A task cancelled before it asks gives up without asking.
        let early = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await client.snapshot()
        }
        if case .failure(let error) = await early.result {
            #expect((error as? RemoteError)?.error.code == .cancelled, "\(error)")
        } else {
            Issue.record("a request of a cancelled task was answered")
        }
    }
}
