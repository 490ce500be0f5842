import ContainmentHost
import ContainmentBus
import ContainmentModel
import ContainmentRuntime
import Foundation
import Testing

/// `Config/topologies/editor.yaml` as the README runs it: seed 002's delegate round trip and seed 004's menu, driven
/// by `ctl input` alone (after the list passes its editor a recipe), over three host processes.
@Suite(.serialized) struct EditorTopologyTests {
    static let topology: String = {
        let url = RuntimeFixture.repository.appendingPathComponent("Config/topologies/editor.yaml")
        return (try? String(contentsOf: url, encoding: .utf8)) ?? ""
    }()

    @Test func theRoundTripAndTheMenuRunOnInputAlone() async throws {
        try await RuntimeFixture.with(topology: Self.topology) { runtime in
            var model = try SeedListingRuntimeTests.Replica(topology: Self.topology)
            let done = ViewID(owner: "editor", name: "done")
            _ = try model.apply([
                .by("editor", .addSubview(done, to: .root("editor"))),
                .by("editor", .setFrame(done, EditorBehavior.doneButton)),
            ])
            try await runtime.waitForView("editor/done")

            func ctl(_ words: String..., then request: Request) async throws -> [String] {
                let output = try await runtime.run(RuntimeFixture.binary, ["ctl"] + words)
                #expect(output.status == 0, "\(words): \(output.stderr)")
                let expected = try model.apply([request])
                #expect(output.eventDescriptions == expected, "\(words.joined(separator: " "))")
                return expected
            }
            func input(_ x: Double, _ y: Double, _ kind: String = "tap") -> Request {
                .system(.input("main", at: Point(x: x, y: y), kind: kind))
            }

            func showMenu() async throws -> [String] {
                try await ctl(
                    "input",
                    "main",
                    "500,400",
                    "--kind",
                    "threeFingerTap",
                    then: input(500, 400, "threeFingerTap")
                )
            }

            // Seed 002: the recipe in, Done tapped; the editor's and the delegate's code finish the round trip.
            let recipe = Array("{\"title\":\"Pancakes\"}".utf8)
            _ = try await ctl(
                "send",
                "recipes",
                "editor",
                "edit",
                "{\"title\":\"Pancakes\"}",
                then: .by("recipes", .send(from: "recipes", to: "editor", name: "edit", payload: recipe))
            )
            _ = try await ctl("input", "main", "700,100", then: input(700, 100))
            _ = try model.apply([
                .by(
                    "editor",
                    .send(from: "editor", to: "recipes", name: "done", payload: EditorBehavior.edited(recipe))
                )
            ])
            _ = try model.apply([.by("recipes", .dismiss("recipes", animated: true))])
            // Animated, the dismissal is a timed transition the supervisor completes (SPEC §13).
            _ = try model.apply([.by("menu", .completeTransition(in: "menu", from: "editor", to: "menu"))])
            // The delegate's code dismisses, and the supervisor completes the dismissal, in their own time.
            try runtime.waitIdle()
            #expect(try runtime.snapshot().controllers.first(where: { $0.id == "editor" })?.hasPresenting == false)

            // Seed 004: a three-finger tap shows the menu, a tap on item 1 selects `about` and hides it.
            let show = try await showMenu()
            #expect(show.last == "menuVisibilityChanged(menu) visible=true")
            let pick = try await ctl("input", "main", "512,700", then: input(512, 700))
            #expect(pick.first == "inputDelivered(menu) window=main point=512,700 kind=tap view=menu/item-1 chain=menu")
            #expect(pick.contains("selectionChanged(menu) selected=about index=1"))
            #expect(pick.last == "menuVisibilityChanged(menu) visible=false")
            // Shown again, a tap elsewhere hides it and selects nothing.
            _ = try await showMenu()
            let away = try await ctl("input", "main", "10,10", then: input(10, 10))
            #expect(
                !away.contains { $0.hasPrefix("selectionChanged") }
                    && away.last == "menuVisibilityChanged(menu) visible=false"
            )

            // Every actor, in its own host, received its callbacks in the model's order.
            for id: ControllerID in ["menu", "recipes", "about", "editor"] {
                let callbacks = try await runtime.callbacks(of: id.rawValue) { $0 == model.callbacks(of: id) }
                #expect(callbacks == model.callbacks(of: id), "\(id)")
            }
        }
    }
}
