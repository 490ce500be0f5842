import ContainmentModel
import Testing

/// SPEC §13: an animated switch of a standard container is a timed transition of `animationDuration`: the will
/// callbacks at the start, both views in the tree meanwhile, the did callbacks — and the rest of the switch — at the
/// completion; the container takes no other switch meanwhile.
@Suite struct AnimationTests {
    /// root (window) ⊃ n (navigation, embedded) with a pushed; b, c loose; t (tab) embedded with x, y.
    func scene() -> Harness {
        var h = Harness()
        h.window()
        h.ok(.system(.create("n", kind: .navigation)), .system(.create("t", kind: .tab)))
        h.create("a", "b", "c", "x", "y")
        h.embed("n", in: "root", frame: Rect(x: 0, y: 0, width: 512, height: 768))
        h.embed("t", in: "root", frame: Rect(x: 512, y: 0, width: 512, height: 768))
        h.ok(.by("n", .push("a", on: "n")), .by("t", .setChildren("t", ["x", "y"])))
        return h
    }

    func complete(_ h: inout Harness, in parent: ControllerID, from: ControllerID, to: ControllerID) -> [String] {
        h.ok(.by(parent, .completeTransition(in: parent, from: from, to: to)))
    }

    @Test func anAnimatedPushCompletesLater() {
        var h = scene()
        h.state.animationDuration = 0.5
        let push = h.ok(.by("n", .push("b", on: "n", animated: true)))
        #expect(push.first == "navigationWillShow(n) shown=b")
        #expect(push.contains("transitionBegan(n) from=a to=b"))
        #expect(
            push.filter { $0.contains("Appear") || $0.contains("Disappear") } == [
                "viewWillDisappear(a) animated", "viewWillAppear(b) animated movingToParent",
            ]
        )
        #expect(!push.contains { $0.hasPrefix("didMoveToParent") || $0.hasPrefix("navigationDidShow") })
        #expect(h.state.transitions.map(\.duration) == [0.5])
        // Both views are in the tree meanwhile; the navigation controller takes no other switch.
        #expect(h.state.views[.root("n")]?.subviews.filter { $0.isRoot } == [.root("a"), .root("b")])
        let busy = h.fails(.transitionInProgress, .by("n", .push("c", on: "n")))
        #expect(busy?.message == "n is still switching from a to b; wait for it to complete.")
        h.fails(.transitionInProgress, .by("n", .pop("n")))
        h.fails(.transitionInProgress, .by("n", .setStack("n", ["a"])))
        let done = complete(&h, in: "n", from: "a", to: "b")
        #expect(
            done == [
                "viewRemoved(a) view=a superview=n",
                "viewDidDisappear(a) animated",
                "viewDidAppear(b) animated movingToParent",
                "transitionCompleted(n) from=a to=b",
                "didMoveToParent(b) parent=n",
                "navigationDidShow(n) shown=b",
            ]
        )
        #expect(h.state.transitions.isEmpty && h.appearance("b") == .appeared && h.appearance("a") == .disappeared)
    }

    /// SPEC §15: who asked for an animated switch is still named when it completes, by the container's own
    /// `completeTransition`.
    @Test func theAskerOfAnAnimatedSwitchIsNamedAtItsEnd() {
        var h = scene()
        h.state.animationDuration = 0.5
        #expect(
            h.ok(.by("a", .push("b", on: "n", animated: true))).first == "navigationWillShow(n) shown=b requestedBy=a"
        )
        #expect(
            h.state.transitions.first?.end
                == .navigation(shown: "b", arrived: ["b"], left: [], requestedBy: .controller("a"))
        )
        #expect(complete(&h, in: "n", from: "a", to: "b").last == "navigationDidShow(n) shown=b requestedBy=a")
        h.ok(.system(.pop("n", animated: true)))
        #expect(complete(&h, in: "n", from: "b", to: "a").last == "navigationDidShow(n) shown=a requestedBy=system")
    }

    @Test func anAnimatedPopKeepsTheOldTopUntilItCompletes() {
        var h = scene()
        h.ok(.by("n", .push("b", on: "n")))
        let pop = h.ok(.by("n", .pop("n", animated: true)))
        #expect(
            pop.filter { $0.contains("Appear") || $0.contains("Disappear") || $0.contains("Move") } == [
                "willMoveToParent(b) parent=nil", "viewWillDisappear(b) animated movingFromParent",
                "viewWillAppear(a) animated",
            ]
        )
        #expect(h.state.controllers["n"]?.children == ["a", "b"])
        let done = complete(&h, in: "n", from: "b", to: "a")
        #expect(
            done.suffix(5) == [
                "transitionCompleted(n) from=b to=a", "childRemoved(b) parent=n", "didMoveToParent(b) parent=nil",
                "viewRemoved(n) view=n/back superview=n/bar", "navigationDidShow(n) shown=a",
            ]
        )
        #expect(done.contains("viewDidDisappear(b) animated movingFromParent"))
        #expect(h.state.controllers["n"]?.children == ["a"] && h.state.controllers["b"]?.parent == nil)
    }

    /// A new stack, animated: the old top stays (first among the children) until the switch completes, then leaves;
    /// the arrived controllers settle then too.
    @Test func anAnimatedNewStackSwitchesOverTime() {
        var h = scene()
        let start = h.ok(.by("n", .setStack("n", ["b", "c"], animated: true)))
        #expect(start.first == "navigationWillShow(n) shown=c")
        #expect(
            start.filter { $0.contains("Appear") || $0.contains("Disappear") || $0.hasPrefix("didMove") } == [
                "viewWillDisappear(a) animated movingFromParent", "viewWillAppear(c) animated movingToParent",
            ]
        )
        #expect(h.state.controllers["n"]?.children == ["a", "b", "c"] && h.state.controllers["a"]?.parent == "n")
        h.fails(.transitionInProgress, .by("n", .push("x", on: "n")))
        let done = complete(&h, in: "n", from: "a", to: "c")
        #expect(
            done.suffix(6) == [
                "transitionCompleted(n) from=a to=c", "childRemoved(a) parent=n", "didMoveToParent(a) parent=nil",
                "didMoveToParent(b) parent=n", "didMoveToParent(c) parent=n", "navigationDidShow(n) shown=c",
            ]
        )
        #expect(h.state.controllers["n"]?.children == ["b", "c"] && h.appearance("c") == .appeared)
    }

    /// One page turning over another, animated: the old page leaves and pagesChanged comes at the completion.
    @Test func anAnimatedPageTurnCompletesLater() {
        var h = Harness()
        h.window()
        h.ok(.system(.create("book", kind: .page)))
        h.create("p1", "p2")
        h.embed("book", in: "root")
        h.ok(.by("book", .setPages("book", ["p1"])))
        let turn = h.ok(.by("book", .setPages("book", ["p2"], direction: .forward, animated: true)))
        #expect(turn.contains("transitionBegan(book) from=p1 to=p2"))
        #expect(!turn.contains { $0.hasPrefix("pagesChanged") || $0.hasPrefix("didMoveToParent") })
        h.fails(.transitionInProgress, .by("book", .setPages("book", ["p1"])))
        let done = complete(&h, in: "book", from: "p1", to: "p2")
        #expect(
            done.suffix(4) == [
                "childRemoved(p1) parent=book", "didMoveToParent(p1) parent=nil", "didMoveToParent(p2) parent=book",
                "pagesChanged(book) pages=p2 direction=forward",
            ]
        )
        #expect(done.contains("viewDidAppear(p2) animated movingToParent"))
    }

    /// A two-page spine turns both pages in one timed switch.
    @Test func anAnimatedTwoPageTurnSwitchesBothPages() {
        var h = Harness()
        h.window()
        var properties = ControllerProperties()
        properties.spineLocation = .mid
        properties.doubleSided = true
        h.ok(.system(.create("book", kind: .page, properties: properties)))
        h.create("p1", "p2", "p3", "p4")
        h.embed("book", in: "root", frame: Rect(x: 0, y: 0, width: 1000, height: 700))
        h.ok(.by("book", .setPages("book", ["p1", "p2"])))
        let turn = h.ok(.by("book", .setPages("book", ["p3", "p4"], animated: true)))
        #expect(turn.filter { $0.hasPrefix("transitionBegan") } == ["transitionBegan(book) from=p1 to=p3"])
        #expect(
            turn.filter { $0.contains("Appear") || $0.contains("Disappear") } == [
                "viewWillDisappear(p1) animated movingFromParent", "viewWillDisappear(p2) animated movingFromParent",
                "viewWillAppear(p3) animated movingToParent", "viewWillAppear(p4) animated movingToParent",
            ]
        )
        #expect(turn.contains("frameChanged(p4) view=p4 frame=500,0,500,700 by=book"))
        #expect(h.state.views[.root("book")]?.subviews.count == 4)
        let done = complete(&h, in: "book", from: "p1", to: "p3")
        #expect(
            done.filter { $0.contains("Appear") || $0.contains("Disappear") } == [
                "viewDidDisappear(p1) animated movingFromParent", "viewDidDisappear(p2) animated movingFromParent",
                "viewDidAppear(p3) animated movingToParent", "viewDidAppear(p4) animated movingToParent",
            ]
        )
        #expect(done.last == "pagesChanged(book) pages=p3,p4 direction=forward")
        #expect(
            h.state.controllers["book"]?.children == ["p3", "p4"] && h.state.views[.root("book")]?.subviews.count == 2
        )
    }

    /// The menu view, animated: shown at once and settled at the end; hidden only at the end.
    @Test func anAnimatedMenuSettlesAtTheEnd() {
        var h = Harness()
        h.create("a")
        h.ok(.system(.create("menu", kind: .menu)))
        h.ok(.system(.attachWindow("main", root: "menu", size: Size(width: 1024, height: 768))))
        h.ok(.by("menu", .setChildren("menu", ["a"])))
        #expect(h.state.menuAnimationDuration == 0.3)
        let show = h.ok(.by("menu", .setMenuVisible("menu", true, animated: true)))
        #expect(
            show.suffix(2) == [
                "hiddenChanged(menu) view=menu/menu hidden=false by=menu", "transitionBegan(menu) from=menu to=menu",
            ]
        )
        #expect(h.state.controllers["menu"]?.menuVisible == false && h.state.transitions.map(\.duration) == [0.3])
        h.fails(.transitionInProgress, .by("menu", .setMenuVisible("menu", false)))
        #expect(
            complete(&h, in: "menu", from: "menu", to: "menu")
                == ["transitionCompleted(menu) from=menu to=menu", "menuVisibilityChanged(menu) visible=true"]
        )
        #expect(
            h.ok(.by("menu", .setMenuVisible("menu", false, animated: true))) == [
                "transitionBegan(menu) from=menu to=menu"
            ]
        )
        #expect(
            complete(&h, in: "menu", from: "menu", to: "menu") == [
                "hiddenChanged(menu) view=menu/menu hidden=true by=menu", "transitionCompleted(menu) from=menu to=menu",
                "menuVisibilityChanged(menu) visible=false",
            ]
        )
    }

    @Test func anAnimatedTabSelectionSwapsOverTime() {
        var h = scene()
        let select = h.ok(.by("t", .select("t", .index(1), animated: true)))
        #expect(
            select.filter { $0.contains("Appear") || $0.contains("Disappear") } == [
                "viewWillDisappear(x) animated", "viewWillAppear(y) animated",
            ]
        )
        #expect(select.last == "selectionChanged(t) selected=y index=1")
        h.fails(.transitionInProgress, .by("t", .select("t", .index(0))))
        h.fails(.transitionInProgress, .by("t", .setChildren("t", ["x"])))
        let done = complete(&h, in: "t", from: "x", to: "y")
        #expect(
            done.filter { $0.contains("Appear") || $0.contains("Disappear") } == [
                "viewDidDisappear(x) animated", "viewDidAppear(y) animated",
            ]
        )
        // Not animated, nothing changes from before: one step.
        let instant = h.ok(.by("t", .select("t", .index(0))))
        #expect(instant.contains("transitionCompleted(t) from=y to=x") && h.state.transitions.isEmpty)
    }
}
