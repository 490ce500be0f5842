import ContainmentClient
import ContainmentHost
import ContainmentModel
import ContainmentTestKit
import Foundation
import Synchronization
import Testing

/// ContainmentTestKit on the project's own host (`containment host`, named as the hosts' `command`): the runtime is up
/// when the body runs, and nothing it started outlives it, whether the body returns or throws.
@Suite(.serialized) struct TestKitTests {
    /// A topology file whose two hosts run `containment host`.
    static func topology() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("testkit-\(UUID()).yaml").path
        try """
        window: {name: main, width: 800, height: 600, root: box}
        hosts:
          - {name: h0, command: [\(RuntimeFixture.binary), host]}
          - {name: h1, command: [\(RuntimeFixture.binary), host]}
        controllers:
          - {id: box, kind: content, host: h0}
          - {id: tally, kind: counter, host: h1, parent: box}
        """.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    struct Planned: Error {}

    /// How long the kit may take to see both hosts up: a bound on a failure, not a wait — it returns as soon as they
    /// are. Two debug-build hosts share the two cores with the whole suite. (The "timed out" CI saw twice was not
    /// their speed: CPU-bound tests held both threads of Swift's cooperative pool, so the kit's supervisor task could
    /// not start. It now runs on an executor of its own, and those tests on the CPU lane — `CPULane`.)
    static let startTimeout = Duration.seconds(120)

    @Test func theHostsAreUpInTheBodyAndGoneAfterIt() async throws {
        let path = try Self.topology()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let (pids, directory) = try await withRuntime(topology: path, timeout: Self.startTimeout) { runtime in
            let snapshot = try await runtime.client().snapshot()
            #expect(Set(snapshot.hosts.filter(\.up).map(\.name)) == ["h0", "h1"])
            #expect(snapshot.controller("tally")?.parent == "box")
            // Typed calls and the callbacks of an actor, through the kit.
            let tally = try CounterController.resolve(id: "tally", using: runtime.actorSystem())
            #expect(try await tally.add(5) == 5)
            #expect(try await runtime.client().callbacks(of: "tally").map(\.name).contains("verbInvoked"))
            return (try ["h0", "h1"].map { try #require(runtime.pid(ofHost: $0)) }, runtime.runDirectory)
        }
        for pid in pids { #expect(kill(pid, 0) != 0, "host process \(pid) outlived the runtime") }
        #expect(!FileManager.default.fileExists(atPath: directory))
    }

    /// `waitIdle` returns once what the test's commands set going has happened: code acting in answer (seed 003's
    /// master pushes its detail, as itself) and a timed switch (an animated pop, `animationDuration` long).
    @Test func waitIdleReturnsOnceTheCodeActedAndTheSwitchEnded() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("testkit-\(UUID()).yaml").path
        try """
        window: {name: main, width: 800, height: 600, root: n}
        hosts:
          - {name: h0, command: [\(RuntimeFixture.binary), host]}
          - {name: h1, command: [\(RuntimeFixture.binary), host]}
        controllers:
          - {id: n, kind: navigation, host: h0}
          - {id: master, kind: master, host: h1}
          - {id: detail, kind: content, host: h1}
        """.write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        try await withRuntime(topology: path, timeout: Self.startTimeout) { runtime in
            let client = try runtime.client()
            try await client.perform([.push("master", on: "n")])
            try await client.perform([.invoke("master", verb: "show", arguments: ["detail"])])
            try await runtime.waitIdle()
            #expect(try await client.snapshot().controller("n")?.children == ["master", "detail"])
            #expect(try await client.snapshot().controller("detail")?.appearance == .appeared)

            try await client.perform([.pop("n", animated: true)])
            try await runtime.waitIdle()
            let snapshot = try await client.snapshot()
            #expect(snapshot.controller("n")?.children == ["master"])
            #expect(snapshot.controller("master")?.appearance == .appeared)
            #expect(snapshot.controller("detail")?.appearance == .disappeared)
        }
    }

    @Test func aBodyThatThrowsStillStopsEverything() async throws {
        let path = try Self.topology()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let started = Locked<[Int32]>([])
        let directory = Locked<String>("")
        await #expect(throws: Planned.self) {
            try await withRuntime(topology: path, timeout: Self.startTimeout) { runtime in
                started.set(try ["h0", "h1"].map { try #require(runtime.pid(ofHost: $0)) })
                directory.set(runtime.runDirectory)
                throw Planned()
            }
        }
        #expect(started.get().count == 2)
        for pid in started.get() { #expect(kill(pid, 0) != 0, "host process \(pid) outlived the runtime") }
        #expect(!FileManager.default.fileExists(atPath: directory.get()))
    }
}

/// A value set inside a closure that may not capture a variable.
final class Locked<Value: Sendable>: Sendable {
    private let value: Mutex<Value>
    init(_ value: Value) { self.value = Mutex(value) }
    func set(_ new: Value) { value.withLock { $0 = new } }
    func get() -> Value { value.withLock { $0 } }
}
