import ContainmentBus
import ContainmentModel
import Foundation
import Testing

/// SPEC §16 through real daemons and `ctl` (issue 43's done-when): a child at half its container's width, centered,
/// moved by the solver within a window resize; its own root view refused; a conflict named; removal before didMove.
@Suite(.serialized) struct ConstraintRuntimeTests {
    static let topology = """
        window: {name: main, width: 1024, height: 768, root: container}
        controllers:
          - {id: container, kind: content, host: h0}
          - {id: child, kind: content, host: h1, parent: container, embed: [0, 0, 320, 480]}
        """

    @Test func aContainerLaysItsChildOutByConstraints() async throws {
        try await RuntimeFixture.with(topology: Self.topology) { runtime in
            let width = try await runtime.containment(
                "ctl",
                "constrain",
                "container",
                "w",
                "child.width == 0.5 * container.width"
            )
            #expect(width.status == 0, "\(width.stderr)")
            #expect(
                width.eventDescriptions.prefix(2) == [
                    "constraintAdded(container) id=w expression=child.width == 0.5 * container.width",
                    "frameChanged(child) view=child frame=0,0,512,480 by=container",
                ]
            )
            let center = try await runtime.containment(
                "ctl",
                "constrain",
                "container",
                "x",
                "child.centerX == container.centerX"
            )
            #expect(center.status == 0, "\(center.stderr)")
            #expect(AuthorityAndWatchTests.frame(of: "child", in: try await runtime.treeJSON()) == [256, 0, 512, 480])

            // A window resize moves the child by the solver, within the resize command.
            let resize = try await runtime.containment("ctl", "resize", "main", "800x600")
            #expect(resize.status == 0, "\(resize.stderr)")
            #expect(
                resize.eventDescriptions.contains("frameChanged(child) view=child frame=200,0,400,480 by=container")
            )
            #expect(AuthorityAndWatchTests.frame(of: "child", in: try await runtime.treeJSON()) == [200, 0, 400, 480])

            // The child may not constrain its own root view: only its parent places it.
            let own = try await runtime.containment("ctl", "constrain", "child", "k", "child.width == 100")
            #expect(own.status == 1)
            #expect(own.stderr.hasPrefix("frameAuthority: child's root view is placed by its parent container"))

            // Two required constraints that conflict: refused, naming both.
            let fixed = try await runtime.containment("ctl", "constrain", "container", "fixed", "child.width == 300")
            #expect(fixed.status == 1)
            #expect(
                fixed.stderr.hasPrefix("unsatisfiableConstraints: Constraint fixed 'child.width == 300' of container")
            )
            #expect(fixed.stderr.contains("w 'child.width == 0.5 * container.width'"))
            let unreadable = try await runtime.containment("ctl", "constrain", "container", "bad", "child.depth == 3")
            #expect(unreadable.status == 64, "\(unreadable.stderr)")

            // Removing the child removes its constraints, each before its didMoveToParent.
            let unembed = try await runtime.containment("ctl", "unembed", "child")
            #expect(unembed.status == 0, "\(unembed.stderr)")
            let events = unembed.eventDescriptions
            let removed = events.indices.filter { events[$0].hasPrefix("constraintRemoved(container)") }
            let didMove = try #require(events.firstIndex(of: "didMoveToParent(child) parent=nil"))
            #expect(removed.count == 2 && removed.allSatisfy { $0 < didMove }, "\(events)")
        }
    }

    static let tabs = """
        window: {name: main, width: 1024, height: 768, root: tabs}
        controllers:
          - {id: tabs, kind: tab, host: h0}
          - {id: a, kind: content, host: h1, parent: tabs}
          - {id: b, kind: content, host: h1, parent: tabs}
        """

    /// Seed 004 through real daemons: the tab container gives its bar a new height; its constraints put the bar back
    /// at the bottom, re-place the transition view and lay the selected child out, within that one command; the next
    /// selection gets the transition view's bounds.
    @Test func aTallerTabBarReplacesTheTransitionViewAndTheSelectedChild() async throws {
        try await RuntimeFixture.with(topology: Self.tabs) { runtime in
            let taller = try await runtime.containment("ctl", "set-frame", "tabs/bar", "0,0,1024,80", "--by", "tabs")
            #expect(taller.status == 0, "\(taller.stderr)")
            #expect(
                taller.eventDescriptions == [
                    "frameChanged(tabs) view=tabs/bar frame=0,0,1024,80 by=tabs",
                    "frameChanged(tabs) view=tabs/bar frame=0,688,1024,80 by=tabs",
                    "frameChanged(tabs) view=tabs/transition frame=0,0,1024,688 by=tabs",
                    "frameChanged(tabs) view=tabs/item-0 frame=0,0,512,80 by=tabs",
                    "frameChanged(tabs) view=tabs/item-1 frame=512,0,512,80 by=tabs",
                    "frameChanged(a) view=a frame=0,0,1024,688 by=tabs",
                    "viewWillLayoutSubviews(a)", "viewDidLayoutSubviews(a)",
                ]
            )
            let select = try await runtime.containment("ctl", "select", "tabs", "b")
            #expect(select.status == 0, "\(select.stderr)")
            #expect(
                select.eventDescriptions.filter { $0.hasPrefix("frameChanged") } == [
                    "frameChanged(b) view=b frame=0,0,1024,688 by=tabs"
                ]
            )
            #expect(AuthorityAndWatchTests.frame(of: "b", in: try await runtime.treeJSON()) == [0, 0, 1024, 688])
            // The container's own constraints are not its code's to remove.
            let unpin = try await runtime.containment("ctl", "unconstrain", "tabs", "@bar.bottom")
            #expect(unpin.status == 1)
            #expect(unpin.stderr.hasPrefix("frameAuthority: Constraint @bar.bottom is tabs's own"), "\(unpin.stderr)")
        }
    }
}
