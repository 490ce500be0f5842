import ContainmentBus
import ContainmentModel
import Foundation
import Testing

/// SPEC §16's More tab through real daemons and `ctl` (issue 43's done-when): a sixth child brings More, a selection
/// through it pushes the child on the container's own navigation, its item and list rows are tapped, and its
/// controllers are the container's own; `maxVisibleTabs` is a runtime setting.
@Suite(.serialized) struct MoreTabRuntimeTests {
    static let topology = """
        window: {name: main, width: 1024, height: 768, root: tabs}
        controllers:
          - {id: tabs, kind: tab, host: h0}
          - {id: a, kind: content, host: h1, parent: tabs}
          - {id: b, kind: content, host: h1, parent: tabs}
          - {id: c, kind: content, host: h1, parent: tabs}
          - {id: d, kind: content, host: h1, parent: tabs}
          - {id: e, kind: content, host: h1, parent: tabs}
          - {id: f, kind: content, host: h1}
        """

    @Test func aSixthTabBringsMoreAndASelectionThroughItPushesTheTab() async throws {
        try await RuntimeFixture.with(topology: Self.topology) { runtime in
            let six = try await runtime.containment("ctl", "set-children", "tabs", "a,b,c,d,e,f")
            #expect(six.status == 0, "\(six.stderr)")
            let events = six.eventDescriptions
            #expect(events.contains("controllerCreated(tabs/more) kind=navigation"), "\(events)")
            #expect(events.contains("childAdded(tabs/more-list) parent=tabs/more"))
            #expect(events.contains("viewInserted(tabs) view=tabs/item-more superview=tabs/bar index=4"))
            #expect(events.contains("viewRemoved(tabs) view=tabs/item-4 superview=tabs/bar"))
            #expect(
                events.contains(
                    "viewInserted(tabs/more-list) view=tabs/more-list/row-5 superview=tabs/more-list index=1"
                )
            )

            // The sixth, by index: T/more takes a's place with f pushed on it; f stays tabs's child.
            let sixth = try await runtime.containment("ctl", "select", "tabs", "5")
            #expect(sixth.status == 0, "\(sixth.stderr)")
            #expect(
                sixth.eventDescriptions.filter { $0.hasPrefix("viewWill") && !$0.contains("Layout") } == [
                    "viewWillDisappear(a)", "viewWillAppear(f)", "viewWillAppear(tabs/more)",
                ]
            )
            #expect(sixth.eventDescriptions.last == "selectionChanged(tabs) selected=f index=5")
            #expect(AuthorityAndWatchTests.frame(of: "f", in: try await runtime.treeJSON()) == [0, 44, 1024, 675])

            // More's item shows the list; its second row (y 88…132 in the window) pushes f again.
            let more = try await runtime.containment("ctl", "input", "main", "1000,740")
            #expect(more.status == 0, "\(more.stderr)")
            #expect(more.eventDescriptions.last == "selectionChanged(tabs) selected=tabs/more index=nil")
            let row = try await runtime.containment("ctl", "input", "main", "500,100")
            #expect(row.status == 0, "\(row.stderr)")
            #expect(
                row.eventDescriptions.first
                    == "inputDelivered(tabs) window=main point=500,100 kind=tap view=tabs/more-list/row-5 chain=tabs"
            )
            #expect(row.eventDescriptions.contains("transitionBegan(tabs/more) from=tabs/more-list to=f"))
            #expect(row.eventDescriptions.last == "selectionChanged(tabs) selected=f index=5")

            // The More controllers are the container's own, and no host runs them.
            let remove = try await runtime.containment("ctl", "remove", "tabs/more", "--by", "tabs")
            #expect(remove.status == 1)
            #expect(
                remove.stderr.hasPrefix("unauthorized: tabs/more is tabs's own More controller; no one may remove it."),
                "\(remove.stderr)"
            )
            let tree = try await runtime.containment("tree")
            #expect(tree.stdout.contains("tabs/more"), "\(tree.stdout)")

            // Five again: More goes, f (shown) takes its place unharmed.
            let five = try await runtime.containment("ctl", "set-children", "tabs", "b,c,d,e,f")
            #expect(five.status == 0, "\(five.stderr)")
            #expect(five.eventDescriptions.contains("controllerDestroyed(tabs/more)"))
            #expect(!five.eventDescriptions.contains { $0.hasPrefix("viewWillDisappear(f)") })
            #expect(AuthorityAndWatchTests.frame(of: "f", in: try await runtime.treeJSON()) == [0, 0, 1024, 719])
        }
    }

    @Test func maxVisibleTabsComesFromTheRuntimesSettings() async throws {
        try await RuntimeFixture.with(topology: Self.topology, settings: "maxVisibleTabs: 3\n") { runtime in
            let four = try await runtime.containment("ctl", "set-children", "tabs", "a,b,c,d")
            #expect(four.status == 0, "\(four.stderr)")
            // Three items: a, b and More (the topology's five children brought it already); the list from c on.
            #expect(
                four.eventDescriptions.contains(
                    "viewInserted(tabs/more-list) view=tabs/more-list/row-2 superview=tabs/more-list index=0"
                )
            )
            let third = try await runtime.containment("ctl", "select", "tabs", "2")
            #expect(third.status == 0, "\(third.stderr)")
            #expect(third.eventDescriptions.contains("viewInserted(c) view=c superview=tabs/more index=1"))
        }
    }
}
