import ContainmentModel
import ContainmentTestKit
import Testing

/// The standard containers and presentation through the runtime (the supervisor core and five hosts, simulated): each
/// verb's events are the model's, and every actor, in its own host, received its callbacks in the model's order.
/// (`ctl`'s words for these verbs are CtlGrammarTests'; the tree's drawings TreeDrawingTests'.)
@Suite struct ContainerRuntimeTests {
    static let topology = """
        window: {name: main, width: 1024, height: 768, root: tabs}
        controllers:
          - {id: tabs, kind: tab, host: h0}
          - {id: nav, kind: navigation, host: h1, parent: tabs}
          - {id: split, kind: split, host: h2, parent: tabs}
          - {id: a, kind: content, host: h1, parent: nav, title: A}
          - {id: list, kind: content, host: h2, parent: split}
          - {id: pages, kind: page, host: h3, parent: split, pageStyle: scroll, pages: [p1, p2, p3]}
          - {id: p1, kind: content, host: h3, parent: pages}
          - {id: p2, kind: content, host: h3}
          - {id: p3, kind: content, host: h3}
          - {id: b, kind: content, host: h1, title: B}
          - {id: c, kind: content, host: h1}
          - {id: sheet, kind: content, host: h0, presentationStyle: formSheet}
          - {id: menu, kind: menu, host: h4, parent: tabs}
          - {id: m1, kind: content, host: h4, parent: menu}
          - {id: m2, kind: content, host: h3, parent: menu}
        """

    @Test func everyContainerVerbThroughTheRuntime() async throws {
        try await withSimulatedTopology(Self.topology) { runtime in
            var model = try SeedListingRuntimeTests.Replica(topology: Self.topology)
            let steps: [Request] = [
                .by("nav", .push("b", on: "nav")),
                .by("nav", .pop("nav")),
                .by("tabs", .select("tabs", .index(1))),
                .by("pages", .nextPage("pages")),
                .by("pages", .previousPage("pages")),
                .by("split", .setSplitMode("split", .primaryHidden)),
                .by("split", .setSplitMode("split", .allVisible)),
                .by("list", .present("sheet", on: "list")),
                Request(.dismiss("sheet"), by: .natural),
                // Off screen now: the navigation controller's tab is not selected, so no appearance at all.
                .by("nav", .push("c", on: "nav")),
                .by("nav", .setStack("nav", ["a"])),
                .by("tabs", .select("tabs", .controller("nav"))),
                .by("tabs", .select("tabs", .controller("menu"))),
                .by("menu", .setMenuVisible("menu", true)),
                .by("menu", .select("menu", .index(1))),
                .by("tabs", .setChildren("tabs", ["split"])),
            ]
            for request in steps {
                #expect(await runtime.described([request]) == (try model.apply([request])), "\(request)")
            }
            #expect(
                model.history.contains {
                    $0.description
                        == "presented(sheet) presenter=list context=tabs style=formSheet transitionStyle=coverVertical"
                }
            )
            let offScreenPush = model.state.controllers["c"]
            #expect(offScreenPush == nil || offScreenPush?.appearance == .disappeared)
            // Rejections come back with the model's codes.
            let twice = await runtime.described([.by("nav", .push("a", on: "nav"))])
            #expect(twice.count == 1 && twice[0].hasPrefix("alreadyInStack:"), "\(twice)")
            let mismatch = await runtime.described([.by("pages", .setPages("pages", ["p1", "p2"]))])
            #expect(
                mismatch.count == 1
                    && mismatch[0].hasPrefix("spineMismatch: The number of view controllers provided (2)"),
                "\(mismatch)"
            )

            // Each actor saw exactly its callbacks, in order, in its own host.
            try await runtime.runUntilIdle()
            for id in ["tabs", "nav", "split", "a", "b", "c", "list", "pages", "p1", "p2", "sheet", "menu", "m1", "m2"]
            {
                let id = ControllerID(id)
                #expect(try await runtime.describedCallbacks(of: id) == model.callbacks(of: id), "\(id)")
            }
            // The snapshot shows the containers' state.
            let tree = try await runtime.snapshot()
            #expect(tree.controller("tabs")?.host == "h0" && tree.controller("tabs")?.kind == .tab)
            #expect(tree.controller("tabs")?.selected == "split")
            #expect(tree.controller("nav")?.children == ["a"])
        }
    }
}
