import ContainmentModel
import Testing

/// SPEC §7: present and dismiss, contexts, styles, chains, flags.
@Suite struct PresentationTests {
    /// root (window 1024×768) ⊃ c embedded; v and w loose.
    func scene(width: Double = 1024) -> Harness {
        var h = Harness()
        h.create("root")
        h.ok(.system(.attachWindow("main", root: "root", size: Size(width: width, height: 768))))
        h.create("c", "v", "w", "x")
        h.embed("c", in: "root")
        return h
    }

    @Test func fullScreenHidesTheContextInPresentationOrder() {
        var h = scene()
        // Animated (SPEC §13): the will callbacks at the command, the did ones when the timed transition completes.
        let events = h.ok(.by("c", .present("v", on: "c", animated: true)))
        #expect(
            events == [
                "loadView(v)",
                "viewDidLoad(v)",
                "frameChanged(v) view=v frame=0,0,1024,768 by=system",
                "viewWillLayoutSubviews(v)",
                "viewDidLayoutSubviews(v)",
                "transitionBegan(root) from=root to=v",
                "viewWillDisappear(root) animated",
                "viewWillDisappear(c) animated",
                "viewWillAppear(v) animated beingPresented",
            ]
        )
        #expect(h.state.transitions.map(\.duration) == [0.35])
        h.fails(.transitionInProgress, .by("c", .dismiss("v")))
        #expect(
            h.ok(.by("root", .completeTransition(in: "root", from: "root", to: "v"))) == [
                "viewDidAppear(v) animated beingPresented",
                "viewDidDisappear(root) animated",
                "viewDidDisappear(c) animated",
                "transitionCompleted(root) from=root to=v",
                "presented(v) presenter=c context=root style=fullScreen transitionStyle=coverVertical",
            ]
        )
        #expect(h.state.controllers["v"]?.presenting == "root")
        #expect(h.state.controllers["root"]?.presented == "v")
        #expect(h.state.presentedAbove("c") == "v")
        #expect(h.state.isOnScreen("v") && !h.state.isOnScreen("c"))
        let dismissal = h.ok(.by("c", .dismiss("v", animated: true)))
        #expect(
            dismissal == [
                "transitionBegan(root) from=v to=root",
                "viewWillDisappear(v) animated beingDismissed",
                "viewWillAppear(root) animated",
                "viewWillAppear(c) animated",
            ]
        )
        // Until it completes, v is still presented, in its place.
        #expect(h.state.controllers["root"]?.presented == "v" && h.state.isOnScreen("v"))
        #expect(
            h.ok(.by("root", .completeTransition(in: "root", from: "v", to: "root"))) == [
                "viewDidDisappear(v) animated beingDismissed",
                "viewDidAppear(root) animated",
                "viewDidAppear(c) animated",
                "transitionCompleted(root) from=v to=root",
                "dismissed(v) presenter=c context=root style=fullScreen transitionStyle=coverVertical",
            ]
        )
        #expect(h.state.controllers["v"]?.presenting == nil)
        #expect(h.state.controllers["root"]?.presented == nil)
        #expect(h.state.presentations.isEmpty)
    }

    @Test func aFormSheetLeavesThePresenterAppeared() {
        var h = scene()
        let events = h.ok(.by("root", .present("v", on: "root", style: .formSheet)))
        #expect(events.contains("frameChanged(v) view=v frame=242,74,540,620 by=system"))
        #expect(
            Array(events.suffix(3)) == [
                "viewWillAppear(v) beingPresented",
                "viewDidAppear(v) beingPresented",
                "presented(v) presenter=root context=root style=formSheet transitionStyle=coverVertical",
            ]
        )
        #expect(h.appearance("root") == .appeared && h.appearance("c") == .appeared && h.appearance("v") == .appeared)
        // A resize keeps it centred.
        let resize = h.ok(.system(.resizeWindow("main", size: Size(width: 1366, height: 1024))))
        #expect(resize.contains("frameChanged(v) view=v frame=413,202,540,620 by=system"))
    }

    @Test func aSheetFallsBackToFullScreenInANarrowWindow() {
        var h = scene(width: 768)
        let events = h.ok(.by("root", .present("v", on: "root", style: .pageSheet)))
        #expect(events.contains("frameChanged(v) view=v frame=0,0,768,768 by=system"))
        #expect(events.contains("viewDidDisappear(root)"))
        #expect(h.appearance("root") == .disappeared)
    }

    @Test func currentContextCoversOnlyTheContainerThatDefinesIt() {
        var h = Harness()
        h.create("root")
        h.ok(.system(.attachWindow("main", root: "root", size: Size(width: 1024, height: 768))))
        var definer = ControllerProperties()
        definer.definesPresentationContext = true
        definer.providesPresentationContextTransitionStyle = true
        definer.modalTransitionStyle = .crossDissolve
        h.ok(.system(.create("context", kind: .content, properties: definer)))
        h.create("inner", "side", "v")
        h.embed("context", in: "root", frame: Rect(x: 100, y: 50, width: 400, height: 300))
        h.embed("side", in: "root", frame: Rect(x: 600, y: 0, width: 100, height: 100))
        h.embed("inner", in: "context")
        let events = h.ok(.by("inner", .present("v", on: "inner", style: .currentContext)))
        #expect(
            Array(events.dropFirst(5)) == [
                "viewWillDisappear(context)",
                "viewWillDisappear(inner)",
                "viewWillAppear(v) beingPresented",
                "viewDidAppear(v) beingPresented",
                "viewDidDisappear(context)",
                "viewDidDisappear(inner)",
                "presented(v) presenter=inner context=context style=currentContext transitionStyle=crossDissolve",
            ]
        )
        #expect(events.contains("frameChanged(v) view=v frame=100,50,400,300 by=system"))
        #expect(h.appearance("root") == .appeared && h.appearance("side") == .appeared)
        #expect(h.state.presentedAbove("inner") == "v" && h.state.presentedAbove("side") == nil)
    }

    /// root presents a, a presents b, b presents x; dismissing from the middle (a) takes b and x away, top-most
    /// first; only the lowest dismissed (b, covered) and the context (a) swap.
    @Test func aChainOfThreeDismissedFromTheMiddle() {
        var h = scene()
        h.create("a", "b")
        h.ok(
            .by("root", .present("a", on: "root")),
            .by("a", .present("b", on: "a")),
            .by("b", .present("x", on: "b"))
        )
        #expect(h.appearance("x") == .appeared)
        #expect(
            [h.appearance("root"), h.appearance("a"), h.appearance("b")] == [.disappeared, .disappeared, .disappeared]
        )
        let events = h.ok(.by("a", .dismiss("a", animated: true)))
        #expect(
            events == [
                "viewWillDisappear(x) beingDismissed",
                "viewDidDisappear(x) beingDismissed",
                "dismissed(x) presenter=b context=b style=fullScreen transitionStyle=coverVertical",
                "transitionBegan(a) from=b to=a",
                "viewWillAppear(a) animated",
            ]
        )
        #expect(
            h.ok(.by("a", .completeTransition(in: "a", from: "b", to: "a"))) == [
                "viewDidAppear(a) animated",
                "transitionCompleted(a) from=b to=a",
                "dismissed(b) presenter=a context=a style=fullScreen transitionStyle=coverVertical",
            ]
        )
        #expect(h.state.controllers["a"]?.presented == nil)
        #expect(h.state.controllers["a"]?.presenting == "root")
        // Dismissing the presented controller itself goes through its presenter.
        let last = h.ok(.by("a", .dismiss("a")))
        #expect(last.first == "viewWillDisappear(a) beingDismissed")
        #expect(last.contains("viewDidAppear(root)") && last.contains("viewDidAppear(c)"))
    }

    /// SPEC §7: a presentation from inside a presented controller takes the top of the chain standing over the
    /// presenter as its context — the presented controller whose tree holds it — not the window's root.
    @Test func aPresentationFromInsideAPresentedControllerTakesTheTopOfTheChain() {
        var h = scene()
        h.create("a", "b", "k")
        h.ok(.by("root", .present("a", on: "root", style: .overFullScreen)), .by("a", .present("b", on: "a")))
        h.embed("k", in: "b")
        let events = h.ok(.by("k", .present("x", on: "k", style: .formSheet)))
        #expect(events.last == "presented(x) presenter=k context=b style=formSheet transitionStyle=coverVertical")
        #expect(h.state.controllers["b"]?.presented == "x" && h.state.controllers["x"]?.presenting == "b")
        #expect(h.state.presentedAbove("k") == "x")
        // Dismissing from the presenter inside the chain takes only its own presentation away.
        let dismissal = h.ok(.by("k", .dismiss("k")))
        #expect(dismissal.last == "dismissed(x) presenter=k context=b style=formSheet transitionStyle=coverVertical")
        #expect(h.state.controllers["a"]?.presented == "b")
    }

    @Test func rejections() {
        var h = scene()
        h.fails(.presentSelf, .by("c", .present("c", on: "c")))
        h.fails(.unauthorized, .by("root", .present("v", on: "c")))
        h.fails(.presentedHasParent, .by("root", .present("c", on: "root")))
        h.fails(.hierarchyInconsistency, .by("c", .present("root", on: "c")))
        h.fails(.presenterNotInWindow, .by("w", .present("v", on: "w")))
        h.fails(.nothingToDismiss, .by("c", .dismiss("c")))
        h.ok(.by("c", .present("v", on: "c")))
        let again = h.fails(.alreadyPresenting, .by("c", .present("w", on: "c")))
        #expect(again?.message == "Attempt to present w on c which is already presenting v.")
        h.fails(.alreadyPresented, .by("w", .present("v", on: "w")))
        h.fails(.presentedHasParent, .by("w", .addChild("v", to: "w")))
        h.fails(.unauthorized, .by("w", .dismiss("v")))
        h.fails(.hierarchyInconsistency, .system(.destroy("v")))
        h.fails(.hierarchyInconsistency, .by("v", .present("root", on: "v")))
        // The presented controller may present further: a chain.
        h.ok(.by("v", .present("w", on: "v")))
        #expect(h.state.presentedAbove("v") == "w")
    }

    @Test func aCoveredContextKeepsItsViewsOnAMemoryWarning() {
        var h = scene()
        h.ok(.by("root", .present("v", on: "root")))
        let events = h.ok(.system(.memoryWarning(nil)))
        #expect(!events.contains { $0.hasPrefix("viewDidUnload") })
        #expect(h.state.isViewLoaded("c"))
    }
}

@Suite struct PresentationLoopTests {
    /// A presented controller may not take in the subtree its presentation stands on: that would place each over
    /// the other.
    @Test func addingTheContextsAncestorUnderThePresentedIsACycle() {
        var h = Harness()
        h.create("root")
        h.ok(.system(.attachWindow("main", root: "root", size: Size(width: 1024, height: 768))))
        var definer = ControllerProperties()
        definer.definesPresentationContext = true
        h.create("p", "v")
        h.ok(.system(.create("k", kind: .content, properties: definer)))
        h.embed("p", in: "root")
        h.embed("k", in: "p")
        h.ok(.by("k", .present("v", on: "k", style: .currentContext)))
        h.ok(.by("root", .removeFromParent("p")))
        #expect(!h.state.isOnScreen("v"))
        let error = h.fails(.cycle, .by("v", .addChild("p", to: "v")))
        #expect(error?.message == "v is presented over p's subtree; adding p under it makes a presentation loop.")
    }
}
