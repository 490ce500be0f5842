import ContainmentModel
import Testing

/// SPEC §8: navigation, tab and menu containers, built from the containment primitives.
@Suite struct ContainerTests {
    /// root (window 1024×768) ⊃ `kind` container `n` embedded full size; content a, b, c loose.
    func scene(_ kind: Kind, onScreen: Bool = true) -> Harness {
        Harness.containerScene(kind, onScreen: onScreen)
    }

    @Test func pushAndPopOnScreen() {
        var h = scene(.navigation)
        let first = h.ok(.by("n", .push("a", on: "n")))
        #expect(
            first == [
                "navigationWillShow(n) shown=a",
                "willMoveToParent(a) parent=n",
                "childAdded(a) parent=n",
                "viewInserted(n) view=n/bar superview=n index=0",
                "frameChanged(n) view=n/bar frame=0,0,1024,44 by=n",
                "loadView(a)",
                "viewDidLoad(a)",
                "frameChanged(a) view=a frame=0,44,1024,724 by=n",
                "viewWillLayoutSubviews(a)",
                "viewDidLayoutSubviews(a)",
                "viewWillAppear(a) movingToParent",
                "viewInserted(a) view=a superview=n index=1",
                "viewDidAppear(a) movingToParent",
                "didMoveToParent(a) parent=n",
                "navigationDidShow(n) shown=a",
            ]
        )
        let push = h.ok(.by("n", .push("b", on: "n")))
        #expect(
            push == [
                "navigationWillShow(n) shown=b",
                "willMoveToParent(b) parent=n",
                "childAdded(b) parent=n",
                // SPEC §15: two in the stack, the bar gets its back button.
                "viewInserted(n) view=n/back superview=n/bar index=0",
                "frameChanged(n) view=n/back frame=0,0,64,44 by=n",
                "transitionBegan(n) from=a to=b",
                "loadView(b)",
                "viewDidLoad(b)",
                "frameChanged(b) view=b frame=0,44,1024,724 by=n",
                "viewWillLayoutSubviews(b)",
                "viewDidLayoutSubviews(b)",
                "viewWillDisappear(a)",
                "viewWillAppear(b) movingToParent",
                "viewInserted(b) view=b superview=n index=2",
                "viewRemoved(a) view=a superview=n",
                "viewDidDisappear(a)",
                "viewDidAppear(b) movingToParent",
                "transitionCompleted(n) from=a to=b",
                "didMoveToParent(b) parent=n",
                "navigationDidShow(n) shown=b",
            ]
        )
        #expect(h.state.navigationBar("n") == ("B", "A"))
        let pop = h.ok(.by("n", .pop("n")))
        #expect(
            pop == [
                "navigationWillShow(n) shown=a",
                "willMoveToParent(b) parent=nil",
                "transitionBegan(n) from=b to=a",
                "viewWillDisappear(b) movingFromParent",
                "viewWillAppear(a)",
                "viewInserted(a) view=a superview=n index=2",
                "viewRemoved(b) view=b superview=n",
                "viewDidDisappear(b) movingFromParent",
                "viewDidAppear(a)",
                "transitionCompleted(n) from=b to=a",
                "childRemoved(b) parent=n",
                "didMoveToParent(b) parent=nil",
                "viewRemoved(n) view=n/back superview=n/bar",
                "navigationDidShow(n) shown=a",
            ]
        )
        // At the root, pop does nothing.
        #expect(h.ok(.by("n", .pop("n"))) == [])
        #expect(h.state.controllers["n"]?.children == ["a"])
    }

    @Test func navigationRejections() {
        var h = scene(.navigation)
        h.ok(.system(.create("nav2", kind: .navigation)))
        h.ok(.by("n", .push("a", on: "n")))
        let twice = h.fails(.alreadyInStack, .by("n", .push("a", on: "n")))
        #expect(twice?.message == "Pushing the same view controller instance (a) more than once is not supported.")
        h.fails(.pushNavigation, .by("n", .push("nav2", on: "n")))
        h.fails(.notInStack, .by("n", .popTo("b", in: "n")))
        h.fails(.unauthorized, .by("c", .push("b", on: "n")))
        h.fails(.malformed, .by("root", .push("b", on: "root")))
        let duplicate = h.fails(.duplicateController, .by("n", .setStack("n", ["a", "b", "a"])))
        #expect(duplicate?.message == "a appears more than once in the stack given to n.")
    }

    /// SPEC §15: a navigation command, a selection or a page turn is accepted from the container, any controller of
    /// its subtree (seed 003's master pushes its detail) or the system, and runs exactly as the container's own —
    /// the same events, frames set by the container — save that its events name who asked (`requestedBy`). Its
    /// parent or anyone outside is `unauthorized`.
    @Test func childrenDriveTheirContainers() {
        var asContainer = scene(.navigation)
        asContainer.ok(.by("n", .push("a", on: "n")))
        let own = asContainer.ok(.by("n", .push("b", on: "n")))
        var asChild = scene(.navigation)
        asChild.ok(.by("n", .push("a", on: "n")))
        let asked = own.map { $0.hasPrefix("navigation") ? $0 + " requestedBy=a" : $0 }
        #expect(asChild.ok(.by("a", .push("b", on: "n"))) == asked)
        #expect(own.contains("frameChanged(b) view=b frame=0,44,1024,724 by=n"))
        #expect(own.first == "navigationWillShow(n) shown=b" && own.last == "navigationDidShow(n) shown=b")
        // A grandchild asks too; the system may; the container's parent and an outsider may not.
        asChild.embed("c", in: "b", frame: Rect(x: 0, y: 0, width: 10, height: 10))
        #expect(asChild.ok(.by("c", .pop("n"))).first == "navigationWillShow(n) shown=a requestedBy=c")
        #expect(asChild.state.controllers["n"]?.children == ["a"])
        asChild.ok(.system(.push("b", on: "n")))
        let parent = asChild.fails(.unauthorized, .by("root", .popToRoot("n")))
        #expect(parent?.message == "root may not pop n; only n, a controller in its subtree, or the system may.")
        // Only the listed commands: a child still may not replace its container's children.
        var tabs = scene(.tab)
        tabs.ok(.by("n", .setChildren("n", ["a", "b"])))
        tabs.fails(.unauthorized, .by("a", .setChildren("n", ["b"])))
        #expect(
            tabs.ok(.by("a", .select("n", .index(1)))).last == "selectionChanged(n) selected=b index=1 requestedBy=a"
        )
        #expect(tabs.state.controllers["n"]?.selected == "b")
    }

    /// popTo: only the old top gets disappearance callbacks; the ones between leave quietly.
    @Test func popToRootLeavesTheMiddleQuietly() {
        var h = scene(.navigation)
        h.ok(.by("n", .push("a", on: "n")), .by("n", .push("b", on: "n")), .by("n", .push("c", on: "n")))
        let events = h.ok(.by("n", .popToRoot("n")))
        #expect(
            events.filter { $0.contains("Appear") || $0.contains("Disappear") } == [
                "viewWillDisappear(c) movingFromParent", "viewWillAppear(a)", "viewDidDisappear(c) movingFromParent",
                "viewDidAppear(a)",
            ]
        )
        #expect(events.contains("childRemoved(b) parent=n") && events.contains("didMoveToParent(b) parent=nil"))
        #expect(h.state.controllers["n"]?.children == ["a"])
    }

    @Test func setStackSwapsOnceAndRemovedOnesLeaveCleanly() {
        var h = scene(.navigation)
        h.ok(.by("n", .push("a", on: "n")), .by("n", .push("b", on: "n")))
        let events = h.ok(.by("n", .setStack("n", ["c", "a"])))
        #expect(events.filter { $0.hasPrefix("transitionBegan") } == ["transitionBegan(n) from=b to=a"])
        #expect(events.contains("didMoveToParent(b) parent=nil"))
        #expect(events.contains("didMoveToParent(c) parent=n"))
        #expect(events.first == "navigationWillShow(n) shown=a" && events.last == "navigationDidShow(n) shown=a")
        #expect(h.state.controllers["n"]?.children == ["c", "a"])
        #expect(
            h.appearance("a") == .appeared && h.appearance("b") == .disappeared && h.appearance("c") == .disappeared
        )
    }

    @Test func tabSelectionSwapsAndIndexIsDerived() {
        var h = scene(.tab)
        let set = h.ok(.by("n", .setChildren("n", ["a", "b", "c"])))
        #expect(set.last == "selectionChanged(n) selected=a index=0")
        #expect(set.contains("frameChanged(a) view=a frame=0,0,1024,719 by=n"))
        #expect(h.state.selectedIndex("n") == 0)
        let select = h.ok(.by("n", .select("n", .index(2))))
        #expect(
            select.filter { $0.contains("Appear") || $0.contains("Disappear") } == [
                "viewWillDisappear(a)", "viewWillAppear(c)", "viewDidDisappear(a)", "viewDidAppear(c)",
            ]
        )
        #expect(select.last == "selectionChanged(n) selected=c index=2")
        #expect(h.ok(.by("n", .select("n", .controller("c")))) == [])
        h.fails(.indexOutOfRange, .by("n", .select("n", .index(3))))
        h.fails(.notAChild, .by("n", .select("n", .controller("root"))))
        h.fails(.duplicateController, .by("n", .setChildren("n", ["a", "a"])))
        // The selection is kept when still present, its index derived anew.
        let reorder = h.ok(.by("n", .setChildren("n", ["c", "b"])))
        #expect(reorder.contains("didMoveToParent(a) parent=nil"))
        #expect(!reorder.contains { $0.hasPrefix("selectionChanged") })
        #expect(h.state.selectedIndex("n") == 0)
        // Without children, no selection.
        let emptied = h.ok(.by("n", .setChildren("n", [])))
        #expect(emptied.filter { $0.hasPrefix("selection") } == ["selectionChanged(n) selected=nil index=nil"])
        #expect(
            emptied.suffix(2) == [
                "viewRemoved(n) view=n/item-0 superview=n/bar", "viewRemoved(n) view=n/item-1 superview=n/bar",
            ]
        )
        #expect(h.state.selectedIndex("n") == nil)
    }

    /// SPEC §8: the selected child's disappearance and the new selection's appearance are one swap.
    @Test func removingTheSelectedTabIsOneSwap() {
        var h = scene(.tab)
        h.ok(.by("n", .setChildren("n", ["a", "b", "c"])))
        let events = h.ok(.by("n", .setChildren("n", ["b", "c"])))
        #expect(
            events.filter { $0.contains("Appear") || $0.contains("Disappear") } == [
                "viewWillDisappear(a) movingFromParent", "viewWillAppear(b)", "viewDidDisappear(a) movingFromParent",
                "viewDidAppear(b)",
            ]
        )
        #expect(events.filter { $0.hasPrefix("transitionBegan") } == ["transitionBegan(n) from=a to=b"])
        #expect(events.last == "selectionChanged(n) selected=b index=0")
        #expect(events.contains("didMoveToParent(a) parent=nil"))
        let menu = scene(.menu)
        var m = menu
        m.ok(.by("n", .setChildren("n", ["a", "b"])))
        m.fails(.duplicateController, .by("n", .setChildren("n", ["c", "c"])))
    }

    /// A tab's selected child that removes itself leaves the tab with no selection; the others keep it. A shown
    /// menu's child that leaves takes its item with it.
    @Test func aSelectedChildLeavingByItselfClearsTheSelection() {
        var h = scene(.tab)
        h.ok(.by("n", .setChildren("n", ["a", "b", "c"])))
        // The tab bar keeps an item per child (SPEC §15).
        #expect(
            h.ok(.by("b", .removeFromParent("b"))).suffix(4) == [
                "didMoveToParent(b) parent=nil", "viewRemoved(n) view=n/item-2 superview=n/bar",
                "frameChanged(n) view=n/item-0 frame=0,0,512,49 by=n",
                "frameChanged(n) view=n/item-1 frame=512,0,512,49 by=n",
            ]
        )
        #expect(h.state.selectedIndex("n") == 0)
        #expect(
            h.ok(.by("a", .removeFromParent("a"))) == [
                "viewWillDisappear(a) movingFromParent", "viewRemoved(a) view=a superview=n/transition",
                "viewDidDisappear(a) movingFromParent", "childRemoved(a) parent=n", "didMoveToParent(a) parent=nil",
                "selectionChanged(n) selected=nil index=nil", "viewRemoved(n) view=n/item-1 superview=n/bar",
                "frameChanged(n) view=n/item-0 frame=0,0,1024,49 by=n",
            ]
        )
        #expect(h.state.controllers["n"]?.selected == nil && h.state.selectedIndex("n") == nil)
        // Moved elsewhere, the same.
        h.ok(.by("n", .select("n", .controller("c"))))
        h.ok(.by("root", .addChild("c", to: "root")))
        #expect(h.state.controllers["n"]?.selected == nil)

        var m = scene(.menu)
        m.ok(.by("n", .setChildren("n", ["a", "b", "c"])))
        m.ok(.by("n", .setMenuVisible("n", true)))
        let left = m.ok(.by("c", .removeFromParent("c")))
        #expect(left.contains("viewRemoved(n) view=n/item-2 superview=n/menu"))
        #expect(!left.contains { $0.hasPrefix("selectionChanged") })
        #expect(m.state.selectedIndex("n") == 0)
        #expect(
            m.ok(.by("a", .removeFromParent("a"))).suffix(2) == [
                "selectionChanged(n) selected=nil index=nil", "viewRemoved(n) view=n/item-1 superview=n/menu",
            ]
        )
    }

    /// Seed 004: full-size children in the menu's own transition view, its menu view above, setChildren selects
    /// the first after every old child left.
    @Test func menuContainer() {
        var h = scene(.menu)
        let set = h.ok(.by("n", .setChildren("n", ["a", "b"])))
        #expect(set.contains("viewInserted(n) view=n/transition superview=n index=0"))
        #expect(set.contains("viewInserted(n) view=n/menu superview=n index=1"))
        #expect(set.contains("viewInserted(a) view=a superview=n/transition index=0"))
        #expect(set.contains("frameChanged(a) view=a frame=0,0,1024,768 by=n"))
        #expect(
            h.state.views[.root("n")]?.subviews == [
                ViewID(owner: "n", name: "transition"), ViewID(owner: "n", name: "menu"),
            ]
        )
        #expect(h.ok(.by("n", .select("n", .index(0)))) == [])
        h.fails(.indexOutOfRange, .by("n", .select("n", .index(5))))
        // Shown, the menu view (the whole menu) holds an item per child on a ring: the first at the top.
        #expect(
            h.ok(.by("n", .setMenuVisible("n", true))) == [
                "viewInserted(n) view=n/item-0 superview=n/menu index=0",
                "frameChanged(n) view=n/item-0 frame=480,32,64,64 by=n",
                "viewInserted(n) view=n/item-1 superview=n/menu index=1",
                "frameChanged(n) view=n/item-1 frame=480,672,64,64 by=n",
                "hiddenChanged(n) view=n/menu hidden=false by=n", "menuVisibilityChanged(n) visible=true",
            ]
        )
        let again = h.ok(.by("n", .setChildren("n", ["b", "c"])))
        // The hidden child leaves first; the shown one after its view went (with its disappearance).
        #expect(
            again.filter { $0.hasPrefix("didMoveToParent") } == [
                "didMoveToParent(b) parent=nil", "didMoveToParent(a) parent=nil", "didMoveToParent(b) parent=n",
                "didMoveToParent(c) parent=n",
            ]
        )
        #expect(h.state.selectedIndex("n") == 0 && h.appearance("b") == .appeared)
        // A standard container lays its shown child out itself when its own size changes, as its parent.
        let resize = h.ok(.system(.resizeWindow("main", size: Size(width: 800, height: 600))))
        #expect(!resize.contains("frameChanged(b) view=b frame=0,0,800,600 by=n"))
        let frame = h.ok(.by("root", .setFrame(.root("n"), Rect(x: 0, y: 0, width: 800, height: 600))))
        #expect(frame.contains("frameChanged(b) view=b frame=0,0,800,600 by=n"))
        #expect(frame.contains("frameChanged(n) view=n/menu frame=0,0,800,600 by=n"))
        #expect(frame.contains("frameChanged(n) view=n/item-1 frame=368,504,64,64 by=n"))
        // Three children on the ring; a child fewer, its item goes.
        let three = h.ok(.by("n", .setChildren("n", ["a", "b", "c"])))
        #expect(three.contains("viewInserted(n) view=n/item-2 superview=n/menu index=2"))
        let two = h.ok(.by("n", .setChildren("n", ["a", "b"])))
        #expect(two.contains("viewRemoved(n) view=n/item-2 superview=n/menu"))
    }

    @Test func offScreenContainersGiveNoAppearance() {
        var h = scene(.tab, onScreen: false)
        let events = h.ok(.by("n", .setChildren("n", ["a", "b"])), .by("n", .select("n", .index(1))))
        #expect(!events.contains { $0.contains("Appear") || $0.contains("Disappear") })
        #expect(h.state.selectedIndex("n") == 1)
    }
}
