import ContainmentModel
import Testing

/// SPEC §1 and §6: creation, lazy loading, layout, memory warnings, windows and size transitions.
@Suite struct LifecycleTests {
    @Test func createAndDestroy() {
        var h = Harness()
        #expect(h.ok(.system(.create("nav", kind: .navigation))) == ["controllerCreated(nav) kind=navigation"])
        #expect(h.state.controllers["nav"]?.properties == ControllerProperties())
        h.fails(.duplicateID, .system(.create("nav", kind: .content)))
        h.fails(.malformed, .system(.create("a/b", kind: .content)))
        h.fails(.malformed, .system(.create("", kind: .content)))
        h.fails(.malformed, .system(.create("a b", kind: .content)))
        h.create("c")
        h.ok(.by("nav", .addChild("c", to: "nav")))
        h.fails(.hierarchyInconsistency, .system(.destroy("nav")))
        h.fails(.unauthorized, .by("c", .destroy("nav")))
        h.ok(.by("nav", .removeFromParent("c")))
        h.ok(.by("c", .loadView("c")))
        #expect(h.ok(.system(.destroy("c"))) == ["controllerDestroyed(c)"])
        #expect(h.state.controllers["c"] == nil)
        #expect(h.state.views[.root("c")] == nil)
        h.fails(.unknownController, .system(.destroy("c")))
    }

    @Test func defaultsFollowSpec() {
        let properties = ControllerProperties()
        #expect(properties.automaticallyForwardsAppearance)
        #expect(properties.automaticallyForwardsSizeTransitions)
        #expect(!properties.definesPresentationContext)
        #expect(!properties.providesPresentationContextTransitionStyle)
        #expect(properties.modalPresentationStyle == .fullScreen)
        #expect(properties.modalTransitionStyle == .coverVertical)
    }

    @Test func theRootViewLoadsOnceOnFirstNeed() {
        var h = Harness()
        h.create("c")
        #expect(!h.state.isViewLoaded("c"))
        #expect(h.ok(.by("c", .loadView("c"))) == ["loadView(c)", "viewDidLoad(c)"])
        #expect(h.ok(.by("c", .loadView("c"))) == [])
        #expect(h.ok(.by("c", .setAlpha(.root("c"), 0.5))) == ["alphaChanged(c) view=c alpha=0.5 by=c"])
    }

    @Test func layoutRunsOnlyWhenTheRootSizeChanges() {
        var h = Harness()
        h.create("p", "c")
        h.embed("c", in: "p")
        #expect(
            h.ok(.by("p", .setFrame(.root("c"), Rect(x: 5, y: 5, width: 320, height: 480))))
                == ["frameChanged(c) view=c frame=5,5,320,480 by=p"]
        )
        #expect(
            h.ok(.by("p", .setFrame(.root("c"), Rect(x: 5, y: 5, width: 100, height: 480))))
                == [
                    "frameChanged(c) view=c frame=5,5,100,480 by=p",
                    "viewWillLayoutSubviews(c)",
                    "viewDidLayoutSubviews(c)",
                ]
        )
        #expect(h.ok(.by("p", .setFrame(.root("c"), Rect(x: 5, y: 5, width: 100, height: 480)))) == [])
        // A subview's size change lays nothing out.
        h.ok(.by("c", .addSubview(ViewID(owner: "c", name: "v"), to: .root("c"))))
        #expect(
            h.ok(.by("c", .setFrame(ViewID(owner: "c", name: "v"), phone))) == [
                "frameChanged(c) view=c/v frame=0,0,320,480 by=c"
            ]
        )
    }

    @Test func memoryWarningUnloadsOnlyWhatIsOffScreen() {
        var h = Harness()
        h.window()
        h.create("shown", "box", "inner")
        h.embed("shown", in: "root")
        h.embed("inner", in: "box")
        h.ok(.by("box", .addSubview(ViewID(owner: "box", name: "label"), to: .root("box"))))
        let events = h.ok(.system(.memoryWarning(nil)))
        #expect(
            events == [
                "didReceiveMemoryWarning(root)",
                "didReceiveMemoryWarning(shown)",
                "didReceiveMemoryWarning(box)",
                "viewRemoved(inner) view=inner superview=box",
                "viewDidUnload(box)",
                "didReceiveMemoryWarning(inner)",
                "viewDidUnload(inner)",
            ]
        )
        #expect(!h.state.isViewLoaded("box"))
        #expect(h.state.views[ViewID(owner: "box", name: "label")] == nil)
        #expect(h.state.isViewLoaded("shown"))
        #expect(h.state.controllers["box"]?.children == ["inner"])
        // They load again on next need.
        #expect(h.ok(.by("box", .loadView("box"))) == ["loadView(box)", "viewDidLoad(box)"])
    }

    @Test func memoryWarningToOneHostsControllers() {
        var h = Harness()
        h.create("a", "b")
        h.ok(.by("a", .loadView("a")), .by("b", .loadView("b")))
        #expect(h.ok(.system(.memoryWarning(["b"]))) == ["didReceiveMemoryWarning(b)", "viewDidUnload(b)"])
        h.fails(.unknownController, .system(.memoryWarning(["ghost"])))
        h.fails(.unauthorized, .by("a", .memoryWarning(nil)))
    }

    @Test func windowsAttachAndResizeWithASizeTransition() {
        var h = Harness()
        h.window()
        h.create("auto", "manual", "deep")
        var manual = ControllerProperties()
        manual.automaticallyForwardsSizeTransitions = false
        h.ok(.system(.create("noSize", kind: .content, properties: manual)))
        h.embed("auto", in: "root")
        h.embed("noSize", in: "root")
        h.embed("deep", in: "noSize")
        let events = h.ok(.system(.resizeWindow("main", size: Size(width: 768, height: 1024))))
        #expect(
            events == [
                "windowResized(root) window=main size=768x1024",
                "viewWillTransitionToSize(root) size=768x1024",
                "viewWillTransitionToSize(auto) size=768x1024",
                "viewWillTransitionToSize(noSize) size=768x1024",
                "frameChanged(root) view=root frame=0,0,768,1024 by=window:main",
                "viewWillLayoutSubviews(root)",
                "viewDidLayoutSubviews(root)",
            ]
        )
        #expect(h.state.windows["main"]?.size == Size(width: 768, height: 1024))
        #expect(h.ok(.system(.resizeWindow("main", size: Size(width: 768, height: 1024)))) == [])
        h.fails(.unknownWindow, .system(.resizeWindow("other", size: Size(width: 1, height: 1))))
        h.fails(.malformed, .system(.resizeWindow("main", size: Size(width: -1, height: 1))))
        h.fails(.unauthorized, .by("root", .resizeWindow("main", size: Size(width: 1, height: 1))))
        h.fails(
            .hierarchyInconsistency,
            .system(.attachWindow("second", root: "auto", size: Size(width: 1, height: 1)))
        )
        h.fails(
            .hierarchyInconsistency,
            .system(.attachWindow("second", root: "root", size: Size(width: 1, height: 1)))
        )
    }
}

@Suite struct IdentifierTests {
    @Test func viewIDsParse() {
        #expect(ViewID(parsing: "c") == .root("c"))
        #expect(ViewID(parsing: "c/label") == ViewID(owner: "c", name: "label"))
        #expect(ViewID(parsing: "c/label")?.description == "c/label")
        for bad in ["", "/x", "c/", "a//b", "a/b/c"] { #expect(ViewID(parsing: bad) == nil, "\(bad)") }
    }
}

@Suite struct NamedValueTests {
    @Test func namesParseOrNameTheChoices() throws {
        #expect(try ModalPresentationStyle.named("formSheet", as: "style") == .formSheet)
        #expect(throws: ContainmentError(.malformed, "Unknown spine \"side\"; one of none, min, mid, max.")) {
            try SpineLocation.named("side", as: "spine")
        }
    }
}
