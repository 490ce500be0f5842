import ContainmentBus
import ContainmentModel
import ContainmentRuntime
import Foundation
import Testing

/// The standard containers and presentation through real processes: each `ctl` verb's events are the model's, and
/// every actor, in its own host, received its callbacks in the model's order.
@Suite(.serialized) struct ContainerRuntimeTests {
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
        try await RuntimeFixture.with(topology: Self.topology) { runtime in
            var model = try SeedListingRuntimeTests.Replica(topology: Self.topology)
            let steps: [([String], Request)] = [
                (["push", "nav", "b"], .by("nav", .push("b", on: "nav"))),
                (["pop", "nav"], .by("nav", .pop("nav"))),
                (["select", "tabs", "1"], .by("tabs", .select("tabs", .index(1)))),
                (["next", "pages"], .by("pages", .nextPage("pages"))),
                (["previous", "pages"], .by("pages", .previousPage("pages"))),
                (["split-mode", "split", "primaryHidden"], .by("split", .setSplitMode("split", .primaryHidden))),
                (["split-mode", "split", "allVisible"], .by("split", .setSplitMode("split", .allVisible))),
                (["present", "list", "sheet"], .by("list", .present("sheet", on: "list"))),
                (["dismiss", "sheet"], Request(.dismiss("sheet"), by: .natural)),
                // Off screen now: the navigation controller's tab is not selected, so no appearance at all.
                (["push", "nav", "c"], .by("nav", .push("c", on: "nav"))),
                (["set-stack", "nav", "a"], .by("nav", .setStack("nav", ["a"]))),
                (["select", "tabs", "nav"], .by("tabs", .select("tabs", .controller("nav")))),
                (["select", "tabs", "menu"], .by("tabs", .select("tabs", .controller("menu")))),
                (["menu-visible", "menu", "true"], .by("menu", .setMenuVisible("menu", true))),
                (["select", "menu", "1"], .by("menu", .select("menu", .index(1)))),
                (["set-children", "tabs", "split"], .by("tabs", .setChildren("tabs", ["split"]))),
            ]
            for (words, request) in steps {
                let output = try await runtime.run(RuntimeFixture.binary, ["ctl"] + words)
                #expect(output.status == 0, "\(words): \(output.stderr)")
                let expected = try model.apply([request])
                #expect(output.eventDescriptions == expected, "\(words.joined(separator: " "))")
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
            let twice = try await runtime.run(RuntimeFixture.binary, ["ctl", "push", "nav", "a"])
            #expect(twice.status == 1 && twice.stderr.hasPrefix("alreadyInStack:"))
            let mismatch = try await runtime.run(RuntimeFixture.binary, ["ctl", "set-pages", "pages", "p1,p2"])
            #expect(
                mismatch.status == 1
                    && mismatch.stderr.hasPrefix("spineMismatch: The number of view controllers provided (2)")
            )

            // Each actor saw exactly its callbacks, in order, in its own process.
            for id in ["tabs", "nav", "split", "a", "b", "c", "list", "pages", "p1", "p2", "sheet", "menu", "m1", "m2"]
            {
                let inspected = try await runtime.containment("inspect", id)
                #expect(inspected.status == 0, "\(inspected.stderr)")
                #expect(inspected.eventDescriptions == model.callbacks(of: ControllerID(id)), "\(id)")
            }
            // The tree shows the containers' state.
            let tree = try await runtime.containment("tree")
            #expect(tree.stdout.contains("tabs  tab  host=h0"))
            #expect(tree.stdout.contains("selected=split (0)"))
            #expect(tree.stdout.contains("stack=[a]"))
            // The same tree drawn (`--svg`) and as a graph (`--dot`); one format at a time.
            let svg = try await runtime.containment("tree", "--svg")
            #expect(svg.status == 0 && svg.stdout.hasPrefix("<svg"), "\(svg.stderr)")
            #expect(svg.stdout.contains("data-view=\"tabs\"") && svg.stdout.contains("data-window="))
            let dot = try await runtime.containment("tree", "--dot")
            #expect(dot.status == 0 && dot.stdout.contains("\"tabs\" -> \"split\" [label=\"0 selected\", style=bold];"))
            let both = try await runtime.containment("tree", "--dot", "--svg")
            #expect(both.status != 0 && both.stderr.contains("Choose one of --json, --dot and --svg."))
        }
    }
}
