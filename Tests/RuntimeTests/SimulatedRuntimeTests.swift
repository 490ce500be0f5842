import ContainmentClient
import ContainmentHost
import ContainmentModel
import ContainmentTestKit
import Foundation
import Testing

/// ContainmentTestKit's runtime in memory (`withSimulatedRuntime`) on the project's own kinds: the topology's hosts
/// registered and idle when the body runs; virtual time that passes only when the test says; faults on request.
@Suite struct SimulatedRuntimeTests {
    static let tabs = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().appendingPathComponent("../../Config/topologies/tabs.yaml").standardized.path

    static func topology() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("simulated-\(UUID()).yaml").path
        try """
        window: {name: main, width: 800, height: 600, root: box}
        hosts: [h0, h1]
        controllers:
          - {id: box, kind: content, host: h0}
          - {id: tally, kind: counter, host: h1, parent: box}
        """.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test func theTopologyIsUpWhenTheBodyRuns() async throws {
        try await withSimulatedRuntime(topology: Self.tabs, kinds: BehaviorRegistry()) { runtime in
            let snapshot = try await runtime.snapshot()
            #expect(Set(snapshot.hosts.filter(\.up).map(\.name)) == Set(runtime.hosts))
            #expect(snapshot.controller("feedNav")?.parent == "tabs")
            // Each actor got its callbacks (the model's order): post1 is the feed's top, shown.
            #expect(
                try await runtime.callbacks(of: "post1").map(\.name).suffix(2) == ["viewDidAppear", "didMoveToParent"]
            )
        }
    }

    /// A timed transition ends only when virtual time passes: the pushed controller has appeared then, not before.
    @Test func anAnimatedPushEndsWhenVirtualTimePasses() async throws {
        try await withSimulatedRuntime(topology: Self.tabs, kinds: BehaviorRegistry()) { runtime in
            try await runtime.perform([.dismiss("sheet")])
            try await runtime.perform([.push("post2", on: "feedNav", animated: true)])
            try await runtime.runUntilIdle()
            #expect(try await runtime.callbacks(of: "post2").map(\.name).last == "viewWillAppear")
            #expect(try await runtime.snapshot().controller("post2")?.appearance == .appearing)
            try await runtime.advance(by: .seconds(1))
            #expect(
                try await runtime.callbacks(of: "post2").map(\.name).suffix(2) == ["viewDidAppear", "didMoveToParent"]
            )
            #expect(try await runtime.snapshot().controller("post2")?.appearance == .appeared)
        }
    }

    /// A declared method name is a call only for a kind with typed methods: a string verb that ends with `)` still
    /// reaches other code as its callback, and a call of a kind without methods is refused before it is journaled.
    @Test func aStringVerbEndingWithAParenthesisIsNotACall() async throws {
        let path = try Self.topology()
        defer { try? FileManager.default.removeItem(atPath: path) }
        var kinds = BehaviorRegistry.builtIn
        kinds.register("counter", verbs: ["reset()"]) { Resettable() }
        try await withSimulatedRuntime(topology: path, kinds: kinds) { runtime in
            try await runtime.perform([.invoke("tally", verb: "reset()", arguments: [])])
            try await runtime.runUntilIdle()
            #expect(try await runtime.snapshot().controller("tally")?.properties.title == "reset")
            do {
                _ = try await CounterController.resolve(id: "tally", using: runtime.actorSystem()).value()
                Issue.record("a call of a kind without typed methods was answered")
            } catch let error as RemoteError {
                #expect(error.error == ContainmentError(.unknownVerb, "tally, a counter, has no typed methods."))
                #expect(error.commandID == 0)
            }
        }
    }

    /// Typed calls reach the controller's actor; a host stopped takes nothing until it continues, and a call to it
    /// waits — answered once it does.
    @Test func aCallToAPausedHostIsAnsweredWhenItContinues() async throws {
        let path = try Self.topology()
        defer { try? FileManager.default.removeItem(atPath: path) }
        try await withSimulatedRuntime(topology: path, kinds: .builtIn) { runtime in
            let tally = try CounterController.resolve(id: "tally", using: runtime.actorSystem())
            #expect(try await tally.add(5) == 5)
            try await runtime.pause(host: "h1")
            async let later = tally.add(2)
            try await runtime.runUntilIdle()
            try await runtime.resume(host: "h1")
            #expect(try await later == 7)
        }
    }

    /// The same seed moves the messages in the same order: the same events, to the seq.
    @Test func theSameSeedPublishesTheSameEvents() async throws {
        func run(_ seed: UInt64) async throws -> [String] {
            try await withSimulatedRuntime(topology: Self.tabs, kinds: BehaviorRegistry(), seed: seed) { runtime in
                try await runtime.perform([.select("tabs", .index(1))])
                try await runtime.runUntilIdle()
                return try await runtime.events().map { "\($0)" }
            }
        }
        let first = try await run(4)
        #expect(try await run(4) == first)
        #expect(first.count > 20)
    }
}

/// Answers the string verb `reset()` by titling itself.
private struct Resettable: ControllerBehavior {
    func handle(_ callback: Event, controller: ControllerRef) async {
        guard case .verbInvoked(_, "reset()", _, _) = callback else { return }
        _ = try? await controller.setProperties([.title("reset")])
    }
}
