import ContainmentModel
import Testing

/// SPEC §15, container delegates: a navigation or tab container's `delegate` receives its `navigationWillShow`,
/// `navigationDidShow` and `selectionChanged` as callbacks (`delegateCallback`), each right after the event.
@Suite struct ContainerDelegateTests {
    /// root (window 1024×768) ⊃ `kind` container `n` embedded full size, whose delegate is `d`; content a, b loose.
    func scene(_ kind: Kind) -> Harness {
        var h = Harness.containerScene(kind, extra: ["d"])
        h.ok(.by("n", .setProperties("n", [.delegate("d")])))
        return h
    }

    /// The container's switch events and the delegate's callbacks, in order.
    func told(_ events: [String]) -> [String] {
        events.filter { $0.hasPrefix("navigation") || $0.hasPrefix("selection") || $0.hasPrefix("delegate") }
    }

    @Test func theNavigationDelegateHearsWillShowAndDidShow() {
        var h = scene(.navigation)
        #expect(
            told(h.ok(.by("n", .push("a", on: "n")))) == [
                "navigationWillShow(n) shown=a",
                "delegateCallback(d) container=n callback=navigationWillShow child=a",
                "navigationDidShow(n) shown=a",
                "delegateCallback(d) container=n callback=navigationDidShow child=a",
            ]
        )
        // Animated: did-show, and its callback, come with the transition's completion; a child that asked is named
        // in the event, and the delegate hears the same.
        h.state.animationDuration = 0.5
        #expect(
            told(h.ok(.by("a", .push("b", on: "n", animated: true)))) == [
                "navigationWillShow(n) shown=b requestedBy=a",
                "delegateCallback(d) container=n callback=navigationWillShow child=b animated",
            ]
        )
        #expect(
            told(h.ok(.by("n", .completeTransition(in: "n", from: "a", to: "b")))) == [
                "navigationDidShow(n) shown=b requestedBy=a",
                "delegateCallback(d) container=n callback=navigationDidShow child=b animated",
            ]
        )
        // The callback is the delegate's: its host delivers it, in seq order with its other callbacks.
        #expect(
            Event.delegateCallback("d", container: "n", callback: .navigationDidShow, child: "b", animated: true)
                .isCallback
        )
    }

    @Test func theTabDelegateHearsTheSelection() {
        var h = scene(.tab)
        #expect(
            told(h.ok(.by("n", .setChildren("n", ["a", "b"])))) == [
                "selectionChanged(n) selected=a index=0",
                "delegateCallback(d) container=n callback=selectionChanged child=a",
            ]
        )
        #expect(
            told(h.ok(.by("b", .select("n", .index(1))))) == [
                "selectionChanged(n) selected=b index=1 requestedBy=b",
                "delegateCallback(d) container=n callback=selectionChanged child=b",
            ]
        )
        // The selected child leaving by itself: the selection goes, and the delegate hears of none.
        #expect(
            told(h.ok(.by("b", .removeFromParent("b")))) == [
                "selectionChanged(n) selected=nil index=nil",
                "delegateCallback(d) container=n callback=selectionChanged child=nil",
            ]
        )
    }

    @Test func noDelegateOrAGoneOneHearsNothing() {
        var h = scene(.navigation)
        h.ok(.by("n", .setProperties("n", [.delegate(nil)])))
        #expect(!h.ok(.by("n", .push("a", on: "n"))).contains { $0.hasPrefix("delegateCallback") })
        h.ok(.by("n", .setProperties("n", [.delegate("d")])))
        h.ok(.system(.destroy("d")))
        #expect(!h.ok(.by("n", .push("b", on: "n"))).contains { $0.hasPrefix("delegateCallback") })
        // A menu's selection is not a delegate's business (SPEC §15 names navigation and tab containers).
        var menu = scene(.menu)
        #expect(!menu.ok(.by("n", .setChildren("n", ["a", "b"]))).contains { $0.hasPrefix("delegateCallback") })
    }
}
