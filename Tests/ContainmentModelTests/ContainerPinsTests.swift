import ContainmentModel
import Testing

/// SPEC §16's standard containers laid out by constraints (seed 004): a tab container's transition view pinned to its
/// edges and to its bar, the bar to the bottom with its own height; a navigation container's bar to the top.
@Suite struct ContainerPinsTests {
    let bar = ViewID(owner: "n", name: "bar")

    /// Seed 004: "to change the tab bar's size or position we need not touch the switching code".
    @Test func changingATabBarsHeightReplacesTheTransitionViewAndTheSelectedChild() {
        var h = Harness.containerScene(.tab)
        h.ok(.by("n", .setChildren("n", ["a", "b"])))
        #expect(
            h.state.views[ViewID(owner: "n", name: "transition")]?.frame == Rect(x: 0, y: 0, width: 1024, height: 719)
        )
        #expect(h.state.views[.root("a")]?.superview == ViewID(owner: "n", name: "transition"))
        #expect(
            h.ok(.by("n", .setFrame(bar, Rect(x: 0, y: 0, width: 1024, height: 80)))) == [
                "frameChanged(n) view=n/bar frame=0,0,1024,80 by=n",
                "frameChanged(n) view=n/bar frame=0,688,1024,80 by=n",
                "frameChanged(n) view=n/transition frame=0,0,1024,688 by=n",
                "frameChanged(n) view=n/item-0 frame=0,0,512,80 by=n",
                "frameChanged(n) view=n/item-1 frame=512,0,512,80 by=n",
                "frameChanged(a) view=a frame=0,0,1024,688 by=n",
                "viewWillLayoutSubviews(a)", "viewDidLayoutSubviews(a)",
            ]
        )
        // The switch gives the new selection the transition view's bounds, whatever the bar's height.
        #expect(
            h.ok(.by("n", .select("n", .controller("b")))).filter { $0.hasPrefix("frameChanged") } == [
                "frameChanged(b) view=b frame=0,0,1024,688 by=n"
            ]
        )
    }

    /// The bar keeps its new height through a resize of its container: the constraints place it, its height is its
    /// own.
    @Test func aResizeKeepsTheTabBarsHeight() {
        var h = Harness()
        h.create("root", "a")
        h.ok(.system(.create("n", kind: .tab)))
        h.ok(.system(.attachWindow("main", root: "n", size: Size(width: 1024, height: 768))))
        h.ok(.by("n", .setChildren("n", ["a"])))
        h.ok(.by("n", .setFrame(bar, Rect(x: 0, y: 700, width: 1024, height: 68))))
        let events = h.ok(.system(.resizeWindow("main", size: Size(width: 800, height: 600))))
        #expect(
            events.filter { $0.hasPrefix("frameChanged") } == [
                "frameChanged(n) view=n frame=0,0,800,600 by=window:main",
                "frameChanged(n) view=n/bar frame=0,532,800,68 by=n",
                "frameChanged(n) view=n/transition frame=0,0,800,532 by=n",
                "frameChanged(n) view=n/item-0 frame=0,0,800,68 by=n",
                "frameChanged(a) view=a frame=0,0,800,532 by=n",
            ]
        )
    }

    @Test func changingANavigationBarsHeightMovesTheTopBelowIt() {
        var h = Harness.containerScene(.navigation)
        h.ok(.by("n", .push("a", on: "n")))
        #expect(
            h.ok(.by("n", .setFrame(bar, Rect(x: 0, y: 0, width: 1024, height: 64)))) == [
                "frameChanged(n) view=n/bar frame=0,0,1024,64 by=n",
                "frameChanged(a) view=a frame=0,64,1024,704 by=n",
                "viewWillLayoutSubviews(a)", "viewDidLayoutSubviews(a)",
            ]
        )
        // A bar moved off the top goes back: the constraints hold it there.
        #expect(
            h.ok(.by("n", .setFrame(bar, Rect(x: 10, y: 10, width: 500, height: 64)))) == [
                "frameChanged(n) view=n/bar frame=10,10,500,64 by=n",
                "frameChanged(n) view=n/bar frame=0,0,1024,64 by=n",
            ]
        )
        #expect(h.ok(.by("n", .push("b", on: "n"))).contains("frameChanged(b) view=b frame=0,64,1024,704 by=n"))
    }

    /// The container's own constraints are its own: no code removes them, no constraint of its may take their ids,
    /// and one that contradicts them is refused naming them.
    @Test func theContainersOwnConstraintsAreItsOwn() {
        var h = Harness.containerScene(.tab)
        h.ok(.by("n", .setChildren("n", ["a"])))
        h.fails(.frameAuthority, .by("n", .unconstrain("n", id: "@bar.bottom")))
        let height = LayoutConstraint(LayoutAnchor(bar, .height), .equal, constant: 100)
        h.fails(.malformed, .by("n", .constrain("n", id: "@mine", height)))
        let shifted = LayoutConstraint(LayoutAnchor(ViewID(owner: "n", name: "transition"), .top), .equal, constant: 10)
        let error = h.fails(.unsatisfiableConstraints, .by("n", .constrain("n", id: "shifted", shifted)))
        #expect(
            error?.message.contains("@transition.top 'n/transition.top == n.top'") == true,
            "\(String(describing: error))"
        )
        // A constraint of the container's code on its bar works with them: a taller bar by constraint.
        let events = h.ok(.by("n", .constrain("n", id: "tall", height)))
        #expect(events.first == "constraintAdded(n) id=tall expression=n/bar.height == 100")
        #expect(events.contains("frameChanged(n) view=n/transition frame=0,0,1024,668 by=n"))
        #expect(events.contains("frameChanged(a) view=a frame=0,0,1024,668 by=n"))
        // The tree lists the code's constraints, not the container's own.
        #expect(h.state.layouts["n"]?.entries.filter { !$0.isContainers }.map(\.id) == ["tall"])
    }

    /// Until something could bend them, a container places its bar and content as the pins' solution without a
    /// solver: the same frames as a container whose pins are in its layout, through resizes down to nothing and back.
    @Test(arguments: [Kind.tab, .navigation])
    func anUnpinnedContainerPlacesItsViewsAsItsPinsWould(kind: Kind) {
        func scene(pinned: Bool) -> Harness {
            var h = Harness()
            h.create("a")
            h.ok(.system(.create("n", kind: kind)))
            h.ok(.system(.attachWindow("main", root: "n", size: Size(width: 1024, height: 768))))
            h.ok(kind == .tab ? .by("n", .setChildren("n", ["a"])) : .by("n", .push("a", on: "n")))
            if pinned, let frame = h.state.views[bar]?.frame {
                // The bar given the frame it has: nothing moves, and the pins join the layout.
                #expect(h.ok(.by("n", .setFrame(bar, frame))) == [])
                #expect(h.state.layouts["n"]?.entries.allSatisfy(\.isContainers) == true)
            }
            return h
        }
        var plain = scene(pinned: false)
        var pinned = scene(pinned: true)
        #expect(plain.state.layouts["n"] == nil)
        let views = [bar, ViewID(owner: "n", name: "transition"), .root("a")]
        for size in [
            Size(width: 800, height: 600), Size(width: 300, height: 40), Size(width: 10, height: 0),
            Size(width: 1024, height: 768),
        ] {
            let resize = Request.system(.resizeWindow("main", size: size))
            #expect(plain.ok(resize) == pinned.ok(resize), "\(size)")
            #expect(
                views.map { plain.state.views[$0]?.frame } == views.map { pinned.state.views[$0]?.frame },
                "\(size)"
            )
        }
    }

    /// A constraint of the tab's code on its own view before it shows a child: its own constraints join when its bar
    /// and transition view come, and a taller bar by its frame then moves the content.
    @Test func theContainersPinsJoinConstraintsItsCodeAddedFirst() {
        var h = Harness.containerScene(.tab)
        let badge = ViewID(owner: "n", name: "badge")
        h.ok(.by("n", .addSubview(badge, to: .root("n"))))
        h.ok(
            .by("n", .constrain("n", id: "badge", LayoutConstraint(LayoutAnchor(badge, .width), .equal, constant: 20)))
        )
        #expect(h.state.layouts["n"]?.entries.map(\.id) == ["badge"])
        h.ok(.by("n", .setChildren("n", ["a"])))
        #expect(h.state.layouts["n"]?.entries.filter(\.isContainers).count == 8)
        let events = h.ok(.by("n", .setFrame(bar, Rect(x: 0, y: 0, width: 1024, height: 100))))
        #expect(events.contains("frameChanged(a) view=a frame=0,0,1024,668 by=n"), "\(events)")
    }
}
