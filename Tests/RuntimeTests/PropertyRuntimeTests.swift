import ContainmentBus
import ContainmentModel
import ContainmentConfig
import ContainmentRuntime
import ContainmentTestKit
import Foundation
import Testing

/// SPEC §13's properties and editing: `ctl` verbs, the callbacks actors receive, and what `tree` shows, through real
/// processes; a timed pop, rotation and forwarded sizes through the simulated runtime.
@Suite(.serialized) struct PropertyRuntimeTests {
    static let topology = """
        window: {name: main, width: 1024, height: 768, root: tabs}
        controllers:
          - {id: tabs, kind: tab, host: h0}
          - {id: nav, kind: navigation, host: h1, parent: tabs, tabItem: Recipes}
          - {id: list, kind: content, host: h1, parent: nav, title: Recipes}
          - {id: detail, kind: content, host: h2, parent: nav, title: Pancakes, toolbarItems: [share]}
        """

    @Test func setPropertiesAndSetEditingShowInTheTreeAndReachTheActor() async throws {
        try await RuntimeFixture.with(topology: Self.topology) { runtime in
            var model = try SeedListingRuntimeTests.Replica(topology: Self.topology)
            let steps: [([String], Request)] = [
                (
                    ["set-properties", "list", "--back-title", "All"],
                    .by("list", .setProperties("list", [.navigationItem(NavigationItem(backTitle: "All"))]))
                ),
                (
                    ["set-properties", "nav", "--badge", "2"],
                    .by("nav", .setProperties("nav", [.tabItem(TabItem(title: "Recipes", badge: "2"))]))
                ),
                (
                    ["set-editing", "detail", "true", "--animated"],
                    .by("detail", .setEditing("detail", true, animated: true))
                ),
                (["set-editing", "detail", "false", "--by", "nav"], .by("nav", .setEditing("detail", false))),
                (["set-editing", "detail", "true"], .by("detail", .setEditing("detail", true))),
            ]
            for (words, request) in steps {
                let output = try await runtime.run(RuntimeFixture.binary, ["ctl"] + words)
                #expect(output.status == 0, "\(words): \(output.stderr)")
                #expect(output.eventDescriptions == (try model.apply([request])), "\(words.joined(separator: " "))")
            }
            // Only the controller itself (or the system) sets its properties.
            let refused = try await runtime.containment(
                "ctl",
                "set-properties",
                "list",
                "--title",
                "X",
                "--by",
                "detail"
            )
            #expect(refused.status == 1)
            #expect(
                refused.stderr
                    == "unauthorized: detail may not set the properties of list; only list or the system may.\n"
            )

            let tree = try await runtime.containment("tree")
            #expect(tree.stdout.contains("window main 1024x768 landscapeLeft"), "\(tree.stdout)")
            #expect(
                tree.stdout.contains("stack=[list,detail]  bar=\"Pancakes\" back=\"All\"  toolbar=[share]"),
                "\(tree.stdout)"
            )
            #expect(tree.stdout.contains("tabs=[Recipes (2)]"), "\(tree.stdout)")
            #expect(tree.stdout.contains("title=\"Pancakes\"  editing"), "\(tree.stdout)")
            let json = try await runtime.treeJSON()
            let nav = (json["controllers"] as? [[String: Any]])?.first { $0["id"] as? String == "nav" }
            let bar = nav?["navigationBar"] as? [String: Any]
            #expect(bar?["title"] as? String == "Pancakes" && bar?["back"] as? String == "All")

            // The detail's actor, in its own host, received setEditing in the model's order.
            let callbacks = try await runtime.callbacks(of: "detail") { $0 == model.callbacks(of: "detail") }
            #expect(callbacks == model.callbacks(of: "detail"))
            #expect(
                callbacks.suffix(3) == [
                    "setEditing(detail) editing=true animated", "setEditing(detail) editing=false",
                    "setEditing(detail) editing=true",
                ]
            )
        }
    }

    /// SPEC §13: an animated pop begins a timed transition; the navigation controller takes no other switch until it
    /// completes, and the popped controller leaves then, with its did callbacks. (Virtual time stands still here, so
    /// the test, not the supervisor's timer, completes it; the timer completes the animated dismissals of
    /// MessageRuntimeTests and EditorTopologyTests.)
    @Test func anAnimatedPopCompletesWithTheRestOfTheSwitch() async throws {
        try await withSimulatedTopology(Self.topology) { runtime in
            var model = try SeedListingRuntimeTests.Replica(topology: Self.topology)
            let pop = await runtime.described([.by("nav", .pop("nav", animated: true))])
            #expect(pop == (try model.apply([.by("nav", .pop("nav", animated: true))])))
            #expect(!pop.contains { $0.hasPrefix("navigationDidShow") })
            let busy = await runtime.described([.by("nav", .pop("nav"))])
            #expect(
                busy.first?.hasPrefix("transitionInProgress: nav is still switching from detail to list") == true,
                "\(busy)"
            )
            let completion = try model.apply([.by("nav", .completeTransition(in: "nav", from: "detail", to: "list"))])
            #expect(
                await runtime.described([.by("nav", .completeTransition(in: "nav", from: "detail", to: "list"))])
                    == completion
            )
            #expect(
                completion.suffix(3) == [
                    "didMoveToParent(detail) parent=nil", "viewRemoved(nav) view=nav/back superview=nav/bar",
                    "navigationDidShow(nav) shown=list",
                ]
            )
            try await runtime.runUntilIdle()
            let detail = try await runtime.describedCallbacks(of: "detail")
            #expect(detail == model.callbacks(of: "detail"))
            #expect(
                detail.suffix(2) == [
                    "viewDidDisappear(detail) animated movingFromParent", "didMoveToParent(detail) parent=nil",
                ]
            )
        }
    }

    /// Rotating as the system, refused where the window's root does not support it; forwarding a size as a
    /// container. (`tree`'s orientation is the first test's.)
    @Test func rotateAndForwardSizeThroughTheRuntime() async throws {
        try await withSimulatedTopology(Self.topology) { runtime in
            var model = try SeedListingRuntimeTests.Replica(topology: Self.topology)
            let refused = await runtime.described([.system(.rotate("main", .portraitUpsideDown))])
            #expect(
                refused.first?.hasPrefix("unsupportedOrientation: tabs decides the orientation of window main") == true,
                "\(refused)"
            )
            let steps: [Request] = [
                .system(.rotate("main", .portrait)),
                .by("nav", .forwardSizeTransition("nav", child: "detail", size: Size(width: 300, height: 400))),
            ]
            for request in steps {
                #expect(await runtime.described([request]) == (try model.apply([request])), "\(request)")
            }
            // Each actor got its size transitions in the model's order, the forwarded one included.
            try await runtime.runUntilIdle()
            let detail = try await runtime.describedCallbacks(of: "detail")
            #expect(detail == model.callbacks(of: "detail"))
            #expect(detail.last == "viewWillTransitionToSize(detail) size=300x400")
        }
    }
}
