import ContainmentModel
import Testing

/// SPEC §16, the More tab: a tab container with more children than `maxVisibleTabs` shows items 0–3 and
/// `T/item-more`, whose content is its own navigation `T/more` rooted at the list `T/more-list`, a row per further
/// child; selecting one shows `T/more` with it pushed.
@Suite struct MoreTabTests {
    /// root (window 1024×768) ⊃ tab container `n` embedded full size, with six children a…f, a selected.
    func sixTabs() -> Harness {
        var h = Harness.containerScene(.tab, extra: ["d", "e", "f", "g"])
        h.ok(.by("n", .setChildren("n", ["a", "b", "c", "d", "e", "f"])))
        return h
    }

    func subviews(_ h: Harness, _ view: String) -> [String] {
        (ViewID(parsing: view).flatMap { h.state.views[$0] }?.subviews ?? []).map(\.description)
    }

    /// The callbacks among `events`: appearance and containment, in order.
    func callbacks(_ events: [String]) -> [String] {
        events.filter { $0.hasPrefix("view") && !$0.hasPrefix("viewInserted") && !$0.hasPrefix("viewRemoved") }
            .filter { !$0.contains("LayoutSubviews") }
    }

    func tap(_ x: Double, _ y: Double) -> Request {
        .system(.input("main", at: Point(x: x, y: y), kind: "tap"))
    }

    @Test func sixChildrenShowFourItemsAndMoreWithAListOfTheRest() {
        let h = sixTabs()
        #expect(subviews(h, "n/bar") == ["n/item-0", "n/item-1", "n/item-2", "n/item-3", "n/item-more"])
        #expect(
            h.state.views[ViewID(owner: "n", name: "item-more")]?.frame
                == Rect(x: 819.2, y: 0, width: 204.8, height: 49)
        )
        // T/more is n's own navigation, its last child, after the tabs; the list is its root.
        #expect(h.state.controllers["n"]?.children == ["a", "b", "c", "d", "e", "f", "n/more"])
        #expect(h.state.controllers["n/more"]?.kind == .navigation)
        #expect(h.state.controllers["n/more"]?.children == ["n/more-list"])
        #expect(subviews(h, "n/more-list") == ["n/more-list/row-4", "n/more-list/row-5"])
        // Indices count the tabs: a is selected, index 0, and the tab it shows is a, in the transition view.
        #expect(h.state.selectedIndex("n") == 0)
        #expect(subviews(h, "n/transition") == ["a"])
        // The ids read back: T/more's root view, the list's, a row.
        #expect(ViewID(parsing: "n/more") == .root("n/more"))
        #expect(ViewID(parsing: "n/more-list/row-4") == ViewID(owner: "n/more-list", name: "row-4"))
    }

    @Test func selectingTheSixthPushesItOnMoreWithTheCallbacksOfASwitch() {
        var h = sixTabs()
        let events = h.ok(.by("n", .select("n", .index(5))))
        #expect(
            callbacks(events) == [
                "viewDidLoad(f)", "viewWillDisappear(a)", "viewWillAppear(f)", "viewWillAppear(n/more)",
                "viewDidDisappear(a)", "viewDidAppear(f)", "viewDidAppear(n/more)",
            ]
        )
        #expect(events.last == "selectionChanged(n) selected=f index=5")
        // f stays n's child (n alone places it) and lies in T/more, above its bar, with a back button.
        #expect(h.state.controllers["f"]?.parent == "n")
        #expect(h.state.pushedInMore("n") == "f")
        #expect(subviews(h, "n/transition") == ["n/more"])
        #expect(subviews(h, "n/more") == ["n/more/bar", "f"])
        #expect(subviews(h, "n/more/bar") == ["n/more/back"])
        #expect(h.state.views[.root("f")]?.frame == Rect(x: 0, y: 44, width: 1024, height: 675))
        #expect(events.contains("frameChanged(f) view=f frame=0,44,1024,675 by=n"))
        // The fifth from the sixth: a push inside T/more, which stays on screen.
        let fifth = h.ok(.by("n", .select("n", .index(4))))
        #expect(
            callbacks(fifth) == [
                "viewDidLoad(e)", "viewWillDisappear(f)", "viewWillAppear(e)", "viewDidDisappear(f)",
                "viewDidAppear(e)",
            ]
        )
        #expect(fifth.contains("transitionBegan(n/more) from=f to=e"))
        // More's item from there: the list comes back over e, its rows as wide as it, and a row takes a tap.
        h.ok(tap(1000, 740))
        #expect(h.state.views[ViewID(owner: "n/more-list", name: "row-5")]?.frame.width == 1024)
        #expect(h.ok(tap(500, 60)).last == "selectionChanged(n) selected=e index=4")
        h.ok(.by("n", .select("n", .index(4))))
        // A first tab again: T/more leaves the screen with e in it.
        let first = h.ok(.by("n", .select("n", .index(0))))
        #expect(
            callbacks(first) == [
                "viewWillDisappear(n/more)", "viewWillAppear(a)", "viewWillDisappear(e)", "viewDidDisappear(e)",
                "viewDidDisappear(n/more)", "viewDidAppear(a)",
            ]
        )
        #expect(subviews(h, "n/transition") == ["a"])
    }

    @Test func moreItemShowsTheListARowPushesItsTabAndBackPopsToTheList() {
        var h = sixTabs()
        // More's item, at the bar's trailing end.
        let more = h.ok(tap(1000, 740))
        #expect(more.first == "inputDelivered(n) window=main point=1000,740 kind=tap view=n/item-more chain=n")
        #expect(more.last == "selectionChanged(n) selected=n/more index=nil")
        #expect(callbacks(more).contains("viewWillAppear(n/more-list)"))
        #expect(h.state.selectedIndex("n") == nil)
        #expect(
            h.state.views[ViewID(owner: "n/more-list", name: "row-5")]?.frame
                == Rect(x: 0, y: 44, width: 1024, height: 44)
        )
        // The second row (y 44…88 in the list, which starts 44 below T/more's top) is the sixth tab.
        let row = h.ok(tap(500, 100))
        #expect(row.first == "inputDelivered(n) window=main point=500,100 kind=tap view=n/more-list/row-5 chain=n")
        #expect(
            callbacks(row) == [
                "viewDidLoad(f)", "viewWillDisappear(n/more-list)", "viewWillAppear(f)",
                "viewDidDisappear(n/more-list)", "viewDidAppear(f)",
            ]
        )
        #expect(row.last == "selectionChanged(n) selected=f index=5")
        // Back, at the leading edge of T/more's bar: the list again, More selected.
        let back = h.ok(tap(10, 10))
        #expect(back.first == "inputDelivered(n/more) window=main point=10,10 kind=tap view=n/more/back chain=n/more")
        #expect(callbacks(back).contains("viewDidDisappear(f)"))
        #expect(back.last == "selectionChanged(n) selected=n/more index=nil")
        #expect(subviews(h, "n/more") == ["n/more/bar", "n/more-list"])
    }

    @Test func fewerChildrenTakeMoreAwayAndTheTabInItReturnsToItsPlace() {
        var h = sixTabs()
        h.ok(.by("n", .select("n", .index(4))))
        // f leaves by itself: five fit, T/more and its list go; e, shown, moves to the transition view unharmed.
        let fits = h.ok(.by("f", .removeFromParent("f")))
        #expect(!callbacks(fits).contains { $0.contains("(e)") })
        #expect(fits.contains("controllerDestroyed(n/more)") && fits.contains("controllerDestroyed(n/more-list)"))
        #expect(h.state.controllers["n"]?.children == ["a", "b", "c", "d", "e"])
        #expect(subviews(h, "n/transition") == ["e"])
        #expect(subviews(h, "n/bar") == ["n/item-0", "n/item-1", "n/item-2", "n/item-3", "n/item-4"])
        #expect(h.state.controllers["e"]?.appearance == .appeared && h.state.selectedIndex("n") == 4)
        // A sixth again: e, selected, goes back into a new T/more.
        h.ok(.by("n", .setChildren("n", ["a", "b", "c", "d", "e", "g"])))
        #expect(h.state.pushedInMore("n") == "e")
        #expect(h.state.controllers["e"]?.appearance == .appeared)
    }

    /// The views some view names as a subview or superview but the state does not hold (a checkpoint could not
    /// restore them), and the subviews a view lists twice.
    func dangling(_ h: Harness) -> [String] {
        h.state.views.values.flatMap { view in
            (view.subviews + [view.superview].compactMap { $0 }).filter { h.state.views[$0] == nil }
                .map { "\(view.id) names \($0)" }
                + (Set(view.subviews).count == view.subviews.count ? [] : ["\(view.id) lists a subview twice"])
        }
    }

    @Test func moreShowingItsListWhenTabsFitAgainSwapsToTheFirstTab() {
        var h = sixTabs()
        h.ok(tap(1000, 740))
        #expect(h.state.controllers["n"]?.selected == "n/more")
        // f joins another parent (UIKit's addChild takes it from n first): five fit, More goes, a is swapped in.
        let fits = h.ok(.by("c", .addChild("f", to: "c")))
        #expect(
            callbacks(fits).filter { !$0.contains("Move") } == [
                "viewWillDisappear(n/more)", "viewWillDisappear(n/more-list)", "viewWillAppear(a)",
                "viewDidDisappear(n/more)", "viewDidDisappear(n/more-list)", "viewDidAppear(a)",
            ]
        )
        #expect(fits.contains("selectionChanged(n) selected=a index=0"))
        #expect(fits.contains("controllerDestroyed(n/more)"))
        #expect(subviews(h, "n/transition") == ["a"])
        #expect(h.state.selectedIndex("n") == 0)
        #expect(dangling(h) == [])
    }

    @Test func aTabTheContainerPutInItsTransitionViewStaysThereWhenMoreComes() {
        var h = Harness.containerScene(.tab, extra: ["d", "e", "f", "g"])
        h.ok(.by("n", .setChildren("n", ["a", "b", "c", "d"])))
        h.ok(.by("n", .select("n", .index(1))))
        // n's own code puts c's root view in its transition view, before b's.
        h.ok(.by("n", .addSubview(.root("c"), to: ViewID(owner: "n", name: "transition"), at: 0)))
        #expect(subviews(h, "n/transition") == ["c", "b"])
        // Seven tabs: b, selected and fifth, goes into T/more, which takes b's place; c stays where n put it. b stays
        // on screen throughout, so only T/more appears.
        let events = h.ok(.by("n", .setChildren("n", ["e", "f", "d", "a", "b", "g", "c"])))
        #expect(
            callbacks(events) == [
                "viewDidLoad(n/more)", "viewDidLoad(n/more-list)", "viewWillAppear(n/more)", "viewDidAppear(n/more)",
            ]
        )
        #expect(subviews(h, "n/transition") == ["c", "n/more"])
        #expect(subviews(h, "n/more") == ["n/more/bar", "b"])
        #expect(h.state.pushedInMore("n") == "b" && h.state.selectedIndex("n") == 4)
        #expect(dangling(h) == [])
    }

    @Test func setChildrenWhileMoreShowsItsListKeepsTheSelectionRule() {
        var h = sixTabs()
        h.ok(tap(1000, 740))
        // The new first tab, b, is a tab now: More's list gives way to it in one swap, and no second swap follows.
        let rebuilt = h.ok(.by("n", .setChildren("n", ["b", "c", "d", "e", "f", "g"])))
        #expect(rebuilt.filter { $0.hasPrefix("selectionChanged") } == ["selectionChanged(n) selected=b index=0"])
        #expect(callbacks(rebuilt).filter { $0.hasPrefix("viewWillAppear") } == ["viewWillAppear(b)"])
        #expect(h.state.controllers["n/more"] != nil && h.state.pushedInMore("n") == nil)
        #expect(subviews(h, "n/transition") == ["b"])
        #expect(dangling(h) == [])
        // A first tab that is new: More's list leaves, then g comes in its place.
        h.ok(tap(1000, 740))
        let fresh = h.ok(.by("n", .setChildren("n", ["a", "b"])))
        #expect(fresh.filter { $0.hasPrefix("selectionChanged") }.last == "selectionChanged(n) selected=a index=0")
        #expect(subviews(h, "n/transition") == ["a"])
        #expect(h.state.controllers["n/more"] == nil)
        #expect(dangling(h) == [])
    }

    @Test func aMemoryWarningUnloadingMoreLetsGoOfTheTabInIt() {
        var h = sixTabs()
        h.ok(.by("n", .select("n", .index(5))))
        h.ok(.by("n", .select("n", .index(0))))
        #expect(h.state.pushedInMore("n") == "f")
        // T/more is off screen, f in it: its views unload, f's root view leaves them.
        h.ok(.system(.memoryWarning(["n/more"])))
        #expect(h.state.views[.root("n/more")] == nil)
        #expect(h.state.views[.root("f")]?.superview == nil)
        #expect(dangling(h) == [])
        // Selected again, f goes back into a reloaded T/more.
        h.ok(.by("n", .select("n", .index(5))))
        #expect(h.state.pushedInMore("n") == "f" && h.state.isOnScreen("f"))
        #expect(dangling(h) == [])
    }

    @Test func maxVisibleTabsIsASetting() {
        var h = Harness.containerScene(.tab)
        h.state.maxVisibleTabs = 2
        h.ok(.by("n", .setChildren("n", ["a", "b", "c"])))
        #expect(subviews(h, "n/bar") == ["n/item-0", "n/item-more"])
        #expect(subviews(h, "n/more-list") == ["n/more-list/row-1", "n/more-list/row-2"])
    }

    @Test func theMoreControllersAreTheContainersOwn() {
        var h = sixTabs()
        #expect(
            h.fails(.unauthorized, .by("n", .removeFromParent("n/more")))?.message
                == "n/more is n's own More controller; no one may remove it."
        )
        h.fails(.unauthorized, .system(.destroy("n/more-list")))
        h.fails(.unauthorized, .by("a", .present("g", on: "n/more")))
        h.fails(.unauthorized, .by("n/more", .pop("n/more")))
        h.fails(.unauthorized, .by("n", .transition(in: "n", from: "a", to: "n/more")))
        h.fails(.unauthorized, .by("n", .setChildren("n", ["a", "n/more"])))
        // A subview named like them would read as their root views.
        h.fails(.malformed, .by("a", .addSubview(ViewID(owner: "a", name: "more"), to: .root("a"))))
        // select of T/more is More's item.
        h.ok(.by("n", .select("n", .controller("n/more"))))
        #expect(h.state.controllers["n"]?.selected == "n/more")
    }
}
