import ContainmentModel
import Testing

/// SPEC §2: addChild, willMove / didMove, removeFromParent.
@Suite struct ContainmentRuleTests {
    @Test func addChildSendsWillMoveThenAppends() {
        var h = Harness()
        h.create("p", "c")
        #expect(h.ok(.by("p", .addChild("c", to: "p"))) == ["willMoveToParent(c) parent=p", "childAdded(c) parent=p"])
        #expect(h.state.controllers["p"]?.children == ["c"])
        #expect(h.state.controllers["c"]?.parent == "p")
        #expect(h.state.controllers["c"]?.move == .willMove(to: "p"))
    }

    @Test func addingTheSameChildAgainDoesNothing() {
        var h = Harness()
        h.create("p", "c")
        h.ok(.by("p", .addChild("c", to: "p")))
        let before = h.state
        #expect(h.ok(.by("p", .addChild("c", to: "p"))) == [])
        #expect(h.state == before)
    }

    @Test func childrenKeepTheirOrder() {
        var h = Harness()
        h.create("p", "a", "b", "c")
        h.ok(.by("p", .addChild("b", to: "p")), .by("p", .addChild("a", to: "p")), .by("p", .addChild("c", to: "p")))
        #expect(h.state.controllers["p"]?.children == ["b", "a", "c"])
    }

    @Test func reparentingRemovesFromTheOldParentFirst() {
        var h = Harness()
        h.window()
        h.create("other", "c")
        h.embed("other", in: "root", frame: Rect(x: 0, y: 0, width: 500, height: 500))
        h.embed("c", in: "other")
        #expect(h.appearance("c") == .appeared)
        let events = h.ok(.by("root", .addChild("c", to: "root")))
        #expect(
            events == [
                "viewWillDisappear(c) movingFromParent",
                "viewRemoved(c) view=c superview=other",
                "viewDidDisappear(c) movingFromParent",
                "childRemoved(c) parent=other",
                "didMoveToParent(c) parent=nil",
                "willMoveToParent(c) parent=root",
                "childAdded(c) parent=root",
            ]
        )
        #expect(h.state.controllers["other"]?.children == [])
        #expect(h.state.controllers["root"]?.children == ["other", "c"])
    }

    @Test func selfChildCycleAndUnknown() {
        var h = Harness()
        h.create("a", "b", "c")
        h.ok(.by("a", .addChild("b", to: "a")), .by("b", .addChild("c", to: "b")))
        let selfChild = h.fails(.selfChild, .by("a", .addChild("a", to: "a")))
        #expect(selfChild?.message == "a cannot be added as a child of itself.")
        let cycle = h.fails(.cycle, .by("c", .addChild("a", to: "c")))
        #expect(cycle?.message == "a is an ancestor of c; adding it as a child makes a cycle.")
        h.fails(.unknownController, .by("a", .addChild("ghost", to: "a")))
        h.fails(.unknownController, .by("ghost", .addChild("a", to: "ghost")))
    }

    @Test func onlyTheParentAddsChildren() {
        var h = Harness()
        h.create("p", "c", "x")
        let error = h.fails(.unauthorized, .by("x", .addChild("c", to: "p")))
        #expect(error?.message == "x may not add children to p; only p may.")
        h.fails(.unauthorized, .system(.addChild("c", to: "p")))
    }

    @Test func windowRootCannotBecomeAChild() {
        var h = Harness()
        h.window()
        h.create("p")
        h.fails(.hierarchyInconsistency, .by("p", .addChild("root", to: "p")))
    }

    @Test func didMoveNeedsWillMoveSinceAdded() {
        var h = Harness()
        h.create("p", "c", "q")
        h.fails(.notAChild, .by("p", .didMove("c", toParent: "p")))
        h.ok(.by("p", .addChild("c", to: "p")))
        h.fails(.unauthorized, .by("q", .didMove("c", toParent: "p")))
        #expect(h.ok(.by("p", .didMove("c", toParent: "p"))) == ["didMoveToParent(c) parent=p"])
        // A second didMove has no willMove before it.
        let error = h.fails(.outOfOrder, .by("p", .didMove("c", toParent: "p")))
        #expect(
            error?.message == "c has not received willMove(toParent: p) since it was added; didMove is out of order."
        )
        // willMove(nil) then didMove(p) is out of order too.
        h.ok(.by("p", .willMove("c", toParent: nil)))
        h.fails(.outOfOrder, .by("p", .didMove("c", toParent: "p")))
    }

    @Test func willMoveIsIssuedByTheParent() {
        var h = Harness()
        h.create("p", "c", "q")
        h.fails(.notAChild, .by("p", .willMove("c", toParent: nil)))
        h.ok(.by("p", .addChild("c", to: "p")), .by("p", .didMove("c", toParent: "p")))
        h.fails(.notAChild, .by("q", .willMove("c", toParent: nil)))
        h.fails(.notAChild, .by("p", .willMove("c", toParent: "q")))
        #expect(h.ok(.by("p", .willMove("c", toParent: nil))) == ["willMoveToParent(c) parent=nil"])
        h.fails(.outOfOrder, .by("p", .willMove("c", toParent: nil)))
        // An explicit willMove(toParent: p) again re-opens the move, so didMove is in order.
        h.ok(.by("p", .willMove("c", toParent: "p")), .by("p", .didMove("c", toParent: "p")))
    }

    @Test func removeFromParentOfAControllerWithoutParentDoesNothing() {
        var h = Harness()
        h.create("c")
        #expect(h.ok(.by("c", .removeFromParent("c"))) == [])
    }

    @Test func removeFromParentDetachesADanglingRootView() {
        var h = Harness()
        h.window()
        h.create("c")
        h.embed("c", in: "root")
        // The container forgot to remove the view: removeFromParent detaches it, with disappearance.
        let events = h.ok(.by("root", .removeFromParent("c")))
        #expect(
            events == [
                "viewWillDisappear(c) movingFromParent",
                "viewRemoved(c) view=c superview=root",
                "viewDidDisappear(c) movingFromParent",
                "childRemoved(c) parent=root",
                "didMoveToParent(c) parent=nil",
            ]
        )
        #expect(h.state.views[.root("root")]?.subviews == [])
    }

    @Test func theChildMayRemoveItselfButNoOneElse() {
        var h = Harness()
        h.create("p", "c", "x")
        h.ok(.by("p", .addChild("c", to: "p")))
        h.fails(.unauthorized, .by("x", .removeFromParent("c")))
        #expect(
            h.ok(.by("c", .removeFromParent("c"))) == ["childRemoved(c) parent=p", "didMoveToParent(c) parent=nil"]
        )
    }
}

/// A request without an explicit requester acts as the party the rules expect, resolved when it is applied.
@Suite struct NaturalPartyTests {
    @Test func naturalPartiesFollowTheRules() {
        var h = Harness()
        h.window()
        h.create("c")
        let events = h.ok(
            Request(.addChild("c", to: "root"), by: .natural),
            Request(.setFrame(.root("c"), phone), by: .natural),
            Request(.addSubview(.root("c"), to: .root("root")), by: .natural),
            Request(.didMove("c", toParent: "root"), by: .natural)
        )
        #expect(events.contains("frameChanged(c) view=c frame=0,0,320,480 by=root"))
        #expect(h.state.naturalParty(for: .setFrame(.root("root"), phone)) == .window("main"))
        #expect(h.state.naturalParty(for: .setAlpha(.root("c"), 1)) == .controller("c"))
        #expect(h.state.naturalParty(for: .removeFromSuperview(.root("c"))) == .controller("root"))
        #expect(h.state.naturalParty(for: .create("x", kind: .content)) == .system)
        // Resolution happens command by command inside a batch: after removeFromParent, c has no parent.
        let hide = h.ok(
            Request(.willMove("c", toParent: nil), by: .natural),
            Request(.removeFromParent("c"), by: .natural),
            Request(.setFrame(.root("c"), .zero), by: .natural)
        )
        #expect(hide.contains("frameChanged(c) view=c frame=0,0,0,0 by=system"))
        #expect(Party(parsing: "") == .natural)
        #expect(Party(parsing: "window:main") == .window("main"))
    }
}
