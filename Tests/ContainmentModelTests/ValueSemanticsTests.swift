import ContainmentModel
import Testing

/// The state changes its controllers and views in place when it holds their only reference: a copy taken before a
/// command — one controller, one view, or the whole state (a checkpoint's) — keeps what it had.
@Suite struct ValueSemanticsTests {
    @Test func copiesTakenBeforeACommandKeepTheirValues() {
        var h = Harness()
        h.window()
        h.create("a")
        h.embed("a", in: "root", frame: Rect(x: 0, y: 0, width: 100, height: 100))
        let controller = h.state.controllers["a"]
        let rootView = h.state.views[.root("root")]
        let whole = h.state
        h.ok(.by("root", .setFrame(.root("a"), Rect(x: 10, y: 10, width: 50, height: 50))))
        h.ok(.by("root", .removeFromSuperview(.root("a"))))
        h.ok(.by("root", .removeFromParent("a")))
        #expect(controller?.parent == "root" && h.state.controllers["a"]?.parent == nil)
        #expect(rootView?.subviews == [.root("a")] && h.state.views[.root("root")]?.subviews == [])
        #expect(whole.views[.root("a")]?.frame == Rect(x: 0, y: 0, width: 100, height: 100))
        #expect(whole.controllers["root"]?.children == ["a"])
        #expect(whole != h.state)
        // A rejected command leaves both the state and the copy as they were.
        let again = h.state
        h.fails(.frameAuthority, .by("a", .setFrame(.root("a"), Rect(x: 1, y: 1, width: 1, height: 1))))
        #expect(again == h.state)
    }
}
