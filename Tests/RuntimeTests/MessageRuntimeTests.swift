import ContainmentHost
import ContainmentBus
import ContainmentModel
import ContainmentConfig
import ContainmentRuntime
import ContainmentTestKit
import Foundation
import Testing

/// SPEC §11: messages travel as ordered callbacks, and controller code sends them (the simulated runtime); `ctl send`'s
/// refusal and payload file through real processes.
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

    /// Presents the editor; its code makes its Done button when its view loads: the replica does the same.
    static func presentEditor(
        _ runtime: SimulatedRuntime,
        _ model: inout SeedListingRuntimeTests.Replica
    ) async throws {
        try await runtime.perform([.by("list", .present("editor", on: "list"))])
        let done = ViewID(owner: "editor", name: "done")
        _ = try model.apply([.by("list", .present("editor", on: "list"))])
        _ = try model.apply([
            .by("editor", .addSubview(done, to: .root("editor"))),
            .by("editor", .setFrame(done, EditorBehavior.doneButton)),
        ])
        try await runtime.runUntilIdle()
        #expect(try await runtime.snapshot().views[done] != nil)
    }

    /// A client passes the editor its recipe, the user taps Done; the rest — the editor's `done` to its delegate, the
    /// delegate's dismissal — is controller code in two hosts (simulated), with no client in the loop.
    @Test func theEditorTellsItsDelegateAcrossTwoHostsWhichDismissesIt() async throws {
        try await withSimulatedTopology(Self.topology) { runtime in
            var model = try SeedListingRuntimeTests.Replica(topology: Self.topology)
            try await Self.presentEditor(runtime, &model)
            let before = try await runtime.events().count

            let edit = Request.by(
                "list",
                .send(from: "list", to: "editor", name: "edit", payload: Array("Pancakes".utf8))
            )
            #expect(
                await runtime.described([edit]) == [
                    "messageSent(list) to=editor name=edit bytes=8",
                    "messageReceived(editor) from=list name=edit payload=Pancakes",
                ]
            )
            // The Done button: 440,10 in the sheet, which stands at 242,74 in the window.
            let tap = Request.system(.input("main", at: Point(x: 700, y: 100), kind: "tap"))
            let tapped = await runtime.described([tap])
            let edited = EditorBehavior.edited(Array("Pancakes".utf8))
            var expected = try model.apply([edit])
            let input = try model.apply([tap])
            #expect(tapped == input)
            #expect(input.last == "inputReceived(editor) kind=tap point=458,26 view=editor/done")
            expected += input
            expected += try model.apply([
                .by("editor", .send(from: "editor", to: "list", name: "done", payload: edited))
            ])
            expected += try model.apply([.by("list", .dismiss("list", animated: true))])
            // Animated, the dismissal is a timed transition the supervisor completes (SPEC §13) once its time passed.
            try await runtime.runUntilIdle()
            try await runtime.advance(by: .seconds(1))
            expected += try model.apply([.by("list", .completeTransition(in: "list", from: "editor", to: "list"))])
            let published = try await runtime.events().dropFirst(before).map(\.description)
            #expect(published == expected)
            #expect(published.contains("messageReceived(list) from=editor name=done payload=Pancakes (edited)"))
            #expect(
                published.last
                    == "dismissed(editor) presenter=list context=list style=formSheet transitionStyle=coverVertical"
            )

            // Each actor received its messages and input in order with its other callbacks, as the model gave them.
            #expect(try await runtime.describedCallbacks(of: "list") == model.callbacks(of: "list"))
            #expect(try await runtime.describedCallbacks(of: "editor") == model.callbacks(of: "editor"))
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
