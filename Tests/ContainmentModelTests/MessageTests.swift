import ContainmentModel
import Testing

/// SPEC §11: messages along the relations and to a delegate, as ordered callbacks.
@Suite struct MessageTests {
    /// root (window) ⊃ list (embedded) ⊃ row (added); editor (delegate: list) and other loose.
    func scene() -> Harness {
        var h = Harness()
        h.window()
        var editor = ControllerProperties()
        editor.delegate = "list"
        h.create("list", "row", "other")
        h.ok(.system(.create("editor", kind: .content, properties: editor)))
        h.embed("list", in: "root")
        h.ok(.by("list", .addChild("row", to: "list")))
        return h
    }

    @Test func aMessageIsSentThenReceivedWithItsPayload() {
        var h = scene()
        let events = h.ok(
            .by("row", .send(from: "row", to: "list", name: "picked", payload: Array("{\"row\":3}".utf8)))
        )
        #expect(
            events == [
                "messageSent(row) to=list name=picked bytes=9",
                "messageReceived(list) from=row name=picked payload={\"row\":3}",
            ]
        )
        // Down to a child, with no payload.
        #expect(
            h.ok(.by("list", .send(from: "list", to: "row", name: "reload")))
                == [
                    "messageSent(list) to=row name=reload bytes=0",
                    "messageReceived(row) from=list name=reload payload=",
                ]
        )
        // A payload that is not text is shown by its size; the event carries the bytes.
        let binary = h.ok(.by("row", .send(from: "row", to: "list", name: "blob", payload: [0, 255, 7])))
        #expect(binary.last == "messageReceived(list) from=row name=blob payload=<3 bytes>")
        let received = try? h.state.apply(
            .send(from: "row", to: "list", name: "blob", payload: [0, 255, 7]),
            by: .natural
        )
        #expect(received?.last == .messageReceived("list", from: "row", name: "blob", payload: [0, 255, 7]))
        #expect(received?.last?.isCallback == true && received?.first?.isCallback == false)
    }

    /// Seed 002: the presented editor tells its delegate it is done; the delegate dismisses it.
    @Test func theEditorTellsItsDelegateWhichDismissesIt() {
        var h = scene()
        h.ok(.by("list", .present("editor", on: "list", style: .formSheet)))
        #expect(
            h.ok(.by("list", .send(from: "list", to: "editor", name: "edit", payload: Array("Pancakes".utf8)))).last
                == "messageReceived(editor) from=list name=edit payload=Pancakes"
        )
        let done = h.ok(.by("editor", .send(from: "editor", to: "list", name: "done", payload: Array("Crêpes".utf8))))
        #expect(
            done == [
                "messageSent(editor) to=list name=done bytes=7",
                "messageReceived(list) from=editor name=done payload=Crêpes",
            ]
        )
        let dismissal = h.ok(.by("list", .dismiss("list")))
        #expect(
            dismissal.last
                == "dismissed(editor) presenter=list context=root style=formSheet transitionStyle=coverVertical"
        )
        // Dismissed, the editor is still allowed to reach its delegate; the presenter no longer reaches it.
        h.ok(.by("editor", .send(from: "editor", to: "list", name: "closed")))
        h.fails(.notRelated, .by("list", .send(from: "list", to: "editor", name: "edit")))
    }

    /// The presenter is reachable as the one that asked and as the context it covers, and both reach the presented.
    @Test func presenterAndContextBothReachThePresented() {
        var h = scene()
        h.ok(.by("row", .loadView("row")))
        h.embed("other", in: "list")
        h.ok(.by("other", .present("editor", on: "other")))
        for peer: ControllerID in ["other", "root"] {
            h.ok(.by("editor", .send(from: "editor", to: peer, name: "hello")))
            h.ok(.by(peer, .send(from: peer, to: "editor", name: "hello")))
        }
    }

    /// A custom container's verb: its code receives the call, with who made it (the host knows which verbs exist).
    @Test func invokeCallsTheControllersCode() {
        var h = scene()
        let events = h.ok(.system(.invoke("list", verb: "add", arguments: ["row", "2"])))
        #expect(events == ["verbInvoked(list) verb=add arguments=row,2 by=system"])
        #expect((try? h.state.apply(.invoke("list", verb: "add"), by: .controller("root")))?.first?.isCallback == true)
        h.fails(.unknownController, .system(.invoke("ghost", verb: "add")))
        h.fails(.malformed, .system(.invoke("list", verb: "")))
        #expect(h.state.naturalParty(for: .invoke("list", verb: "add")) == .system)
    }

    @Test func rejections() {
        var h = scene()
        let unrelated = h.fails(.notRelated, .by("row", .send(from: "row", to: "other", name: "hi")))
        #expect(unrelated?.message == "row may not send to other: they are not related.")
        // Siblings and grandparents are not related; nor is a controller to itself.
        h.fails(.notRelated, .by("row", .send(from: "row", to: "root", name: "hi")))
        h.fails(.notRelated, .by("row", .send(from: "row", to: "row", name: "hi")))
        h.fails(.unknownController, .by("row", .send(from: "row", to: "ghost", name: "hi")))
        h.fails(.unknownController, .system(.send(from: "ghost", to: "row", name: "hi")))
        let forged = h.fails(.unauthorized, .by("list", .send(from: "row", to: "list", name: "hi")))
        #expect(forged?.message == "list may not send a message as row; only row may.")
        h.fails(.unauthorized, .system(.send(from: "row", to: "list", name: "hi")))
        h.fails(.malformed, .by("row", .send(from: "row", to: "list", name: "")))
        h.fails(.malformed, .by("row", .send(from: "row", to: "list", name: "a\nb")))
        // The natural party of a send is its sender.
        #expect(h.state.naturalParty(for: .send(from: "row", to: "list", name: "hi")) == .controller("row"))
    }
}
