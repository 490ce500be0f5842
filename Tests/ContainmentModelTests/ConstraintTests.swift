import ContainmentModel
import Testing

/// SPEC §16: layout by constraints — who may constrain, solving within the command, conflicts, removal with the child.
@Suite struct ConstraintTests {
    /// `container`, the root of window `main` (1024×768) ⊃ `child` embedded at 0,0 320×480; `other` loose.
    func scene() -> Harness {
        var h = Harness()
        h.window(root: "container")
        h.create("child", "other")
        h.embed("child", in: "container")
        return h
    }

    func constraint(_ text: String) throws -> LayoutConstraint { try LayoutConstraint(parsing: text) }

    @Test func theSpellingIsReadAndWrittenBack() throws {
        let c = try constraint("detail.width == 0.5 * nav.width - 10 @750")
        #expect(c.first == LayoutAnchor(.root("detail"), .width))
        #expect(c.second == LayoutAnchor(.root("nav"), .width))
        #expect(c.multiplier == 0.5 && c.constant == -10 && c.priority == 750)
        #expect(c.description == "detail.width == 0.5 * nav.width - 10 @750")
        #expect(try constraint("T/bar.height==49").description == "T/bar.height == 49")
        #expect(try constraint("a.leading >= b.trailing+8").description == "a.leading >= b.trailing + 8")
        #expect(try constraint("a-1.width<=a-2.width-1").description == "a-1.width <= a-2.width - 1")
        for bad in [
            "", "a.width", "a.depth == 1", "a.width == 0 * b.width", "a.width == b.top", "a.width == 1 @0",
            "a.width == 1 @1001", "a.width == 1 extra", "a.width == 1e10",
        ] {
            #expect(throws: ContainmentError.self, "\(bad)") { try constraint(bad) }
        }
    }

    /// Issue 43's container: half the container's width, centered; a window resize moves the child by the solver
    /// within the resize command.
    @Test func aChildAtHalfItsContainersWidthCenteredFollowsAResize() throws {
        var h = scene()
        #expect(
            h.ok(
                .by(
                    "container",
                    .constrain("container", id: "w", try constraint("child.width == 0.5 * container.width"))
                )
            )
                == [
                    "constraintAdded(container) id=w expression=child.width == 0.5 * container.width",
                    "frameChanged(child) view=child frame=0,0,512,480 by=container",
                    "viewWillLayoutSubviews(child)", "viewDidLayoutSubviews(child)",
                ]
        )
        #expect(
            h.ok(
                .by("container", .constrain("container", id: "x", try constraint("child.centerX == container.centerX")))
            )
                == [
                    "constraintAdded(container) id=x expression=child.centerX == container.centerX",
                    "frameChanged(child) view=child frame=256,0,512,480 by=container",
                ]
        )
        let events = h.ok(.system(.resizeWindow("main", size: Size(width: 800, height: 600))))
        #expect(events.contains("frameChanged(child) view=child frame=200,0,400,480 by=container"))
        // Within the container's layout: after its viewWillLayoutSubviews, before its viewDidLayoutSubviews.
        let will = try #require(events.firstIndex(of: "viewWillLayoutSubviews(container)"))
        let moved = try #require(
            events.firstIndex(of: "frameChanged(child) view=child frame=200,0,400,480 by=container")
        )
        let did = try #require(events.firstIndex(of: "viewDidLayoutSubviews(container)"))
        #expect(will < moved && moved < did)
        #expect(h.state.views[.root("child")]?.frame == Rect(x: 200, y: 0, width: 400, height: 480))
    }

    @Test func onlyTheParentConstrainsARootView() throws {
        var h = scene()
        let own = h.fails(
            .frameAuthority,
            .by("child", .constrain("child", id: "k", try constraint("child.width == 100")))
        )
        #expect(own?.message.contains("child's root view is placed by its parent container") == true)
        h.fails(
            .frameAuthority,
            .by("child", .constrain("container", id: "k", try constraint("child.width == 100")))
        )
        h.fails(.frameAuthority, .by("other", .constrain("other", id: "k", try constraint("child.width == 100"))))
        h.fails(
            .foreignView,
            .by("container", .constrain("container", id: "k", try constraint("child/label.width == 100")))
        )
        // The owner's own views, and its root view as the frame of reference, are its own.
        h.ok(.by("child", .addSubview(ViewID(owner: "child", name: "label"), to: .root("child"))))
        h.ok(.by("child", .constrain("child", id: "k", try constraint("child/label.width == child.width - 20"))))
        #expect(h.state.views[ViewID(owner: "child", name: "label")]?.frame.width == 300)
        h.fails(.duplicateID, .by("child", .constrain("child", id: "k", try constraint("child/label.height == 10"))))
    }

    @Test func conflictingRequiredConstraintsAreRefusedNamingBoth() throws {
        var h = scene()
        h.ok(.by("container", .constrain("container", id: "a", try constraint("child.width == 300"))))
        h.ok(.by("container", .constrain("container", id: "b", try constraint("child.height == 200 @500"))))
        let refused = h.fails(
            .unsatisfiableConstraints,
            .by("container", .constrain("container", id: "c", try constraint("child.width >= 0.5 * container.width")))
        )
        #expect(
            refused?.message
                == "Constraint c 'child.width >= 0.5 * container.width' of container cannot hold with a "
                + "'child.width == 300', container.width == 1024 (its frame): required constraints that conflict."
        )
        // A resize its required constraints cannot hold with is refused too.
        h.ok(.by("container", .constrain("container", id: "d", try constraint("child.right <= container.right"))))
        h.ok(.by("container", .constrain("container", id: "e", try constraint("child.left == 200"))))
        h.fails(.unsatisfiableConstraints, .system(.resizeWindow("main", size: Size(width: 400, height: 600))))
        h.ok(.system(.resizeWindow("main", size: Size(width: 600, height: 600))))
    }

    @Test func removingTheChildRemovesItsConstraintsBeforeDidMove() throws {
        var h = scene()
        h.ok(.by("container", .constrain("container", id: "w", try constraint("child.width == 0.5 * container.width"))))
        h.ok(.by("container", .constrain("container", id: "x", try constraint("child.centerX == container.centerX"))))
        let events = h.ok(
            .by("container", .willMove("child", toParent: nil)),
            .by("container", .removeFromParent("child"))
        )
        let removedW = try #require(events.firstIndex(of: "constraintRemoved(container) id=w"))
        let removedX = try #require(events.firstIndex(of: "constraintRemoved(container) id=x"))
        let didMove = try #require(events.firstIndex(of: "didMoveToParent(child) parent=nil"))
        #expect(removedW < removedX && removedX < didMove)
        #expect(h.state.layouts["container"] == nil)
    }

    @Test func unconstrainingLetsTheFrameStayAndOnlyTheOwnerMay() throws {
        var h = scene()
        h.ok(.by("container", .constrain("container", id: "w", try constraint("child.width == 100"))))
        h.fails(.frameAuthority, .by("child", .unconstrain("container", id: "w")))
        h.fails(.malformed, .by("container", .unconstrain("container", id: "nope")))
        #expect(h.ok(.by("container", .unconstrain("container", id: "w"))) == ["constraintRemoved(container) id=w"])
        #expect(h.state.views[.root("child")]?.frame == Rect(x: 0, y: 0, width: 100, height: 480))
    }

    /// A priority holds wholly before a lower one, however the constraints came in.
    @Test func aHigherPriorityHoldsWhollyBeforeALowerOne() throws {
        var h = scene()
        h.ok(.by("container", .constrain("container", id: "low", try constraint("child.width == 200 @250"))))
        h.ok(.by("container", .constrain("container", id: "high", try constraint("child.width == 400 @750"))))
        #expect(h.state.views[.root("child")]?.frame.width == 400)
        h.ok(.by("container", .unconstrain("container", id: "high")))
        #expect(h.state.views[.root("child")]?.frame.width == 200)
    }

    /// A frame set by a command on a view the constraints place is solved again within it: the constraints win.
    @Test func aFrameSetOnAConstrainedViewIsSolvedAgain() throws {
        var h = scene()
        h.ok(.by("container", .constrain("container", id: "w", try constraint("child.width == 100"))))
        let events = h.ok(.by("container", .setFrame(.root("child"), Rect(x: 5, y: 6, width: 300, height: 300))))
        #expect(events.last == "viewDidLayoutSubviews(child)")
        #expect(h.state.views[.root("child")]?.frame == Rect(x: 5, y: 6, width: 100, height: 300))
    }
}
