import ContainmentBus
import ContainmentModel
import ContainmentRuntime
import Foundation
import Testing

/// SPEC §13's properties and editing through real processes: `ctl` verbs, the callbacks actors receive, and what
/// `tree` shows.
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

    /// SPEC §13: `ctl pop --animated` begins a timed transition; the navigation controller takes no other switch until
    /// it completes, and the popped controller leaves then, with its did callbacks. (Its duration is long here, so
    /// that the test, not the clock, completes it; the supervisor's timer completes the animated dismissals of
    /// MessageRuntimeTests and EditorTopologyTests.)
    @Test func anAnimatedPopCompletesWithTheRestOfTheSwitch() async throws {
        try await RuntimeFixture.with(topology: Self.topology, settings: "animationDurationMs: 600000\n") { runtime in
            var model = try SeedListingRuntimeTests.Replica(topology: Self.topology)
            model.state.animationDuration = 600
            let pop = try await runtime.containment("ctl", "pop", "nav", "--animated")
            #expect(pop.status == 0, "\(pop.stderr)")
            #expect(pop.eventDescriptions == (try model.apply([.by("nav", .pop("nav", animated: true))])))
            #expect(!pop.eventDescriptions.contains { $0.hasPrefix("navigationDidShow") })
            let busy = try await runtime.containment("ctl", "pop", "nav")
            #expect(
                busy.stderr.hasPrefix("transitionInProgress: nav is still switching from detail to list"),
                "\(busy.stderr)"
            )
            let complete = try await runtime.containment("ctl", "complete-transition", "nav", "detail", "list")
            #expect(complete.status == 0, "\(complete.stderr)")
            let completion = try model.apply([.by("nav", .completeTransition(in: "nav", from: "detail", to: "list"))])
            #expect(complete.eventDescriptions == completion)
            #expect(
                completion.suffix(3) == [
                    "didMoveToParent(detail) parent=nil", "viewRemoved(nav) view=nav/back superview=nav/bar",
                    "navigationDidShow(nav) shown=list",
                ]
            )
            let detail = try await runtime.callbacks(of: "detail") { $0 == model.callbacks(of: "detail") }
            #expect(detail == model.callbacks(of: "detail"))
            #expect(
                detail.suffix(2) == [
                    "viewDidDisappear(detail) animated movingFromParent", "didMoveToParent(detail) parent=nil",
                ]
            )
        }
    }

    /// `ctl rotate` as the system, refused where the window's root does not support it; `ctl forward-size` as a
    /// container; `tree` shows the orientation.
    @Test func rotateAndForwardSizeThroughTheRuntime() async throws {
        try await RuntimeFixture.with(topology: Self.topology) { runtime in
            var model = try SeedListingRuntimeTests.Replica(topology: Self.topology)
            #expect(try await runtime.containment("tree").stdout.contains("window main 1024x768 landscapeLeft"))
            let refused = try await runtime.containment("ctl", "rotate", "main", "portraitUpsideDown")
            #expect(refused.status == 1)
            #expect(refused.stderr.hasPrefix("unsupportedOrientation: tabs decides the orientation of window main"))
            let steps: [([String], Request)] = [
                (["rotate", "main", "portrait"], .system(.rotate("main", .portrait))),
                (
                    ["forward-size", "nav", "detail", "300x400"],
                    .by("nav", .forwardSizeTransition("nav", child: "detail", size: Size(width: 300, height: 400)))
                ),
            ]
            for (words, request) in steps {
                let output = try await runtime.run(RuntimeFixture.binary, ["ctl"] + words)
                #expect(output.status == 0, "\(words): \(output.stderr)")
                #expect(output.eventDescriptions == (try model.apply([request])), "\(words.joined(separator: " "))")
            }
            let tree = try await runtime.containment("tree")
            #expect(tree.stdout.contains("window main 768x1024 portrait"), "\(tree.stdout)")
            let json = try await runtime.treeJSON()
            #expect((json["windows"] as? [[String: Any]])?.first?["orientation"] as? String == "portrait")
            // Each actor got its size transitions in the model's order, the forwarded one included.
            let detail = try await runtime.callbacks(of: "detail") { $0 == model.callbacks(of: "detail") }
            #expect(detail == model.callbacks(of: "detail"))
            #expect(detail.last == "viewWillTransitionToSize(detail) size=300x400")
        }
    }
}
