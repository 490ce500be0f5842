import ContainmentModel
import Testing

/// SPEC §13: setProperties, the bars they show, and setEditing.
@Suite struct PropertyTests {
    /// root (window) ⊃ n (navigation, embedded) with a and b pushed; t (tab) loose with x and y.
    func scene() -> Harness {
        var h = Harness()
        h.window()
        h.ok(.system(.create("n", kind: .navigation)), .system(.create("t", kind: .tab)))
        h.create("a", "b", "x", "y")
        h.embed("n", in: "root")
        h.ok(.by("n", .push("a", on: "n")), .by("n", .push("b", on: "n")), .by("t", .setChildren("t", ["x", "y"])))
        return h
    }

    @Test func setPropertiesNamesWhatChangedAndTheBarsShowIt() {
        var h = scene()
        #expect(h.state.navigationBar("n") == (nil, nil))
        let events = h.ok(.by("a", .setProperties("a", [.title("Recipes"), .toolbarItems(["edit"])])))
        #expect(events == ["propertiesChanged(a) changed=title,toolbarItems"])
        #expect(h.state.controllers["a"]?.properties.toolbarItems == ["edit"])
        // The back button shows the previous controller's title, until its navigation item says otherwise.
        #expect(h.state.navigationBar("n") == (nil, "Recipes"))
        h.ok(.by("a", .setProperties("a", [.navigationItem(NavigationItem(title: "All", backTitle: "Back"))])))
        #expect(h.state.navigationBar("n") == (nil, "Back"))
        h.ok(.by("b", .setProperties("b", [.title("Pancakes")])))
        #expect(h.state.navigationBar("n") == ("Pancakes", "Back"))
        h.ok(.by("b", .setProperties("b", [.navigationItem(NavigationItem(title: "Edit", rightItems: ["done"]))])))
        #expect(h.state.navigationBar("n") == ("Edit", "Back"))
        // The same values again change nothing: no event.
        #expect(h.ok(.by("b", .setProperties("b", [.title("Pancakes")]))) == [])
        // The system may set them too; a tab's bar item carries a badge.
        let tab = h.ok(.system(.setProperties("x", [.tabItem(TabItem(title: "Inbox", badge: "3")), .title(nil)])))
        #expect(tab == ["propertiesChanged(x) changed=tabItem"])
        #expect(h.state.controllers["x"]?.properties.tabItem == TabItem(title: "Inbox", badge: "3"))
    }

    @Test func propertiesChangedCarriesThemAll() throws {
        var h = scene()
        let events = try h.state.apply(
            .setProperties("a", [.delegate("b"), .handles(["tap"]), .supportedOrientations([.portrait])]),
            by: .controller("a")
        )
        guard case .propertiesChanged(_, let changed, let properties)? = events.first else {
            Issue.record("\(events)")
            return
        }
        #expect(changed == ["delegate", "handles", "supportedOrientations"])
        #expect(properties == h.state.controllers["a"]?.properties)
        #expect(
            properties.delegate == "b" && properties.handles == ["tap"]
                && properties.supportedOrientations == [.portrait]
        )
        #expect(events.count == 1 && events.first?.isCallback == false)
    }

    /// Issue 44: a controller publishes its own state (a custom container's selection) as a property, set whole by
    /// it or the system, named `state` in propertiesChanged; only within its limits.
    @Test func aControllerPublishesItsOwnState() {
        var h = scene()
        let events = h.ok(.by("a", .setProperties("a", [.state(["selection": "2", "mode": "ring"])])))
        #expect(events == ["propertiesChanged(a) changed=state"])
        #expect(h.state.controllers["a"]?.properties.state == ["selection": "2", "mode": "ring"])
        // Set whole: a key left out is gone; the same state again changes nothing.
        h.ok(.by("a", .setProperties("a", [.state(["selection": "3"])])))
        #expect(h.state.controllers["a"]?.properties.state == ["selection": "3"])
        #expect(h.ok(.by("a", .setProperties("a", [.state(["selection": "3"])]))) == [])
        h.ok(.system(.setProperties("a", [.state([:])])))
        #expect(h.state.controllers["a"]?.properties.state == [:])
        // Only it or the system: not its parent, nor another controller.
        h.fails(.unauthorized, .by("n", .setProperties("a", [.state(["selection": "1"])])))
        // Within its limits, at create too.
        let limits = PropertyChange.stateLimits
        let tooMany = Dictionary(uniqueKeysWithValues: (0...limits.entries).map { ("k\($0)", "") })
        for state in [
            ["": "empty key"], tooMany, [String(repeating: "k", count: limits.keyBytes + 1): ""],
            ["k": String(repeating: "v", count: limits.valueBytes + 1)],
        ] {
            h.fails(.malformed, .by("a", .setProperties("a", [.state(state)])))
            var properties = ControllerProperties()
            properties.state = state
            h.fails(.malformed, .system(.create("fresh", kind: .content, properties: properties)))
        }
        let widest = ["k": String(repeating: "é", count: limits.valueBytes / 2)]
        h.ok(.by("a", .setProperties("a", [.state(widest)])))
    }

    @Test func setPropertiesRejections() {
        var h = scene()
        let other = h.fails(.unauthorized, .by("b", .setProperties("a", [.title("no")])))
        #expect(other?.message == "b may not set the properties of a; only a or the system may.")
        h.fails(.unauthorized, .by("n", .setProperties("a", [.title("no")])))
        h.fails(.unknownController, .system(.setProperties("ghost", [.title("no")])))
        let none = h.fails(.malformed, .by("a", .setProperties("a", [.title("ok"), .supportedOrientations([])])))
        #expect(none?.message == "a: A controller supports at least one orientation.")
        h.fails(.malformed, .by("a", .setProperties("a", [.preferredContentSize(Size(width: -1, height: 10))])))
        h.fails(.malformed, .by("a", .setProperties("a", [.preferredContentSize(Size(width: .nan, height: 10))])))
        // One value per property in one command (the wire carries one).
        let twice = h.fails(.malformed, .by("a", .setProperties("a", [.title("x"), .title("y")])))
        #expect(twice?.message == "set-properties of a names title twice.")
    }

    @Test func setEditingCallsBackOnlyTheControllerAndOnlyOnAChange() {
        var h = scene()
        h.embed("x", in: "a")
        let events = h.ok(.by("n", .setEditing("a", true, animated: true)))
        #expect(events == ["setEditing(a) editing=true animated", "editingChanged(a) editing=true"])
        #expect(h.state.controllers["a"]?.properties.editing == true)
        // Not forwarded to its child.
        #expect(h.state.controllers["x"]?.properties.editing == false)
        #expect(h.ok(.by("a", .setEditing("a", true))) == [])
        #expect(
            h.ok(.by("a", .setEditing("a", false))) == [
                "setEditing(a) editing=false", "editingChanged(a) editing=false",
            ]
        )
        let stranger = h.fails(.unauthorized, .by("b", .setEditing("a", true)))
        #expect(stranger?.message == "b may not set the editing state of a; only a or its parent n may.")
        h.fails(.unauthorized, .system(.setEditing("a", true)))
        h.fails(.unauthorized, .by("root", .setEditing("root", true)).with(by: .controller("a")))
        #expect(
            (try? h.state.apply(.setEditing("a", true), by: .controller("a")))?.first?.isCallback == true
        )
    }
}

extension Request {
    /// The same command issued by another party.
    func with(by party: Party) -> Request { Request(command, by: party) }
}
