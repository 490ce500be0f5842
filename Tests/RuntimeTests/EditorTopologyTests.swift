import ContainmentHost
import ContainmentBus
import ContainmentModel
import ContainmentConfig
import ContainmentRuntime
import ContainmentTestKit
import Foundation
import Testing

/// `Config/topologies/editor.yaml` as the README runs it: seed 002's delegate round trip and seed 004's menu, driven
/// by input alone (after the list passes its editor a recipe), over its three hosts (simulated; the README's own run
/// of it is scripts/test-readme.py's).
@Suite struct EditorTopologyTests {
    static let topology: String = {
        let url = RuntimeFixture.repository.appendingPathComponent("Config/topologies/editor.yaml")
        return (try? String(contentsOf: url, encoding: .utf8)) ?? ""
    }()

    @Test func theRoundTripAndTheMenuRunOnInputAlone() async throws {
        try await withSimulatedTopology(Self.topology) { runtime in
            var model = try SeedListingRuntimeTests.Replica(topology: Self.topology)
            let done = ViewID(owner: "editor", name: "done")
            _ = try model.apply([
                .by("editor", .addSubview(done, to: .root("editor"))),
                .by("editor", .setFrame(done, EditorBehavior.doneButton)),
            ])
            #expect(try await runtime.snapshot().views[done] != nil)

            func perform(_ request: Request) async throws -> [String] {
                let events = await runtime.described([request])
                let expected = try model.apply([request])
                #expect(events == expected, "\(request)")
                return expected
            }
            func input(_ x: Double, _ y: Double, _ kind: String = "tap") -> Request {
                .system(.input("main", at: Point(x: x, y: y), kind: kind))
            }

            func showMenu() async throws -> [String] {
                try await perform(input(500, 400, "threeFingerTap"))
            }

            // Seed 002: the recipe in, Done tapped; the editor's and the delegate's code finish the round trip.
            let recipe = Array("{\"title\":\"Pancakes\"}".utf8)
            _ = try await perform(.by("recipes", .send(from: "recipes", to: "editor", name: "edit", payload: recipe)))
            _ = try await perform(input(700, 100))
            _ = try model.apply([
                .by(
                    "editor",
                    .send(from: "editor", to: "recipes", name: "done", payload: EditorBehavior.edited(recipe))
                )
            ])
            _ = try model.apply([.by("recipes", .dismiss("recipes", animated: true))])
            // Animated, the dismissal is a timed transition the supervisor completes (SPEC §13).
            _ = try model.apply([.by("menu", .completeTransition(in: "menu", from: "editor", to: "menu"))])
            // The delegate's code dismisses, and the supervisor completes the dismissal once its time passed.
            try await runtime.runUntilIdle()
            try await runtime.advance(by: .seconds(1))
            #expect(try await runtime.snapshot().controller("editor")?.presenting == nil)

            // Seed 004: a three-finger tap shows the menu, a tap on item 1 selects `about` and hides it.
            let show = try await showMenu()
            #expect(show.last == "menuVisibilityChanged(menu) visible=true")
            let pick = try await perform(input(512, 700))
            #expect(pick.first == "inputDelivered(menu) window=main point=512,700 kind=tap view=menu/item-1 chain=menu")
            #expect(pick.contains("selectionChanged(menu) selected=about index=1"))
            #expect(pick.last == "menuVisibilityChanged(menu) visible=false")
            // Shown again, a tap elsewhere hides it and selects nothing.
            _ = try await showMenu()
            let away = try await perform(input(10, 10))
            #expect(
                !away.contains { $0.hasPrefix("selectionChanged") }
                    && away.last == "menuVisibilityChanged(menu) visible=false"
            )

            // Every actor, in its own host, received its callbacks in the model's order.
            for id: ControllerID in ["menu", "recipes", "about", "editor"] {
                #expect(try await runtime.describedCallbacks(of: id) == model.callbacks(of: id), "\(id)")
            }
        }
    }
}
