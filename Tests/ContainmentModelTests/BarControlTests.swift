import ContainmentModel
import Testing

/// SPEC §15, bars with controls: a navigation bar's back button and its top's items, a tab bar's items, and what a
/// tap on each does.
@Suite struct BarControlTests {
    /// root (window 1024×768) ⊃ `kind` container `n` embedded full size; content a, b, c loose.
    func scene(_ kind: Kind) -> Harness {
        Harness.containerScene(kind)
    }

    /// The bar's subviews now.
    func bar(_ h: Harness, _ id: ControllerID = "n") -> [String] {
        (h.state.views[ViewID(owner: id, name: "bar")]?.subviews ?? []).map(\.description)
    }

    func frame(_ h: Harness, _ view: String) -> Rect? {
        h.state.views[ViewID(owner: "n", name: view)]?.frame
    }

    func tap(_ x: Double, _ y: Double) -> Request {
        .system(.input("main", at: Point(x: x, y: y), kind: "tap"))
    }

    @Test func theBackButtonComesWithASecondControllerAndATapPops() {
        var h = scene(.navigation)
        h.ok(.by("n", .push("a", on: "n")))
        #expect(bar(h).isEmpty)
        let pushed = h.ok(.by("n", .push("b", on: "n")))
        // It goes in as soon as b is in the stack, before the switch.
        #expect(
            Array(pushed[2...4]) == [
                "childAdded(b) parent=n",
                "viewInserted(n) view=n/back superview=n/bar index=0",
                "frameChanged(n) view=n/back frame=0,0,64,44 by=n",
            ]
        )
        #expect(bar(h) == ["n/back"])
        // A tap on it is the navigation controller's: it pops, animated.
        let tapped = h.ok(tap(10, 10))
        #expect(tapped.first == "inputDelivered(n) window=main point=10,10 kind=tap view=n/back chain=n")
        #expect(tapped.contains("inputReceived(n) kind=tap point=10,10 view=n/back"))
        #expect(tapped.contains("navigationWillShow(n) shown=a"))
        #expect(tapped.contains("viewWillDisappear(b) animated movingFromParent"))
        #expect(h.state.transitions.map(\.duration) == [0.35])
        // Tapped again while it pops: the container is still switching.
        let busy = h.fails(.transitionInProgress, tap(10, 10))
        #expect(busy?.message == "n is still switching from b to a; wait for it to complete.")
        let done = h.ok(.by("n", .completeTransition(in: "n", from: "b", to: "a")))
        #expect(done.contains("viewRemoved(n) view=n/back superview=n/bar"))
        #expect(bar(h).isEmpty && h.state.controllers["n"]?.children == ["a"])
        // With one controller a tap there hits the bar itself: no one's.
        #expect(h.ok(tap(10, 10)) == ["inputDelivered(-) window=main point=10,10 kind=tap view=n/bar chain=n,root"])
    }

    @Test func theTopsItemsEditAndActions() {
        var h = scene(.navigation)
        h.ok(.by("n", .push("a", on: "n")), .by("n", .push("b", on: "n")))
        h.ok(.by("root", .setProperties("root", [.handles(["share"])])))
        let items = h.ok(
            .by(
                "b",
                .setProperties(
                    "b",
                    [.navigationItem(NavigationItem(leftItems: ["menu"], rightItems: ["edit", "share"]))]
                )
            )
        )
        #expect(items.contains("viewInserted(n) view=n/left-0 superview=n/bar index=1"))
        #expect(bar(h) == ["n/back", "n/left-0", "n/edit", "n/right-1"])
        #expect(frame(h, "left-0") == Rect(x: 64, y: 0, width: 64, height: 44))
        #expect(frame(h, "edit") == Rect(x: 960, y: 0, width: 64, height: 44))
        #expect(frame(h, "right-1") == Rect(x: 896, y: 0, width: 64, height: 44))
        // edit toggles the top's editing, as its parent.
        #expect(
            Array(h.ok(tap(1000, 20)).suffix(2)) == [
                "setEditing(b) editing=true animated", "editingChanged(b) editing=true",
            ]
        )
        #expect(
            Array(h.ok(tap(1000, 20)).suffix(2)) == [
                "setEditing(b) editing=false animated", "editingChanged(b) editing=false",
            ]
        )
        // Another item is an action named after it, walked up the chain from the top: root handles it.
        #expect(
            Array(h.ok(tap(900, 20)).suffix(2)) == [
                "actionDelivered(root) from=n name=share chain=b,n,root",
                "actionReceived(root) name=share from=n payload=",
            ]
        )
        // No one handles `menu`: it is delivered to no one.
        #expect(h.ok(tap(100, 20)).last == "actionDelivered(-) from=n name=menu chain=b,n,root")
        // A top without items: only the back button stays.
        h.ok(.by("n", .pop("n")))
        h.ok(.by("n", .push("c", on: "n")))
        #expect(bar(h) == ["n/back"])
    }

    @Test func aTabBarHasAnItemPerChildAndATapSelectsIt() {
        var h = scene(.tab)
        h.ok(.by("n", .setChildren("n", ["a", "b", "c"])))
        #expect(bar(h) == ["n/item-0", "n/item-1", "n/item-2"])
        let third = 1024.0 / 3
        #expect(frame(h, "item-2") == Rect(x: 2 * third, y: 0, width: third, height: 49))
        let tapped = h.ok(tap(900, 740))
        #expect(tapped.first == "inputDelivered(n) window=main point=900,740 kind=tap view=n/item-2 chain=n")
        #expect(tapped.last == "selectionChanged(n) selected=c index=2")
        #expect(h.state.controllers["n"]?.selected == "c")
        // The same tab again: nothing more.
        #expect(h.ok(tap(900, 740)).count == 2)
        // A child fewer: the items share the width again.
        h.ok(.by("n", .setChildren("n", ["a", "b"])))
        #expect(bar(h) == ["n/item-0", "n/item-1"])
        #expect(frame(h, "item-1") == Rect(x: 512, y: 0, width: 512, height: 49))
    }
}
