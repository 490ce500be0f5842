import ContainmentModel
import Testing

/// SPEC §8: page and split containers.
@Suite struct PageAndSplitTests {
    /// root (window 1024×768) ⊃ container `n` of `kind` full size; content p1…p4.
    func scene(_ kind: Kind, _ configure: (inout ControllerProperties) -> Void = { _ in }) -> Harness {
        var h = Harness()
        h.create("root")
        h.ok(.system(.attachWindow("main", root: "root", size: Size(width: 1024, height: 768))))
        var properties = ControllerProperties()
        properties.pageSequence = ["p1", "p2", "p3", "p4"]
        configure(&properties)
        h.ok(.system(.create("n", kind: kind, properties: properties)))
        h.create("p1", "p2", "p3", "p4")
        h.embed("n", in: "root", frame: Rect(x: 0, y: 0, width: 1024, height: 768))
        return h
    }

    @Test func scrollShowsOnePageAndTurnsThroughTheDataSource() {
        var h = scene(.page) { $0.pageTransitionStyle = .scroll }
        let first = h.ok(.by("n", .setPages("n", ["p1"])))
        #expect(
            first == [
                "willMoveToParent(p1) parent=n",
                "childAdded(p1) parent=n",
                "loadView(p1)",
                "viewDidLoad(p1)",
                "frameChanged(p1) view=p1 frame=0,0,1024,768 by=n",
                "viewWillLayoutSubviews(p1)",
                "viewDidLayoutSubviews(p1)",
                "viewWillAppear(p1) movingToParent",
                "viewInserted(p1) view=p1 superview=n index=0",
                "viewDidAppear(p1) movingToParent",
                "didMoveToParent(p1) parent=n",
                "pagesChanged(n) pages=p1 direction=forward",
            ]
        )
        let next = h.ok(.by("n", .nextPage("n")))
        #expect(
            next.filter { $0.contains("Appear") || $0.contains("Disappear") } == [
                "viewWillDisappear(p1) movingFromParent", "viewWillAppear(p2) movingToParent",
                "viewDidDisappear(p1) movingFromParent", "viewDidAppear(p2) movingToParent",
            ]
        )
        #expect(next.last == "pagesChanged(n) pages=p2 direction=forward")
        #expect(h.state.controllers["n"]?.children == ["p2"])
        #expect(h.ok(.by("n", .previousPage("n"))).last == "pagesChanged(n) pages=p1 direction=reverse")
        // Before the first page there is none: nothing happens.
        #expect(h.ok(.by("n", .previousPage("n"))) == [])
        h.fails(.spineMismatch, .by("n", .setPages("n", ["p1", "p2"])))
    }

    /// SPEC §15: a swipe on a page container turns its pages — left to the next, right to the previous — unless a
    /// controller nearer on the chain handles swipes itself; up and down do nothing.
    @Test func aSwipeTurnsThePage() {
        var h = scene(.page) { $0.pageTransitionStyle = .scroll }
        h.ok(.by("n", .setPages("n", ["p1"])))
        func swipe(_ direction: SwipeDirection) -> Request {
            .system(.input("main", at: Point(x: 500, y: 300), kind: "swipe", direction: direction))
        }
        let left = h.ok(swipe(.left))
        #expect(left.first == "inputDelivered(n) window=main point=500,300 kind=swipe view=p1 chain=p1,n")
        #expect(left.last == "pagesChanged(n) pages=p2 direction=forward")
        #expect(h.ok(swipe(.right)).last == "pagesChanged(n) pages=p1 direction=reverse")
        // Before the first page: delivered, nothing turns.
        #expect(h.ok(swipe(.right)).count == 2)
        #expect(h.ok(swipe(.up)).count == 2)
        // The page handles swipes itself: it takes them, and the container does not turn.
        h.ok(.by("p1", .setProperties("p1", [.handles(["swipe"])])))
        #expect(h.ok(swipe(.left)).last == "inputReceived(p1) kind=swipe point=500,300 view=p1")
        #expect(h.state.controllers["n"]?.children == ["p1"])
    }

    @Test func aMidSpineShowsTwoPagesSideBySide() {
        var h = scene(.page) {
            $0.spineLocation = .mid
            $0.doubleSided = true
        }
        #expect(h.state.requiredPageCount("n") == 2)
        let error = h.fails(.spineMismatch, .by("n", .setPages("n", ["p1"])))
        #expect(
            error?.message
                == "The number of view controllers provided (1) doesn't match the number required (2) for the requested transition."
        )
        let events = h.ok(.by("n", .setPages("n", ["p1", "p2"])))
        #expect(events.contains("frameChanged(p1) view=p1 frame=0,0,512,768 by=n"))
        #expect(events.contains("frameChanged(p2) view=p2 frame=512,0,512,768 by=n"))
        let next = h.ok(.by("n", .nextPage("n")))
        #expect(next.last == "pagesChanged(n) pages=p3,p4 direction=forward")
        #expect(h.state.controllers["n"]?.children == ["p3", "p4"])
        #expect(h.ok(.by("n", .nextPage("n"))) == [])
    }

    /// SPEC §8: refused at `create`, before any page is set.
    @Test func aMidSpineNeedsDoubleSidedPagesFromCreation() {
        var h = Harness()
        var properties = ControllerProperties()
        properties.spineLocation = .mid
        let error = h.fails(.spineMismatch, .system(.create("n", kind: .page, properties: properties)))
        #expect(error?.message == "A mid spine needs double-sided pages; n is single-sided.")
        properties.pageTransitionStyle = .scroll
        h.ok(.system(.create("scrolling", kind: .page, properties: properties)))
    }

    @Test func duplicatePagesAreRefused() {
        var h = scene(.page) { $0.doubleSided = true }
        let error = h.fails(.duplicateController, .by("n", .setPages("n", ["p1", "p1"])))
        #expect(error?.message == "p1 appears more than once in the pages given to n.")
    }

    /// SPEC §8: collapsed, a split shows its primary — its secondary when the display mode hides the primary.
    @Test func aCollapsedSplitHidingItsPrimaryShowsTheSecondary() {
        var h = scene(.split) { $0.splitDisplayMode = .primaryHidden }
        h.ok(.by("n", .setChildren("n", ["p1", "p2"])))
        let narrow = h.ok(.by("root", .setFrame(.root("n"), Rect(x: 0, y: 0, width: 500, height: 768))))
        #expect(narrow.contains("frameChanged(p2) view=p2 frame=0,0,500,768 by=n"))
        #expect(h.appearance("p2") == .appeared && h.appearance("p1") == .disappeared)
    }

    /// SPEC §15: in a portrait window the split shows its secondary full width and a showPrimary button; a tap on it
    /// brings the primary over the secondary, a tap beside the overlay hides it, and in landscape both are side by
    /// side again.
    @Test func aSplitInPortraitOverlaysItsPrimaryOnATap() {
        var h = Harness()
        h.ok(.system(.create("n", kind: .split)))
        h.create("p1", "p2")
        h.ok(.system(.attachWindow("main", root: "n", size: Size(width: 768, height: 1024))))
        let set = h.ok(.by("n", .setChildren("n", ["p1", "p2"])))
        #expect(set.contains("frameChanged(p2) view=p2 frame=0,0,768,1024 by=n"))
        #expect(!set.contains { $0.hasPrefix("viewInserted(p1)") })
        #expect(set.contains("viewInserted(n) view=n/showPrimary superview=n index=1"))
        #expect(set.contains("frameChanged(n) view=n/showPrimary frame=0,0,64,44 by=n"))
        func tap(_ x: Double, _ y: Double) -> Request { .system(.input("main", at: Point(x: x, y: y), kind: "tap")) }
        // The button: the primary comes over the secondary, 0.4 of the width, and the button goes.
        let shown = h.ok(tap(20, 20))
        #expect(shown.first == "inputDelivered(n) window=main point=20,20 kind=tap view=n/showPrimary chain=n")
        #expect(h.state.views[.root("p1")]?.frame == Rect(x: 0, y: 0, width: 768 * 0.4, height: 1024))
        #expect(shown.contains("viewDidAppear(p1)"))
        #expect(shown.last == "viewRemoved(n) view=n/showPrimary superview=n")
        #expect(h.state.controllers["n"]?.properties.splitDisplayMode == .primaryOverlay)
        // A tap inside the overlay leaves it; one beside it hides it, and the button is back.
        #expect(!h.ok(tap(100, 500)).contains("viewDidDisappear(p1)"))
        let hidden = h.ok(tap(600, 500))
        #expect(hidden.contains("viewDidDisappear(p1)"))
        #expect(hidden.last == "viewInserted(n) view=n/showPrimary superview=n index=1")
        // Shown again, then the window turns: side by side, the button gone.
        h.ok(tap(20, 20))
        let turned = h.ok(.system(.rotate("main", .landscapeLeft)))
        #expect(turned.contains("frameChanged(p1) view=p1 frame=0,0,409.6,768 by=n"))
        #expect(turned.contains("frameChanged(p2) view=p2 frame=409.6,0,614.4,768 by=n"))
        #expect(h.state.views[ViewID(owner: "n", name: "showPrimary")]?.superview == nil)
        #expect(h.state.controllers["n"]?.properties.splitDisplayMode == .allVisible)
        // Back to portrait: the secondary alone, the button back.
        let back = h.ok(.system(.rotate("main", .portrait)))
        #expect(back.contains("viewDidDisappear(p1)"))
        #expect(back.contains("frameChanged(p2) view=p2 frame=0,0,768,1024 by=n"))
        #expect(h.state.views[ViewID(owner: "n", name: "showPrimary")]?.superview == .root("n"))
    }

    @Test func splitLaysOutCollapsesAndExpands() {
        var h = scene(.split)
        let events = h.ok(.by("n", .setChildren("n", ["p1", "p2"])))
        #expect(events.contains("frameChanged(p1) view=p1 frame=0,0,409.6,768 by=n"))
        #expect(events.contains("frameChanged(p2) view=p2 frame=409.6,0,614.4,768 by=n"))
        #expect(h.appearance("p1") == .appeared && h.appearance("p2") == .appeared)
        // Below 600 points it collapses to the primary; back above, it expands — laid out by the split, as parent.
        let narrow = h.ok(.by("root", .setFrame(.root("n"), Rect(x: 0, y: 0, width: 500, height: 768))))
        #expect(narrow.contains("viewWillDisappear(p2)") && narrow.contains("viewRemoved(p2) view=p2 superview=n"))
        #expect(narrow.contains("frameChanged(p1) view=p1 frame=0,0,500,768 by=n"))
        let wide = h.ok(.by("root", .setFrame(.root("n"), Rect(x: 0, y: 0, width: 1000, height: 768))))
        #expect(wide.contains("viewDidAppear(p2)"))
        #expect(h.ok(.by("n", .setSplitMode("n", .primaryHidden))).contains("viewDidDisappear(p1)"))
        let overlay = h.ok(.by("n", .setSplitMode("n", .primaryOverlay)))
        #expect(overlay.contains("viewDidAppear(p1)"))
        #expect(h.state.views[.root("n")]?.subviews == [.root("p2"), .root("p1")])
        h.fails(.malformed, .by("n", .setChildren("n", ["p1", "p2", "p3"])))
        // A new primary and secondary: the old leave cleanly.
        let swapped = h.ok(.by("n", .setChildren("n", ["p3"])))
        #expect(
            swapped.contains("didMoveToParent(p1) parent=nil") && swapped.contains("didMoveToParent(p2) parent=nil")
        )
        #expect(h.appearance("p3") == .appeared)
    }
}

/// Every container's operations off screen: the containment callbacks, and no appearance at all.
@Suite struct OffScreenContainerTests {
    static let appearance = ["viewWillAppear", "viewDidAppear", "viewWillDisappear", "viewDidDisappear"]

    @Test(arguments: [Kind.navigation, .tab, .menu, .page, .split])
    func noAppearanceOffScreen(kind: Kind) {
        var h = Harness()
        var properties = ControllerProperties()
        properties.pageSequence = ["a", "b", "c"]
        properties.pageTransitionStyle = .scroll
        h.ok(.system(.create("n", kind: kind, properties: properties)))
        h.create("a", "b", "c")
        h.ok(.by("n", .loadView("n")))
        let steps: [Command] =
            switch kind {
            case .navigation: [.push("a", on: "n"), .push("b", on: "n"), .pop("n"), .setStack("n", ["c", "b"])]
            case .tab, .menu: [.setChildren("n", ["a", "b"]), .select("n", .index(1)), .setChildren("n", ["c"])]
            case .page: [.setPages("n", ["a"]), .nextPage("n"), .previousPage("n")]
            default: [.setChildren("n", ["a", "b"]), .setSplitMode("n", .primaryHidden), .setChildren("n", ["c"])]
            }
        var events: [String] = []
        for step in steps { events += h.ok(.by("n", step)) }
        #expect(!events.contains { event in Self.appearance.contains { event.hasPrefix($0) } }, "\(kind): \(events)")
        #expect(
            events.contains { $0.hasPrefix("willMoveToParent") } && events.contains { $0.hasPrefix("didMoveToParent") }
        )
        #expect(["a", "b", "c"].allSatisfy { h.appearance(ControllerID($0)) == .disappeared })
    }

    @Test func aPageContainerCanTakeItsBookFromAnotherController() {
        var h = Harness()
        var book = ControllerProperties()
        book.pageSequence = ["a", "b"]
        h.ok(.system(.create("library", kind: .content, properties: book)))
        var reader = ControllerProperties()
        reader.pageTransitionStyle = .scroll
        reader.pageDataSource = "library"
        h.ok(.system(.create("n", kind: .page, properties: reader)))
        h.create("a", "b")
        h.ok(.by("n", .setPages("n", ["a"])))
        #expect(h.ok(.by("n", .nextPage("n"))).last == "pagesChanged(n) pages=b direction=forward")
    }
}
