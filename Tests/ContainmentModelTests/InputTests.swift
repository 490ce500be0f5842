import ContainmentModel
import Testing

/// SPEC §12: the hit test, the responder chain, actions, the menu's own input (seed 004), and the popover (§13).
@Suite struct InputTests {
    /// root (window main 1024×768) ⊃ c embedded at 100,100 (400×300) with its own view c/button at 10,10 (50×50);
    /// v, w loose.
    func scene(handles: [String] = ["tap"]) -> Harness {
        var h = Harness()
        h.window()
        var properties = ControllerProperties()
        properties.handles = handles
        h.create("c", properties: properties)
        h.create("v", "w")
        h.embed("c", in: "root", frame: Rect(x: 100, y: 100, width: 400, height: 300))
        h.ok(
            .by("c", .addSubview(ViewID(owner: "c", name: "button"), to: .root("c"))),
            .by("c", .setFrame(ViewID(owner: "c", name: "button"), Rect(x: 10, y: 10, width: 50, height: 50)))
        )
        return h
    }

    func tap(_ x: Double, _ y: Double, kind: String = "tap") -> Request {
        .system(.input("main", at: Point(x: x, y: y), kind: kind))
    }

    @Test func theDeepestViewIsHitAndTheFirstHandlerOnTheChainReceivesIt() {
        var h = scene()
        #expect(
            h.ok(tap(120, 125)) == [
                "inputDelivered(c) window=main point=120,125 kind=tap view=c/button chain=c",
                "inputReceived(c) kind=tap point=20,25 view=c/button",
            ]
        )
        // Nobody handles a kind: delivered to no one, every controller walked, no callback.
        #expect(
            h.ok(tap(120, 125, kind: "pinch")) == [
                "inputDelivered(-) window=main point=120,125 kind=pinch view=c/button chain=c,root"
            ]
        )
        // Outside c (the edge is outside: half-open), the window's root.
        #expect(
            h.ok(tap(500, 150, kind: "pinch")) == [
                "inputDelivered(-) window=main point=500,150 kind=pinch view=root chain=root"
            ]
        )
        #expect(h.ok(tap(499.5, 399.5, kind: "pinch")).first?.contains("view=c chain=c,root") == true)
    }

    @Test func hiddenAndTransparentViewsAreSkippedAndTheFrontMostWins() {
        var h = scene()
        let button = ViewID(owner: "c", name: "button")
        let cover = ViewID(owner: "c", name: "cover")
        h.ok(
            .by("c", .addSubview(cover, to: .root("c"))),
            .by("c", .setFrame(cover, Rect(x: 0, y: 0, width: 100, height: 100)))
        )
        #expect(h.ok(tap(120, 125)).first?.contains("view=c/cover") == true)
        h.ok(.by("c", .setAlpha(cover, 0.005)))
        #expect(h.ok(tap(120, 125)).first?.contains("view=c/button") == true)
        h.ok(.by("c", .setHidden(button, true)))
        #expect(h.ok(tap(120, 125)).first?.contains("view=c chain=c") == true)
        // A subview is hit only where it lies inside its superview.
        h.ok(
            .by("c", .setHidden(button, false)),
            .by("c", .setFrame(button, Rect(x: 390, y: 10, width: 50, height: 50)))
        )
        #expect(h.ok(tap(505, 115, kind: "pinch")).first?.contains("view=root chain=root") == true)
    }

    /// Presentations first, top-most first. A form or page sheet — in its sheet form on this wide window too —
    /// swallows a point outside it (seed 002: the dimmed area shows the content behind but takes no touches), as a
    /// full-screen or current-context presentation does; only the `over…` styles pass it to what lies behind.
    @Test func presentationsAreHitFirst() {
        var h = scene(handles: [])
        let outside = "inputDelivered(-) window=main point=120,125 kind=pinch view=nil chain="
        for style in [ModalPresentationStyle.formSheet, .pageSheet] {
            h.ok(.by("root", .present("v", on: "root", style: style)))
            #expect(h.ok(tap(300, 100, kind: "pinch")).first?.contains("view=v chain=v,root") == true, "\(style)")
            #expect(h.ok(tap(120, 125, kind: "pinch")) == [outside], "\(style)")
            h.ok(.by("root", .dismiss("v")))
        }
        h.ok(.by("c", .setProperties("c", [.definesPresentationContext(true)])))
        h.ok(.by("c", .present("v", on: "c", style: .overCurrentContext)))
        #expect(h.ok(tap(120, 125, kind: "pinch")).first?.contains("view=v chain=v,c,root") == true)
        #expect(
            h.ok(tap(10, 10, kind: "pinch")) == [
                "inputDelivered(-) window=main point=10,10 kind=pinch view=root chain=root"
            ]
        )
        h.ok(.by("c", .dismiss("v")))
        h.ok(.by("c", .present("v", on: "c", style: .currentContext)))
        #expect(h.ok(tap(120, 125, kind: "pinch")).first?.contains("view=v chain=v,c,root") == true)
        #expect(
            h.ok(tap(10, 10, kind: "pinch")) == ["inputDelivered(-) window=main point=10,10 kind=pinch view=nil chain="]
        )
    }

    @Test func anActionWalksTheChainFromItsSender() {
        var h = scene(handles: ["done"])
        h.embed("w", in: "c")
        let events = h.ok(.by("w", .action(from: "w", name: "done", payload: Array("42".utf8))))
        #expect(
            events == [
                "actionDelivered(c) from=w name=done chain=w,c", "actionReceived(c) name=done from=w payload=42",
            ]
        )
        #expect(
            h.ok(.by("w", .action(from: "w", name: "other"))) == ["actionDelivered(-) from=w name=other chain=w,c,root"]
        )
        h.fails(.unauthorized, .by("c", .action(from: "w", name: "done")))
        h.fails(.unknownController, .by("ghost", .action(from: "ghost", name: "done")))
        h.fails(.malformed, .by("w", .action(from: "w", name: "")))
        h.fails(.unauthorized, .by("root", .input("main", at: Point(x: 1, y: 1), kind: "tap")))
        h.fails(.unknownWindow, tap(1, 1).with(command: .input("side", at: Point(x: 1, y: 1), kind: "tap")))
        h.fails(.malformed, .system(.input("main", at: Point(x: .nan, y: 1), kind: "tap")))
        h.fails(.malformed, .system(.input("main", at: Point(x: 1, y: 1), kind: "")))
    }

    /// Seed 004, driven by input alone: a three-finger tap shows the menu, a tap on an item selects that child and
    /// hides the menu, a tap elsewhere hides it.
    @Test func theMenuIsDrivenByInput() {
        var h = Harness()
        h.create("a", "b")
        h.ok(.system(.create("menu", kind: .menu)))
        h.ok(.system(.attachWindow("main", root: "menu", size: Size(width: 1024, height: 768))))
        h.ok(.by("menu", .setChildren("menu", ["a", "b"])))
        let show = h.ok(tap(500, 400, kind: "threeFingerTap"))
        #expect(show.first == "inputDelivered(menu) window=main point=500,400 kind=threeFingerTap view=a chain=a,menu")
        #expect(show[1] == "inputReceived(menu) kind=threeFingerTap point=500,400 view=a")
        #expect(show.last == "menuVisibilityChanged(menu) visible=true")
        // Item 1 is at the bottom of the ring: 480,672 (64×64).
        let pick = h.ok(tap(500, 700))
        #expect(pick.first == "inputDelivered(menu) window=main point=500,700 kind=tap view=menu/item-1 chain=menu")
        #expect(
            pick.filter { $0.contains("Appear") || $0.contains("Disappear") } == [
                "viewWillDisappear(a)", "viewWillAppear(b)", "viewDidDisappear(a)", "viewDidAppear(b)",
            ]
        )
        #expect(
            pick.suffix(3) == [
                "selectionChanged(menu) selected=b index=1", "hiddenChanged(menu) view=menu/menu hidden=true by=menu",
                "menuVisibilityChanged(menu) visible=false",
            ]
        )
        h.ok(tap(500, 400, kind: "threeFingerTap"))
        let away = h.ok(tap(10, 10))
        #expect(away.first == "inputDelivered(menu) window=main point=10,10 kind=tap view=menu/menu chain=menu")
        #expect(
            away.suffix(2) == [
                "hiddenChanged(menu) view=menu/menu hidden=true by=menu", "menuVisibilityChanged(menu) visible=false",
            ]
        )
        #expect(h.state.selectedIndex("menu") == 1)
        // Hidden, a tap reaches the menu through its child and changes nothing.
        #expect(h.ok(tap(10, 10)).count == 2)
    }

    /// Seed 004's viewDidLoad: a menu selected before its view loaded shows the selection once it loads.
    @Test func aMenuShowsItsSelectionOnlyOnceItsViewLoads() {
        var h = Harness()
        h.window()
        h.create("a", "b")
        h.ok(.system(.create("menu", kind: .menu)))
        let children = h.ok(.by("menu", .setChildren("menu", ["a", "b"])), .by("menu", .select("menu", .index(1))))
        #expect(!children.contains { $0.hasPrefix("loadView") || $0.hasPrefix("viewInserted") })
        #expect(children.last == "selectionChanged(menu) selected=b index=1")
        let load = h.ok(.by("menu", .loadView("menu")))
        #expect(load.prefix(2) == ["loadView(menu)", "viewDidLoad(menu)"])
        #expect(load.contains("viewInserted(b) view=b superview=menu/transition index=0"))
        #expect(!load.contains { $0.hasPrefix("viewInserted(a)") })
    }

    /// SPEC §13: a popover stands beside its anchor, never hides its context, and a tap outside it dismisses it.
    @Test func aPopoverIsAnchoredAndATapOutsideDismissesIt() {
        var h = scene(handles: [])
        h.ok(.by("v", .setProperties("v", [.preferredContentSize(Size(width: 200, height: 100))])))
        let button = ViewID(owner: "c", name: "button")
        let present = h.ok(.by("c", .present("v", on: "c", style: .popover, anchor: button)))
        // Below the button (110,110 50×50 in the window), centred on it.
        #expect(present.contains("frameChanged(v) view=v frame=35,160,200,100 by=system"))
        #expect(present.last == "presented(v) presenter=c context=root style=popover transitionStyle=coverVertical")
        #expect(h.state.presentations["v"]?.anchor == button && h.appearance("c") == .appeared)
        #expect(h.ok(tap(100, 200, kind: "pinch")).first?.contains("view=v chain=v,root") == true)
        let outside = h.ok(tap(900, 700, kind: "pinch"))
        #expect(outside.first == "inputDelivered(-) window=main point=900,700 kind=pinch view=nil chain=")
        #expect(outside.last == "dismissed(v) presenter=c context=root style=popover transitionStyle=coverVertical")
        h.fails(.hierarchyInconsistency, .by("c", .present("v", on: "c", style: .popover, anchor: .root("w"))))
        // Without an anchor, the presenter's root view is one (SPEC §7's default): beside c's whole view.
        let rooted = h.ok(.by("c", .present("v", on: "c", style: .popover)))
        #expect(h.state.presentations["v"]?.anchor == .root("c"), "\(rooted)")
        h.ok(.by("c", .dismiss("v")))
        // On a narrow window it falls back to full screen.
        h.ok(.system(.resizeWindow("main", size: Size(width: 768, height: 1024))))
        let narrow = h.ok(.by("c", .present("v", on: "c", style: .popover, anchor: button)))
        #expect(narrow.contains("frameChanged(v) view=v frame=0,0,768,1024 by=system"))
    }
}

extension Request {
    /// Another command issued by the same party.
    func with(command: Command) -> Request { Request(command, by: by) }
}
