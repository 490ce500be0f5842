import ContainmentClient
import ContainmentModel
import ContainmentTestKit
import Foundation
import Testing

/// SPEC §15's "done when", through real host processes driven by taps alone: seed 003's master pushes its detail when
/// a row is tapped (its own code, on another host than the navigation controller), a tap on back pops it, a tab bar
/// tap selects a tab and the tab container's delegate hears of it; every actor received its callbacks in the order the
/// model published them.
@Suite(.serialized) struct EverydayContainersTests {
    static let topology = """
        window: {name: main, width: 800, height: 600, root: tabs}
        \(OwnHostTopology.hosts("h0", "h1"))controllers:
          - {id: tabs, kind: tab, host: h0, delegate: watcher}
          - {id: nav, kind: navigation, host: h0, parent: tabs}
          - {id: other, kind: content, host: h1, parent: tabs}
          - {id: master, kind: master, host: h1, parent: nav, pages: [detail], handles: [tap]}
          - {id: detail, kind: content, host: h1}
          - {id: watcher, kind: content, host: h1}
        """

    /// Reads `subscriber` into `events` until `done` holds for the events so far, at most 20 s.
    static func read(
        _ subscriber: RuntimeSubscriber,
        into events: inout [Event],
        until done: ([Event]) -> Bool
    ) throws {
        let deadline = ContinuousClock.now + .seconds(20)
        while !done(events) {
            guard ContinuousClock.now < deadline else {
                Issue.record("timed out; saw \(events.map(\.description))")
                return
            }
            if case .event(let event, _)? = try subscriber.next(timeout: .milliseconds(200)) { events.append(event) }
        }
    }

    static func tap(_ x: Double, _ y: Double) -> Command {
        .input("main", at: Point(x: x, y: y), kind: "tap")
    }

    @Test func theMasterDetailAndTheTabsRunOnTapsAlone() async throws {
        try await OwnHostTopology.withRuntime(Self.topology) { runtime in
            let client = try runtime.client()
            let subscriber = try RuntimeSubscriber(environment: runtime.environment)
            defer { subscriber.close() }
            guard case .state? = try subscriber.next(timeout: .seconds(20)) else {
                Issue.record("no state came")
                return
            }
            // The master's code built its row once its view loaded: below the navigation bar, the full width.
            let row = ViewID(owner: "master", name: "row-0")
            try await runtime.wait(until: "the master has its row") { $0.views[row]?.frame.width == 800 }
            var events: [Event] = []

            // A tap on the row: the master's code pushes its detail onto the navigation controller, as itself.
            try client.perform([Self.tap(10, 44 + 10)])
            try Self.read(subscriber, into: &events) { seen in
                seen.contains { if case .navigationDidShow("nav", "detail", _) = $0 { true } else { false } }
            }
            let descriptions = events.map(\.description)
            #expect(descriptions.contains("inputReceived(master) kind=tap point=10,10 view=master/row-0"))
            #expect(descriptions.contains("navigationWillShow(nav) shown=detail requestedBy=master"))
            #expect(descriptions.contains("viewInserted(nav) view=nav/back superview=nav/bar index=0"))

            // A tap on back: the navigation controller pops, animated; the runtime completes the switch.
            try client.perform([Self.tap(10, 10)])
            try Self.read(subscriber, into: &events) { seen in
                seen.contains { if case .navigationDidShow("nav", "master", _) = $0 { true } else { false } }
            }
            #expect(
                events.map(\.description).contains(
                    "inputDelivered(nav) window=main point=10,10 kind=tap view=nav/back chain=nav"
                )
            )
            #expect(try client.snapshot().controller("nav")?.children == ["master"])

            // A tap on the tab bar's second item selects it; the tab container's delegate hears of it.
            try client.perform([Self.tap(600, 600 - 10)])
            try Self.read(subscriber, into: &events) { seen in
                seen.contains {
                    if case .delegateCallback("watcher", "tabs", .selectionChanged, "other", _) = $0 {
                        true
                    } else {
                        false
                    }
                }
            }
            #expect(events.map(\.description).contains("selectionChanged(tabs) selected=other index=1"))
            #expect(try client.snapshot().controller("tabs")?.selected == "other")

            // Every actor received, in order, the callbacks the model published for it since the state above.
            try await OwnHostTopology.expectCallbacks(
                of: ["tabs", "nav", "master", "detail", "other", "watcher"],
                as: events,
                client
            )
        }
    }
}
