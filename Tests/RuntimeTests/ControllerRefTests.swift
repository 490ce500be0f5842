import ContainmentClient
import ContainmentHost
import ContainmentModel
import ContainmentTestKit
import Foundation
import Testing

/// What controller code does through its `ControllerRef`, in memory (`withSimulatedRuntime`).
@Suite struct ControllerRefTests {
    /// A custom container that swaps its two children on its verb `swap`, giving the incoming one a frame.
    struct Swapper: ControllerBehavior {
        static let frame = Rect(x: 10, y: 20, width: 300, height: 200)

        func handle(_ callback: Event, controller: ControllerRef) async {
            guard case .verbInvoked(_, "swap", _, _) = callback else { return }
            try? await controller.transition(from: "a", to: "b", frame: Self.frame)
        }
    }

    /// UIKit's `transition(from:to:duration:options:animations:completion:)`: the incoming child takes the outgoing
    /// one's place, at the frame its container gave, as the container.
    @Test func aTransitionPlacesTheIncomingChildAtTheFrameGiven() async throws {
        let topology = """
            window: {name: main, width: 800, height: 600, root: s}
            hosts: [h0]
            controllers:
              - {id: s, kind: swapper, host: h0}
              - {id: a, kind: content, host: h0}
              - {id: b, kind: content, host: h0}
            """
        var kinds = BehaviorRegistry()
        kinds.register("swapper", verbs: ["swap"]) { Swapper() }
        try await withSimulatedTopology(topology, kinds: kinds) { runtime in
            let embed: [Command] = [
                .addChild("a", to: "s"), .addSubview(.root("a"), to: .root("s")), .didMove("a", toParent: "s"),
                .addChild("b", to: "s"), .didMove("b", toParent: "s"),
            ]
            try await runtime.perform(embed.map { .by("s", $0) })
            try await runtime.perform([.invoke("s", verb: "swap")])
            try await runtime.runUntilIdle()
            let snapshot = try await runtime.snapshot()
            #expect(snapshot.views[.root("b")]?.superview == .root("s"))
            #expect(snapshot.views[.root("b")]?.frame == Swapper.frame)
            #expect(snapshot.views[.root("a")]?.superview == nil)
            let moved = try await runtime.events().map(\.description).filter { $0.hasPrefix("frameChanged(b)") }
            #expect(moved == ["frameChanged(b) view=b frame=10,20,300,200 by=s"])
        }
    }
}
