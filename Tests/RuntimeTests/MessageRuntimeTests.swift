import ContainmentHost
import ContainmentBus
import ContainmentModel
import ContainmentRuntime
import Foundation
import Testing

/// SPEC §11 through real processes: messages travel as ordered callbacks, and controller code sends them.
@Suite(.serialized) struct MessageRuntimeTests {
    /// Seed 002: a list (kind `editorDelegate`, host h1) presents an editor (kind `editor`, host h2) whose delegate it is
    /// and which handles taps on its Done button.
    static let topology = """
        window: {name: main, width: 1024, height: 768, root: list}
        controllers:
          - {id: list, kind: editorDelegate, host: h1}
          - {id: editor, kind: editor, host: h2, delegate: list, handles: [tap], presentationStyle: formSheet}
          - {id: loose, kind: content, host: h2}
        """

    /// The editor's code makes its Done button when its view loads: the replica does the same.
    static func presentEditor(_ runtime: RuntimeFixture, _ model: inout SeedListingRuntimeTests.Replica) async throws {
        let present = try await runtime.containment("ctl", "present", "list", "editor")
        #expect(present.status == 0, "\(present.stderr)")
        let done = ViewID(owner: "editor", name: "done")
        _ = try model.apply([.by("list", .present("editor", on: "list"))])
        _ = try model.apply([
            .by("editor", .addSubview(done, to: .root("editor"))),
            .by("editor", .setFrame(done, EditorBehavior.doneButton)),
        ])
        try await runtime.waitForView("editor/done")
    }

    /// A client passes the editor its recipe, the user taps Done; the rest — the editor's `done` to its delegate, the
    /// delegate's dismissal — is controller code in two host processes, with no client in the loop.
    @Test func theEditorTellsItsDelegateAcrossTwoHostsWhichDismissesIt() async throws {
        try await RuntimeFixture.with(topology: Self.topology) { runtime in
            var model = try SeedListingRuntimeTests.Replica(topology: Self.topology)
            try await Self.presentEditor(runtime, &model)

            let watch = try await runtime.startWatch(["--count", "11", "--idle-timeout", "60"])
            let send = try await runtime.containment("ctl", "send", "list", "editor", "edit", "Pancakes")
            #expect(send.status == 0, "\(send.stderr)")
            #expect(
                send.eventDescriptions == [
                    "messageSent(list) to=editor name=edit bytes=8",
                    "messageReceived(editor) from=list name=edit payload=Pancakes",
                ]
            )
            // The Done button: 440,10 in the sheet, which stands at 242,74 in the window.
            let tap = try await runtime.containment("ctl", "input", "main", "700,100")
            #expect(tap.status == 0, "\(tap.stderr)")
            let edited = EditorBehavior.edited(Array("Pancakes".utf8))
            var expected = try model.apply([
                .by("list", .send(from: "list", to: "editor", name: "edit", payload: Array("Pancakes".utf8)))
            ])
            let input = try model.apply([.system(.input("main", at: Point(x: 700, y: 100), kind: "tap"))])
            #expect(tap.eventDescriptions == input)
            #expect(input.last == "inputReceived(editor) kind=tap point=458,26 view=editor/done")
            expected += input
            expected += try model.apply([
                .by("editor", .send(from: "editor", to: "list", name: "done", payload: edited))
            ])
            expected += try model.apply([.by("list", .dismiss("list", animated: true))])
            // Animated, the dismissal is a timed transition the supervisor completes (SPEC §13).
            expected += try model.apply([.by("list", .completeTransition(in: "list", from: "editor", to: "list"))])
            let published = try await watch.value.eventDescriptions
            #expect(published == expected, "\(runtime.logs())")
            #expect(published.contains("messageReceived(list) from=editor name=done payload=Pancakes (edited)"))
            #expect(
                published.last
                    == "dismissed(editor) presenter=list context=list style=formSheet transitionStyle=coverVertical"
            )

            // Each actor received its messages and input in order with its other callbacks, as the model gave them.
            let list = try await runtime.callbacks(of: "list") { $0 == model.callbacks(of: "list") }
            #expect(list == model.callbacks(of: "list"))
            let editor = try await runtime.callbacks(of: "editor") { $0 == model.callbacks(of: "editor") }
            #expect(editor == model.callbacks(of: "editor"))
        }
    }

    /// An unrelated pair is refused with notRelated, published as a ruleViolation; a payload file carries any bytes.
    @Test func anUnrelatedSendIsRefusedAndAPayloadFileCarriesBytes() async throws {
        try await RuntimeFixture.with(topology: Self.topology) { runtime in
            let refused = try await runtime.containment("ctl", "send", "loose", "list", "hello")
            #expect(refused.status == 1)
            #expect(refused.stderr == "notRelated: loose may not send to list: they are not related.\n")
            let file = runtime.runDirectory + "/payload.bin"
            try Data([0, 1, 255]).write(to: URL(fileURLWithPath: file))
            let binary = try await runtime.containment(
                "ctl",
                "send",
                "editor",
                "list",
                "blob",
                "--payload-file",
                file,
                "--json"
            )
            #expect(binary.status == 0, "\(binary.stderr)")
            let events = JSON.object(binary.stdout)?["events"] as? [[String: Any]] ?? []
            #expect(events.map { $0["event"] as? String } == ["messageSent", "messageReceived"])
            #expect(events.first?["bytes"] as? Int == 3 && events.first?["to"] as? String == "list")
            #expect(events.last?["payloadBase64"] as? String == "AAH/" && events.last?["from"] as? String == "editor")
        }
    }
}
