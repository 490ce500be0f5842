import ContainmentModel
import Testing

/// The seeds' three listings, replayed as batches, with their full event sequences.
@Suite struct SeedListingTests {
    @Test func displayContentControllerOnScreen() {
        var h = Harness()
        h.window()
        h.create("content")
        let events = h.ok(batch: SeedListings.displayContentController("content", in: "root", frame: phone))
        #expect(
            events == [
                "willMoveToParent(content) parent=root",
                "childAdded(content) parent=root",
                "loadView(content)",
                "viewDidLoad(content)",
                "frameChanged(content) view=content frame=0,0,320,480 by=root",
                "viewWillLayoutSubviews(content)",
                "viewDidLayoutSubviews(content)",
                "viewWillAppear(content) movingToParent",
                "viewInserted(content) view=content superview=root index=0",
                "viewDidAppear(content) movingToParent",
                "didMoveToParent(content) parent=root",
            ]
        )
        #expect(h.appearance("content") == .appeared)
        #expect(h.state.controllers["content"]?.move == .settled)
    }

    @Test func displayContentControllerOffScreenHasNoAppearance() {
        var h = Harness()
        h.create("container", "content")
        let events = h.ok(batch: SeedListings.displayContentController("content", in: "container", frame: phone))
        #expect(
            events == [
                "willMoveToParent(content) parent=container",
                "childAdded(content) parent=container",
                "loadView(content)",
                "viewDidLoad(content)",
                "frameChanged(content) view=content frame=0,0,320,480 by=container",
                "viewWillLayoutSubviews(content)",
                "viewDidLayoutSubviews(content)",
                "loadView(container)",
                "viewDidLoad(container)",
                "viewInserted(content) view=content superview=container index=0",
                "didMoveToParent(content) parent=container",
            ]
        )
        #expect(h.appearance("content") == .disappeared)
    }

    @Test func hideContentController() {
        var h = Harness()
        h.window()
        h.create("content")
        h.embed("content", in: "root")
        let events = h.ok(batch: SeedListings.hideContentController("content", in: "root"))
        #expect(
            events == [
                "willMoveToParent(content) parent=nil",
                "viewWillDisappear(content) movingFromParent",
                "viewRemoved(content) view=content superview=root",
                "viewDidDisappear(content) movingFromParent",
                "childRemoved(content) parent=root",
                "didMoveToParent(content) parent=nil",
            ]
        )
        #expect(h.state.controllers["root"]?.children == [])
        #expect(h.state.views[.root("content")]?.superview == nil)
        #expect(h.appearance("content") == .disappeared)
    }

    @Test func cycleFromViewControllerToViewController() {
        var h = Harness()
        h.window()
        h.create("old", "new")
        h.embed("old", in: "root")
        let events = h.ok(batch: h.state.cycleRequests(from: "old", to: "new", in: "root"))
        #expect(
            events == [
                "willMoveToParent(old) parent=nil",
                "willMoveToParent(new) parent=root",
                "childAdded(new) parent=root",
                "loadView(new)",
                "viewDidLoad(new)",
                "frameChanged(new) view=new frame=320,0,320,480 by=root",
                "viewWillLayoutSubviews(new)",
                "viewDidLayoutSubviews(new)",
                "transitionBegan(root) from=old to=new",
                "viewWillDisappear(old) animated movingFromParent",
                "viewWillAppear(new) animated movingToParent",
                "viewInserted(new) view=new superview=root index=1",
                "frameChanged(new) view=new frame=0,0,320,480 by=root",
                "frameChanged(old) view=old frame=-320,0,320,480 by=root",
                "viewRemoved(old) view=old superview=root",
                "viewDidDisappear(old) animated movingFromParent",
                "viewDidAppear(new) animated movingToParent",
                "transitionCompleted(root) from=old to=new",
                "childRemoved(old) parent=root",
                "didMoveToParent(old) parent=nil",
                "didMoveToParent(new) parent=root",
            ]
        )
        #expect(h.state.controllers["root"]?.children == ["new"])
        #expect(h.state.views[.root("root")]?.subviews == [.root("new")])
        #expect(h.appearance("old") == .disappeared)
        #expect(h.appearance("new") == .appeared)
        #expect(h.state.transitions.isEmpty)
    }

    @Test func seedBatchesAreAtomic() {
        var h = Harness()
        h.window()
        h.create("content")
        // Embedding into a view the container does not own fails at the third command: nothing of the first two stays.
        h.create("stranger")
        let before = h.state
        #expect(throws: BatchError.self) {
            try h.state.apply(
                batch: SeedListings.displayContentController(
                    "content",
                    in: "root",
                    superview: .root("stranger"),
                    frame: phone
                )
            )
        }
        #expect(h.state == before)
        do {
            _ = try h.state.apply(
                batch: SeedListings.displayContentController(
                    "content",
                    in: "root",
                    superview: .root("stranger"),
                    frame: phone
                )
            )
        } catch {
            #expect(error.index == 2)
            #expect(error.error.code == .hierarchyInconsistency)
            #expect(error.error.message == "child content should have parent root but requested parent is stranger.")
        }
    }
}
