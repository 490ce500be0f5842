import ContainmentBus
import ContainmentModel
import ContainmentConfig
import ContainmentRuntime
import Foundation
import Testing

/// The seeds' listings driven through `ctl` across three host processes: the same events as the model, and each
/// host's actors saw their own callbacks in that order.
@Suite(.serialized) struct SeedListingRuntimeTests {
    static let topology = """
        window: {name: main, width: 1024, height: 768, root: box}
        controllers:
          - {id: box, kind: content, host: h0}
          - {id: a, kind: content, host: h1}
          - {id: b, kind: content, host: h2}
        """

    /// The model, fed the same commands, for the expected events.
    struct Replica {
        var state = ContainmentState()
        var history: [Event] = []

        init(topology: String) throws {
            for (request, _) in try Topology.parse(topology).requests() { _ = try apply([request]) }
        }

        mutating func apply(_ requests: [Request]) throws -> [String] {
            let events = try state.apply(batch: requests)
            history += events
            return events.map(\.description)
        }

        func callbacks(of id: ControllerID) -> [String] {
            history.filter { $0.isCallback && $0.controller == id }.map(\.description)
        }
    }

    @Test func threeListingsAcrossThreeHosts() async throws {
        try await RuntimeFixture.with(topology: Self.topology) { runtime in
            var model = try Replica(topology: Self.topology)
            let frame = Rect(x: 0, y: 0, width: 1024, height: 768)

            // Listing 14-1: displayContentController.
            let embed = try await runtime.containment("ctl", "embed", "box", "a", "--frame", "0,0,1024,768")
            #expect(embed.status == 0, "\(embed.stderr)")
            #expect(
                embed.eventDescriptions
                    == (try model.apply(SeedListings.displayContentController("a", in: "box", frame: frame)))
            )

            // Listing 14-3: cycleFromViewController:toViewController:, one batch of ctl lines.
            let cycle = """
                will-move a --to none
                add-child box b
                set-frame b 1024,0,1024,768
                transition box a b --duration 0.25
                set-frame b 0,0,1024,768
                set-frame a -1024,0,1024,768
                complete-transition box a b
                remove a
                did-move b --to box
                """
            let cycled = try await runtime.containment("ctl", "batch", "-", input: cycle)
            #expect(cycled.status == 0, "\(cycled.stderr)")
            let expectedCycle = try model.apply(
                SeedListings.cycle(
                    from: "a",
                    to: "b",
                    in: "box",
                    oldFrame: frame,
                    newStartFrame: Rect(x: 1024, y: 0, width: 1024, height: 768),
                    oldEndFrame: Rect(x: -1024, y: 0, width: 1024, height: 768)
                )
            )
            #expect(cycled.eventDescriptions == expectedCycle)
            #expect(expectedCycle.contains("viewWillDisappear(a) animated movingFromParent"))

            // Listing 14-2: hideContentController.
            let hide = try await runtime.containment("ctl", "unembed", "b")
            #expect(hide.status == 0, "\(hide.stderr)")
            #expect(hide.eventDescriptions == (try model.apply(SeedListings.hideContentController("b", in: "box"))))

            // Each actor, in its own process, saw exactly its callbacks, in the model's order.
            for (id, host) in [("box", "h0"), ("a", "h1"), ("b", "h2")] {
                let inspected = try await runtime.containment("inspect", id)
                #expect(inspected.status == 0, "\(inspected.stderr)")
                #expect(
                    inspected.lines.first?
                        .hasPrefix(
                            "\(id) on host \(host): \(model.callbacks(of: ControllerID(id)).count) callbacks (digest "
                        )
                        == true
                )
                #expect(inspected.eventDescriptions == model.callbacks(of: ControllerID(id)), "\(id)")
            }
            // Three hosts, three processes.
            let tree = try await runtime.treeJSON()
            let pids = Set((tree["hosts"] as? [[String: Any]] ?? []).compactMap { $0["pid"] as? Int })
            #expect(pids.count == 3)
        }
    }
}
