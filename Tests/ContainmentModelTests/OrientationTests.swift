import ContainmentModel
import Testing

/// SPEC §13: rotation decided by the right controller, and size transitions a container forwards by hand.
@Suite struct OrientationTests {
    /// root (window main, 1024×768) ⊃ c (embedded); v loose.
    func scene() -> Harness {
        var h = Harness()
        h.window()
        h.create("c", "v")
        h.embed("c", in: "root")
        return h
    }

    @Test func aWindowStartsInTheOrientationItsSizeSuggests() {
        var h = scene()
        #expect(h.state.windows["main"]?.orientation == .landscapeLeft)
        h.create("tall")
        h.ok(.system(.attachWindow("phone", root: "tall", size: Size(width: 320, height: 480))))
        #expect(h.state.windows["phone"]?.orientation == .portrait)
    }

    @Test func rotatingBetweenLandscapeAndPortraitSwapsTheSize() {
        var h = scene()
        let events = h.ok(.system(.rotate("main", .portrait)))
        #expect(
            events.prefix(4) == [
                "orientationChanged(root) window=main orientation=portrait",
                "windowResized(root) window=main size=768x1024",
                "viewWillTransitionToSize(root) size=768x1024",
                "viewWillTransitionToSize(c) size=768x1024",
            ]
        )
        #expect(events.contains("frameChanged(root) view=root frame=0,0,768,1024 by=window:main"))
        #expect(h.state.windows["main"]?.orientation == .portrait)
        #expect(h.state.windows["main"]?.size == Size(width: 768, height: 1024))
        // The same orientation again: nothing.
        #expect(h.ok(.system(.rotate("main", .portrait))) == [])
        // A resize is not a rotation: the orientation stays; a rotation then gives the window the shape it names.
        h.ok(.system(.resizeWindow("main", size: Size(width: 1000, height: 600))))
        #expect(h.state.windows["main"]?.orientation == .portrait)
        let back = h.ok(.system(.rotate("main", .landscapeRight)))
        #expect(back.first == "orientationChanged(root) window=main orientation=landscapeRight")
        #expect(!back.contains { $0.hasPrefix("windowResized") })
        h.ok(.system(.rotate("main", .portrait)))
        #expect(h.state.windows["main"]?.size == Size(width: 600, height: 1000))
    }

    @Test func rotatingBetweenTheTwoLandscapesKeepsTheSize() {
        var h = scene()
        let events = h.ok(.system(.rotate("main", .landscapeRight)))
        #expect(
            events == [
                "orientationChanged(root) window=main orientation=landscapeRight",
                "viewWillTransitionToSize(root) size=1024x768",
                "viewWillTransitionToSize(c) size=1024x768",
            ]
        )
    }

    @Test func anUnsupportedOrientationIsRefused() {
        var h = scene()
        let upsideDown = h.fails(.unsupportedOrientation, .system(.rotate("main", .portraitUpsideDown)))
        #expect(
            upsideDown?.message
                == "root decides the orientation of window main and does not support portraitUpsideDown; it supports"
                + " portrait, landscapeLeft, landscapeRight."
        )
        h.fails(.unauthorized, .by("root", .rotate("main", .portrait)))
        h.fails(.unknownWindow, .system(.rotate("side", .portrait)))
        h.ok(.by("root", .setProperties("root", [.supportedOrientations(Set(Orientation.allCases))])))
        h.ok(.system(.rotate("main", .portraitUpsideDown)))
    }

    /// The top-most presented controller covering the window decides; a sheet that does not cover it does not.
    @Test func theTopMostFullScreenPresentationDecides() {
        var h = scene()
        h.create("sheet")
        h.ok(.by("v", .setProperties("v", [.supportedOrientations([.portrait])])))
        h.ok(.by("c", .present("sheet", on: "c", style: .formSheet)))
        #expect(h.state.windows["main"].map(h.state.orientationDecider) == "root")
        h.ok(.by("sheet", .present("v", on: "sheet", style: .overFullScreen)))
        #expect(h.state.windows["main"].map(h.state.orientationDecider) == "v")
        let refused = h.fails(.unsupportedOrientation, .system(.rotate("main", .landscapeRight)))
        #expect(refused?.message.hasPrefix("v decides the orientation of window main") == true)
        h.ok(.system(.rotate("main", .portrait)))
        // Dismissed, it no longer decides.
        h.ok(.by("sheet", .dismiss("v")))
        h.ok(.system(.rotate("main", .landscapeRight)))
    }

    /// A container that turned automatic forwarding off forwards the size transition to a child itself.
    @Test func aManualContainerForwardsTheSizeTransition() {
        var h = Harness()
        h.window()
        var manual = ControllerProperties()
        manual.automaticallyForwardsSizeTransitions = false
        h.create("box", properties: manual)
        h.create("inner", "leaf")
        h.embed("box", in: "root")
        h.embed("inner", in: "box")
        h.embed("leaf", in: "inner")
        let resize = h.ok(.system(.resizeWindow("main", size: Size(width: 800, height: 600))))
        #expect(
            resize.filter { $0.hasPrefix("viewWillTransitionToSize") } == [
                "viewWillTransitionToSize(root) size=800x600", "viewWillTransitionToSize(box) size=800x600",
            ]
        )
        let forwarded = h.ok(
            .by("box", .forwardSizeTransition("box", child: "inner", size: Size(width: 400, height: 600)))
        )
        #expect(
            forwarded == [
                "viewWillTransitionToSize(inner) size=400x600", "viewWillTransitionToSize(leaf) size=400x600",
            ]
        )
        h.fails(
            .unauthorized,
            .by("root", .forwardSizeTransition("box", child: "inner", size: Size(width: 1, height: 1)))
        )
        h.fails(.notAChild, .by("box", .forwardSizeTransition("box", child: "leaf", size: Size(width: 1, height: 1))))
        h.fails(
            .unknownController,
            .by("box", .forwardSizeTransition("box", child: "ghost", size: Size(width: 1, height: 1)))
        )
        h.fails(.malformed, .by("box", .forwardSizeTransition("box", child: "inner", size: Size(width: -1, height: 1))))
    }
}
