import ContainmentModel
import ContainmentTestKit
import Testing

/// SPEC §15's "done when", driven by taps alone (the simulated runtime: the supervisor core and the topology's two
/// hosts running `containment host`'s kinds): seed 003's master pushes its detail when a row is tapped (its own code,
/// on another host than the navigation controller), a tap on back pops it, a tab bar tap selects a tab and the tab
/// container's delegate hears of it; every actor received its callbacks in the order the model published them.
@Suite struct EverydayContainersTests {
    static let topology = """
        window: {name: main, width: 800, height: 600, root: tabs}
        hosts: [h0, h1]
        controllers:
          - {id: tabs, kind: tab, host: h0, delegate: watcher}
          - {id: nav, kind: navigation, host: h0, parent: tabs}
          - {id: other, kind: content, host: h1, parent: tabs}
          - {id: master, kind: master, host: h1, parent: nav, pages: [detail], handles: [tap]}
          - {id: detail, kind: content, host: h1}
          - {id: watcher, kind: content, host: h1}
        """

    static func tap(_ x: Double, _ y: Double) -> Command {
        .input("main", at: Point(x: x, y: y), kind: "tap")
    }

    /// Taps at (`x`, `y`), lets the code it starts run and a second of virtual time pass (a timed switch ends), and
    /// returns the descriptions of every event since.
    static func tap(_ x: Double, _ y: Double, on runtime: SimulatedRuntime) async throws -> [String] {
        let before = try await runtime.events().count
        try await runtime.perform([tap(x, y)])
        try await runtime.runUntilIdle()
        try await runtime.advance(by: .seconds(1))
        return try await runtime.events().dropFirst(before).map(\.description)
    }

    @Test func theMasterDetailAndTheTabsRunOnTapsAlone() async throws {
        try await withSimulatedTopology(Self.topology) { runtime in
            // The master's code built its row once its view loaded: below the navigation bar, the full width.
            let row = ViewID(owner: "master", name: "row-0")
            #expect(try await runtime.snapshot().views[row]?.frame.width == 800)
            let start = try await runtime.events().count

            // A tap on the row: the master's code pushes its detail onto the navigation controller, as itself.
            let push = try await Self.tap(10, 44 + 10, on: runtime)
            #expect(push.contains("inputReceived(master) kind=tap point=10,10 view=master/row-0"), "\(push)")
            #expect(push.contains("navigationWillShow(nav) shown=detail requestedBy=master"))
            #expect(push.contains("viewInserted(nav) view=nav/back superview=nav/bar index=0"))
            #expect(push.contains { $0.hasPrefix("navigationDidShow(nav) shown=detail") })
            #expect(try await runtime.snapshot().controller("nav")?.children == ["master", "detail"])

            // A tap on back: the navigation controller pops, animated; the runtime completes the switch.
            let pop = try await Self.tap(10, 10, on: runtime)
            #expect(pop.contains("inputDelivered(nav) window=main point=10,10 kind=tap view=nav/back chain=nav"))
            #expect(pop.contains { $0.hasPrefix("navigationDidShow(nav) shown=master") }, "\(pop)")
            #expect(try await runtime.snapshot().controller("nav")?.children == ["master"])

            // A tap on the tab bar's second item selects it; the tab container's delegate hears of it.
            let select = try await Self.tap(600, 600 - 10, on: runtime)
            #expect(select.contains("selectionChanged(tabs) selected=other index=1"), "\(select)")
            #expect(
                try await runtime.events().contains {
                    if case .delegateCallback("watcher", "tabs", .selectionChanged, "other", _) = $0 {
                        true
                    } else {
                        false
                    }
                }
            )
            #expect(try await runtime.snapshot().controller("tabs")?.selected == "other")

            // Every actor received, in order, the callbacks the model published for it since the state above.
            let events = try await runtime.events().dropFirst(start)
            for id: ControllerID in ["tabs", "nav", "master", "detail", "other", "watcher"] {
                let published = events.filter { $0.isCallback && $0.controller == id }
                #expect(!published.isEmpty, "\(id)")
                #expect(try await runtime.callbacks(of: id).suffix(published.count) == published, "\(id)")
            }
        }
    }
}
