import ContainmentModel
import Testing

/// SPEC §5: transition between two children.
@Suite struct TransitionTests {
    /// root (window) with children a (embedded) and b (added, not embedded).
    func pair(properties: ControllerProperties = ControllerProperties()) -> Harness {
        var h = Harness()
        h.window(properties: properties)
        h.create("a", "b", "stranger")
        h.embed("a", in: "root")
        h.ok(.by("root", .addChild("b", to: "root")))
        return h
    }

    @Test func instantTransitionSwapsInOneStep() {
        var h = pair()
        let events = h.ok(.by("root", .transition(in: "root", from: "a", to: "b", frame: phone)))
        #expect(
            events == [
                "transitionBegan(root) from=a to=b",
                "loadView(b)",
                "viewDidLoad(b)",
                "frameChanged(b) view=b frame=0,0,320,480 by=root",
                "viewWillLayoutSubviews(b)",
                "viewDidLayoutSubviews(b)",
                "viewWillDisappear(a)",
                "viewWillAppear(b) movingToParent",
                "viewInserted(b) view=b superview=root index=1",
                "viewRemoved(a) view=a superview=root",
                "viewDidDisappear(a)",
                "viewDidAppear(b) movingToParent",
                "transitionCompleted(root) from=a to=b",
            ]
        )
        #expect(h.state.views[.root("root")]?.subviews == [.root("b")])
    }

    @Test func theNewViewGoesBesideTheOld() {
        var h = pair()
        h.ok(.by("root", .addSubview(ViewID(owner: "root", name: "overlay"), to: .root("root"))))
        h.ok(.by("root", .transition(in: "root", from: "a", to: "b", duration: 1)))
        #expect(
            h.state.views[.root("root")]?.subviews == [.root("a"), .root("b"), ViewID(owner: "root", name: "overlay")]
        )
        #expect(h.appearance("a") == .disappearing)
        #expect(h.appearance("b") == .appearing)
        #expect(
            h.state.transitions == [
                RunningTransition(parent: "root", from: "a", to: "b", duration: 1, appearing: ["b"])
            ]
        )
        let end = h.ok(.by("root", .completeTransition(in: "root", from: "a", to: "b")))
        #expect(
            end == [
                "viewRemoved(a) view=a superview=root",
                "viewDidDisappear(a) animated",
                "viewDidAppear(b) animated movingToParent",
                "transitionCompleted(root) from=a to=b",
            ]
        )
        #expect(h.state.transitions.isEmpty)
    }

    @Test func rejections() {
        var h = pair()
        let common = h.fails(.noCommonParent, .by("root", .transition(in: "root", from: "a", to: "stranger")))
        #expect(
            common?.message
                == "Children view controllers a and stranger must have a common parent view controller when calling transition (root)."
        )
        h.fails(.sameController, .by("root", .transition(in: "root", from: "a", to: "a")))
        h.fails(.notInHierarchy, .by("root", .transition(in: "root", from: "b", to: "a")))
        h.fails(.unauthorized, .by("a", .transition(in: "root", from: "a", to: "b")))
        h.fails(.unknownController, .by("root", .transition(in: "root", from: "a", to: "ghost")))
        h.fails(.malformed, .by("root", .transition(in: "root", from: "a", to: "b", duration: -1)))
        h.fails(.outOfOrder, .by("root", .completeTransition(in: "root", from: "a", to: "b")))
        h.create("c")
        h.ok(.by("root", .addChild("c", to: "root")))
        h.ok(.by("root", .transition(in: "root", from: "a", to: "b", duration: 0.3)))
        h.fails(.transitionInProgress, .by("root", .transition(in: "root", from: "b", to: "c")))
        h.fails(.transitionInProgress, .by("root", .transition(in: "root", from: "a", to: "c")))
        h.fails(.transitionInProgress, .by("root", .removeFromParent("a")))
    }

    @Test func offScreenTransitionHasNoAppearance() {
        var h = Harness()
        h.create("p", "a", "b")
        h.embed("a", in: "p")
        h.ok(.by("p", .addChild("b", to: "p")))
        let events = h.ok(.by("p", .transition(in: "p", from: "a", to: "b")))
        #expect(
            events == [
                "transitionBegan(p) from=a to=b",
                "loadView(b)",
                "viewDidLoad(b)",
                "viewInserted(b) view=b superview=p index=1",
                "viewRemoved(a) view=a superview=p",
                "transitionCompleted(p) from=a to=b",
            ]
        )
    }

    @Test func manualContainerTransitionLeavesAppearanceToIt() {
        var h = pair(properties: .manualAppearance)
        let events = h.ok(.by("root", .transition(in: "root", from: "a", to: "b")))
        #expect(!events.contains { $0.contains("Appear") || $0.contains("Disappear") })
        #expect(events.first == "transitionBegan(root) from=a to=b")
        #expect(events.last == "transitionCompleted(root) from=a to=b")
    }
}

@Suite struct TransitionPresentationTests {
    /// The incoming child carries a presentation standing on it: the presented controller appears with it, and the
    /// transition's completion ends its appearance too (found by the randomized test).
    @Test func aPresentationOnTheIncomingChildAppearsWithIt() {
        var h = Harness()
        h.window()
        var definer = ControllerProperties()
        definer.definesPresentationContext = true
        h.ok(.system(.create("b", kind: .content, properties: definer)))
        h.create("p", "a", "v")
        h.embed("p", in: "root")
        h.embed("a", in: "p")
        h.embed("b", in: "p")
        h.ok(.by("b", .present("v", on: "b", style: .currentContext)))
        h.ok(.by("p", .removeFromSuperview(.root("b"))), .by("p", .removeFromSuperview(.root("a"))))
        h.ok(.by("p", .addSubview(.root("a"), to: .root("p"))))
        #expect(h.appearance("v") == .disappeared)
        let events = h.ok(.by("p", .transition(in: "p", from: "a", to: "b")))
        #expect(events.contains("viewWillAppear(v)") && events.contains("viewDidAppear(v)"))
        #expect(!events.contains { $0.hasPrefix("viewWillAppear(b)") })
        #expect(h.appearance("v") == .appeared && h.appearance("b") == .disappeared)
        #expect(h.state.isOnScreen("v") && !h.state.isOnScreen("b"))
    }
}
