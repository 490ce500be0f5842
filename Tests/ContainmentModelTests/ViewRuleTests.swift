import ContainmentModel
import Testing

/// SPEC §3: R1–R5, frame authority, and the rule-violation event.
@Suite struct ViewRuleTests {
    /// root (window) ⊃ p ⊃ c; p owns `p/wrapper`; c owns `c/label`.
    func family() -> Harness {
        var h = Harness()
        h.window()
        h.create("p", "c", "sibling")
        h.embed("p", in: "root", frame: Rect(x: 0, y: 0, width: 800, height: 600))
        h.embed("sibling", in: "root")
        h.ok(.by("p", .addSubview(ViewID(owner: "p", name: "wrapper"), to: .root("p"))))
        h.embed("c", in: "p", superview: ViewID(owner: "p", name: "wrapper"))
        h.ok(.by("c", .addSubview(ViewID(owner: "c", name: "label"), to: .root("c"))))
        return h
    }

    @Test func r1OwnerChangesItsOwnViews() {
        var h = family()
        let label = ViewID(owner: "c", name: "label")
        #expect(
            h.ok(.by("c", .setFrame(label, Rect(x: 1, y: 2, width: 3, height: 4))))
                == ["frameChanged(c) view=c/label frame=1,2,3,4 by=c"]
        )
        #expect(h.ok(.by("c", .setAlpha(label, 0.5))) == ["alphaChanged(c) view=c/label alpha=0.5 by=c"])
        #expect(h.ok(.by("c", .setAlpha(.root("c"), 0.25))) == ["alphaChanged(c) view=c alpha=0.25 by=c"])
        #expect(h.state.views[label]?.frame == Rect(x: 1, y: 2, width: 3, height: 4))
        // Setting the same value again changes nothing and says nothing.
        #expect(h.ok(.by("c", .setAlpha(label, 0.5))) == [])
    }

    @Test func r2OnlyTheParentSetsTheRootFrame() {
        var h = family()
        let frame = Rect(x: 10, y: 10, width: 100, height: 100)
        let own = h.fails(.frameAuthority, .by("c", .setFrame(.root("c"), frame)))
        #expect(own?.message == "Only p may set the frame of c's root view; c may not.")
        h.fails(.frameAuthority, .by("sibling", .setFrame(.root("c"), frame)))
        h.fails(.frameAuthority, .by("root", .setFrame(.root("c"), frame)))
        h.fails(.frameAuthority, .system(.setFrame(.root("c"), frame)))
        #expect(
            h.ok(.by("p", .setFrame(.root("c"), frame)))
                == [
                    "frameChanged(c) view=c frame=10,10,100,100 by=p",
                    "viewWillLayoutSubviews(c)",
                    "viewDidLayoutSubviews(c)",
                ]
        )
        #expect(h.state.views[.root("c")]?.frameSetBy == .controller("p"))
    }

    @Test func r2OnlyTheWindowFramesItsRootAndTheSystemAPresentedOrLooseController() {
        var h = family()
        h.fails(.frameAuthority, .by("root", .setFrame(.root("root"), Rect(x: 0, y: 0, width: 10, height: 10))))
        // A window's root is framed by its window, through a resize: not by the system directly.
        let system = h.fails(
            .frameAuthority,
            .system(.setFrame(.root("root"), Rect(x: 0, y: 0, width: 1024, height: 700)))
        )
        #expect(system?.message == "Only window:main may set the frame of root's root view; system may not.")
        h.ok(.init(.setFrame(.root("root"), Rect(x: 0, y: 0, width: 1024, height: 700)), by: .window("main")))
        h.create("loose")
        h.fails(.frameAuthority, .by("loose", .setFrame(.root("loose"), phone)))
        h.ok(.system(.setFrame(.root("loose"), phone)))
    }

    @Test func r3TheParentMayNotTouchTheChildsOtherProperties() {
        var h = family()
        let alpha = h.fails(.foreignView, .by("p", .setAlpha(.root("c"), 0.5)))
        #expect(alpha?.message == "p may not change the alpha of c: only its owner c may.")
        h.fails(.foreignView, .by("p", .setHidden(.root("c"), true)))
        h.fails(.foreignView, .by("p", .setFrame(ViewID(owner: "c", name: "label"), phone)))
        h.fails(.foreignView, .by("p", .removeFromSuperview(ViewID(owner: "c", name: "label"))))
        h.fails(.foreignView, .by("p", .addSubview(ViewID(owner: "p", name: "badge"), to: .root("c"))))
        // Its own wrapper view is the way (seed 004).
        h.ok(.by("p", .setAlpha(ViewID(owner: "p", name: "wrapper"), 0.5)))
    }

    @Test func r3TheParentMovesTheChildsRootViewBetweenItsOwnViews() {
        var h = family()
        let events = h.ok(.by("p", .addSubview(.root("c"), to: .root("p"))))
        #expect(events == ["viewRemoved(c) view=c superview=p/wrapper", "viewInserted(c) view=c superview=p index=1"])
        #expect(h.appearance("c") == .appeared)
    }

    @Test func r4AChildsRootViewGoesOnlyIntoItsParentsViews() {
        var h = family()
        let error = h.fails(.hierarchyInconsistency, .by("p", .addSubview(.root("c"), to: .root("c"))))
        #expect(error?.message == "child c should have parent p but requested parent is c.")
        h.fails(.hierarchyInconsistency, .by("root", .addSubview(.root("c"), to: .root("root"))))
        h.fails(.hierarchyInconsistency, .by("sibling", .addSubview(.root("c"), to: .root("sibling"))))
    }

    @Test func r5NoForeignViews() {
        var h = family()
        h.create("loose")
        let error = h.fails(.foreignView, .by("p", .addSubview(.root("loose"), to: .root("p"))))
        #expect(error?.message == "p may not insert loose: only its own views and its children's root views.")
        h.fails(.foreignView, .by("p", .addSubview(ViewID(owner: "c", name: "label"), to: .root("p"))))
        h.fails(.foreignView, .by("p", .addSubview(ViewID(owner: "sibling", name: "x"), to: .root("p"))))
        // The child may not place itself, even into its parent's views.
        h.fails(.foreignView, .by("c", .addSubview(.root("c"), to: .root("p"))))
        h.fails(.foreignView, .by("c", .removeFromSuperview(.root("c"))))
        h.fails(.hierarchyInconsistency, .by("p", .addSubview(.root("p"), to: ViewID(owner: "p", name: "wrapper"))))
        h.fails(.hierarchyInconsistency, .by("p", .addSubview(.root("root"), to: .root("p"))))
    }

    @Test func viewCyclesAreRejected() {
        var h = family()
        let wrapper = ViewID(owner: "p", name: "wrapper")
        h.ok(.by("p", .addSubview(ViewID(owner: "p", name: "inner"), to: wrapper)))
        h.fails(.hierarchyInconsistency, .by("p", .addSubview(wrapper, to: ViewID(owner: "p", name: "inner"))))
        h.fails(.hierarchyInconsistency, .by("p", .addSubview(wrapper, to: wrapper)))
    }

    @Test func unknownViewsAndBadValues() {
        var h = family()
        h.fails(.unknownView, .by("c", .setAlpha(ViewID(owner: "c", name: "nothing"), 1)))
        h.fails(.foreignView, .by("p", .setAlpha(ViewID(owner: "c", name: "nothing"), 1)))
        h.fails(.unknownView, .by("p", .removeFromSuperview(ViewID(owner: "p", name: "nothing"))))
        h.fails(.unknownController, .by("p", .setFrame(.root("ghost"), phone)))
        h.fails(.malformed, .by("p", .setFrame(.root("c"), Rect(x: 0, y: 0, width: -1, height: 1))))
        h.fails(.malformed, .by("p", .setFrame(.root("c"), Rect(x: .nan, y: 0, width: 1, height: 1))))
        // Finite but beyond ±1e9 points: no sum of them may overflow (issue 42: a frame at 1e308 was accepted).
        h.fails(.malformed, .by("p", .setFrame(.root("c"), Rect(x: 1e308, y: 0, width: 1, height: 1))))
        h.fails(.malformed, .by("p", .setFrame(.root("c"), Rect(x: 0, y: 0, width: 2e9, height: 1))))
        h.fails(.malformed, .by("c", .setAlpha(.root("c"), 1.5)))
        h.fails(.indexOutOfRange, .by("p", .addSubview(ViewID(owner: "p", name: "new"), to: .root("p"), at: 5)))
    }

    @Test func subviewsInsertAtAnIndex() {
        var h = family()
        let a = ViewID(owner: "p", name: "a")
        #expect(
            h.ok(.by("p", .addSubview(a, to: .root("p"), at: 0))) == ["viewInserted(p) view=p/a superview=p index=0"]
        )
        #expect(h.state.views[.root("p")]?.subviews == [a, ViewID(owner: "p", name: "wrapper")])
        #expect(h.ok(.by("p", .addSubview(a, to: .root("p")))) == ["viewInserted(p) view=p/a superview=p index=1"])
        #expect(h.state.views[.root("p")]?.subviews == [ViewID(owner: "p", name: "wrapper"), a])
        #expect(h.ok(.by("p", .addSubview(a, to: .root("p")))) == [])
    }

    @Test func aRejectionBecomesARuleViolationEvent() {
        var h = family()
        let request = Request.by("c", .setFrame(.root("c"), phone))
        let error = h.fails(.frameAuthority, request)
        guard let error else { return }
        let event = h.state.violation(of: request, error: error)
        #expect(
            event.description
                == "ruleViolation(c) command=set-frame by=c code=frameAuthority message=Only p may set the frame of c's root view; c may not."
        )
        #expect(event.name == "ruleViolation")
    }
}
