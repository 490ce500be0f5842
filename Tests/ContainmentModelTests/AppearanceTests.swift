import ContainmentModel
import Testing

/// SPEC §4: the state machine, forwarding, order, on-screen, flags.
@Suite struct AppearanceTests {
    enum Call: String, CaseIterable {
        case beginAppearing, beginDisappearing, end
        var command: Command {
            switch self {
            case .beginAppearing: .beginAppearance("c", appearing: true)
            case .beginDisappearing: .beginAppearance("c", appearing: false)
            case .end: .endAppearance("c")
            }
        }
    }

    /// A controller driven to `state` by explicit calls.
    func controller(in state: AppearanceState) -> Harness {
        var h = Harness()
        h.create("c")
        let path: [Command] =
            switch state {
            case .disappeared: []
            case .appearing: [.beginAppearance("c", appearing: true)]
            case .appeared: [.beginAppearance("c", appearing: true), .endAppearance("c")]
            case .disappearing:
                [.beginAppearance("c", appearing: true), .endAppearance("c"), .beginAppearance("c", appearing: false)]
            }
        for command in path { h.ok(.system(command)) }
        #expect(h.appearance("c") == state)
        return h
    }

    /// Every (state, call) pair of the table: the allowed ones give their callback, the others `unbalancedAppearance`.
    @Test(arguments: AppearanceState.allCases, Call.allCases)
    func stateMachine(state: AppearanceState, call: Call) {
        var h = controller(in: state)
        let expected: (AppearanceState, String)? =
            switch (state, call) {
            case (.disappeared, .beginAppearing), (.disappearing, .beginAppearing): (.appearing, "viewWillAppear(c)")
            case (.appeared, .beginDisappearing), (.appearing, .beginDisappearing):
                (.disappearing, "viewWillDisappear(c)")
            case (.appearing, .end): (.appeared, "viewDidAppear(c)")
            case (.disappearing, .end): (.disappeared, "viewDidDisappear(c)")
            default: nil
            }
        if let (next, callback) = expected {
            #expect(h.ok(.system(call.command)) == [callback])
            #expect(h.appearance("c") == next)
        } else {
            h.fails(.unbalancedAppearance, .system(call.command))
        }
    }

    @Test func cancellationSettlesTheLatestDirection() {
        var h = Harness()
        h.create("c")
        let events = h.ok(
            .system(.beginAppearance("c", appearing: true, animated: true)),
            .system(.beginAppearance("c", appearing: false, animated: true)),
            .system(.endAppearance("c"))
        )
        #expect(events == ["viewWillAppear(c) animated", "viewWillDisappear(c) animated", "viewDidDisappear(c)"])
        #expect(h.appearance("c") == .disappeared)
    }

    @Test func onlyTheDriverCallsBeginAndEnd() {
        var h = Harness()
        h.create("p", "c")
        h.ok(.by("p", .addChild("c", to: "p")))
        let error = h.fails(.unauthorized, .system(.beginAppearance("c", appearing: true)))
        #expect(error?.message == "system may not drive the appearance of c; only its parent p may.")
        h.fails(.unauthorized, .by("c", .beginAppearance("c", appearing: true)))
        h.fails(.unauthorized, .by("c", .beginAppearance("p", appearing: true)))
        h.ok(.by("p", .beginAppearance("c", appearing: true)))
    }

    /// box ⊃ a ⊃ (a1 ⊃ a1x, a2), embedded off screen, with a2's view below a1's: callbacks follow `children`.
    @Test func forwardingIsParentFirstInChildrenOrderDepthFirst() {
        var h = Harness()
        h.window()
        h.create("box", "a", "a1", "a2", "a1x")
        h.embed("a", in: "box")
        h.embed("a1", in: "a")
        h.ok(
            .by("a", .addChild("a2", to: "a")),
            .by("a", .addSubview(.root("a2"), to: .root("a"), at: 0)),
            .by("a", .didMove("a2", toParent: "a"))
        )
        h.embed("a1x", in: "a1")
        #expect(h.state.controllers["a"]?.children == ["a1", "a2"])
        #expect(h.state.views[.root("a")]?.subviews == [.root("a2"), .root("a1")])
        let events = h.ok(
            .by("root", .addChild("box", to: "root")),
            .by("root", .addSubview(.root("box"), to: .root("root")))
        )
        #expect(
            events == [
                "willMoveToParent(box) parent=root",
                "childAdded(box) parent=root",
                "viewWillAppear(box) movingToParent",
                "viewWillAppear(a)",
                "viewWillAppear(a1)",
                "viewWillAppear(a1x)",
                "viewWillAppear(a2)",
                "viewInserted(box) view=box superview=root index=0",
                "viewDidAppear(box) movingToParent",
                "viewDidAppear(a)",
                "viewDidAppear(a1)",
                "viewDidAppear(a1x)",
                "viewDidAppear(a2)",
            ]
        )
        let removal = h.ok(.by("root", .removeFromSuperview(.root("box"))))
        #expect(
            removal == [
                "viewWillDisappear(box) movingToParent",
                "viewWillDisappear(a)",
                "viewWillDisappear(a1)",
                "viewWillDisappear(a1x)",
                "viewWillDisappear(a2)",
                "viewRemoved(box) view=box superview=root",
                "viewDidDisappear(box) movingToParent",
                "viewDidDisappear(a)",
                "viewDidDisappear(a1)",
                "viewDidDisappear(a1x)",
                "viewDidDisappear(a2)",
            ]
        )
    }

    @Test func manualForwardingGivesNoCallbacksOnViewMoves() {
        var h = Harness()
        h.window()
        h.create("manual", properties: .manualAppearance)
        h.create("c", "grandchild")
        h.embed("grandchild", in: "c")
        h.embed("manual", in: "root")
        #expect(h.appearance("manual") == .appeared)
        let events = h.ok(batch: SeedListings.displayContentController("c", in: "manual", frame: phone))
        #expect(
            events == [
                "willMoveToParent(c) parent=manual",
                "childAdded(c) parent=manual",
                "frameChanged(c) view=c frame=0,0,320,480 by=manual",
                "viewWillLayoutSubviews(c)",
                "viewDidLayoutSubviews(c)",
                "viewInserted(c) view=c superview=manual index=0",
                "didMoveToParent(c) parent=manual",
            ]
        )
        #expect(h.appearance("c") == .disappeared)
        // Listing 14-5: the container forwards itself; c auto-forwards to its own child.
        #expect(
            h.ok(.by("manual", .beginAppearance("c", appearing: true, animated: true)))
                == ["viewWillAppear(c) animated", "viewWillAppear(grandchild) animated"]
        )
        #expect(h.ok(.by("manual", .endAppearance("c"))) == ["viewDidAppear(c)", "viewDidAppear(grandchild)"])
        h.fails(.unbalancedAppearance, .by("manual", .endAppearance("c")))
        // When the manual container goes, its child gets nothing automatically.
        let removal = h.ok(.by("root", .removeFromSuperview(.root("manual"))))
        #expect(
            removal == [
                "viewWillDisappear(manual)", "viewRemoved(manual) view=manual superview=root",
                "viewDidDisappear(manual)",
            ]
        )
        #expect(h.appearance("c") == .appeared)
        h.ok(.by("manual", .beginAppearance("c", appearing: false)), .by("manual", .endAppearance("c")))
        #expect(h.appearance("c") == .disappeared)
        #expect(h.appearance("grandchild") == .disappeared)
    }

    @Test func hidingAViewOnThePathTakesControllersOffScreen() {
        var h = Harness()
        h.window()
        h.create("c")
        let wrapper = ViewID(owner: "root", name: "wrapper")
        h.ok(.by("root", .addSubview(wrapper, to: .root("root"))))
        h.embed("c", in: "root", superview: wrapper)
        #expect(h.state.isOnScreen("c"))
        #expect(
            h.ok(.by("root", .setHidden(wrapper, true)))
                == [
                    "viewWillDisappear(c)", "hiddenChanged(root) view=root/wrapper hidden=true by=root",
                    "viewDidDisappear(c)",
                ]
        )
        #expect(!h.state.isOnScreen("c"))
        #expect(
            h.ok(.by("root", .setHidden(wrapper, false)))
                == [
                    "viewWillAppear(c)", "hiddenChanged(root) view=root/wrapper hidden=false by=root",
                    "viewDidAppear(c)",
                ]
        )
        // The child hiding its own root view takes only itself off screen.
        #expect(
            h.ok(.by("c", .setHidden(.root("c"), true)))
                == ["viewWillDisappear(c)", "hiddenChanged(c) view=c hidden=true by=c", "viewDidDisappear(c)"]
        )
    }

    @Test func onScreenNeedsAnAttachedWindow() {
        var h = Harness()
        h.create("root", "c")
        h.embed("c", in: "root")
        #expect(!h.state.isOnScreen("c"))
        let events = h.ok(.system(.attachWindow("main", root: "root", size: Size(width: 320, height: 480))))
        #expect(
            events == [
                "frameChanged(root) view=root frame=0,0,320,480 by=window:main",
                "viewWillLayoutSubviews(root)",
                "viewDidLayoutSubviews(root)",
                "viewWillAppear(root)",
                "viewWillAppear(c)",
                "windowAttached(root) window=main size=320x480",
                "viewDidAppear(root)",
                "viewDidAppear(c)",
            ]
        )
        #expect(h.state.isOnScreen("c"))
    }

    @Test func replacingAWindowsRootSwaps() {
        var h = Harness()
        h.window(root: "first")
        h.create("second")
        let events = h.ok(.system(.attachWindow("main", root: "second", size: Size(width: 1024, height: 768))))
        #expect(
            events == [
                "loadView(second)",
                "viewDidLoad(second)",
                "frameChanged(second) view=second frame=0,0,1024,768 by=window:main",
                "viewWillLayoutSubviews(second)",
                "viewDidLayoutSubviews(second)",
                "viewWillDisappear(first)",
                "viewWillAppear(second)",
                "windowAttached(second) window=main size=1024x768",
                "viewDidDisappear(first)",
                "viewDidAppear(second)",
            ]
        )
    }

    @Test func flagsAreSetOnlyDuringTheMoveThatCausesThem() {
        var h = Harness()
        h.window()
        h.create("c", "gc")
        h.embed("gc", in: "c")
        let events = h.ok(
            .by("root", .addChild("c", to: "root")),
            .by("root", .addSubview(.root("c"), to: .root("root")))
        )
        #expect(events.contains("viewWillAppear(c) movingToParent"))
        #expect(events.contains("viewWillAppear(gc)"))
        h.ok(.by("root", .didMove("c", toParent: "root")))
        // Settled: a later view move carries no move flag.
        #expect(
            h.ok(.by("root", .removeFromSuperview(.root("c"))))
                == [
                    "viewWillDisappear(c)", "viewWillDisappear(gc)", "viewRemoved(c) view=c superview=root",
                    "viewDidDisappear(c)", "viewDidDisappear(gc)",
                ]
        )
    }
}
