import Foundation
import Testing

/// Issue 44's papercut: `ctl invoke` showed only `verbInvoked`, while what a verb does is the container's code acting
/// after it. It now waits until the runtime is idle and prints the events that followed, in seq order, with none
/// missing (the subscription works before the verb is sent); `--no-follow` prints the verb's event alone.
@Suite struct InvokeFollowTests {
    /// The event names and controllers of `watch`-style lines (`  seq  name(controller) fields`), with their seqs.
    static func events(_ text: String) -> [(seq: UInt64, event: String)] {
        text.split(separator: "\n").compactMap { line in
            let words = line.split(separator: " ", maxSplits: 1)
            guard words.count == 2, let seq = UInt64(words[0]) else { return nil }
            return (seq, String(words[1].drop { $0 == " " }.prefix { $0 != " " }))
        }
    }

    @Test func invokePrintsWhatTheContainersCodeDidInAnswer() async throws {
        try await RuntimeFixture.with(topology: ControllerCodeTests.topology) { runtime in
            let create = try await runtime.containment(
                "ctl",
                "create",
                "extra",
                "--kind",
                "content",
                "--host",
                "ui-host"
            )
            #expect(create.status == 0, "\(create.stderr)")
            let add = try await runtime.containment("ctl", "invoke", "main", "add", "extra")
            #expect(add.status == 0, "\(add.stderr)")
            let events = Self.events(add.stdout)
            #expect(events.first?.event == "verbInvoked(main)", "\(add.stdout)")
            // The stack's code embedded extra and laid both children out again, as itself.
            for expected in [
                "willMoveToParent(extra)", "childAdded(extra)", "viewDidAppear(extra)", "didMoveToParent(extra)",
                "frameChanged(top)", "frameChanged(extra)",
            ] {
                #expect(events.contains { $0.event == expected }, "\(expected) missing: \(add.stdout)")
            }
            // The third of three rows of the stack's 1280×800, set by the stack.
            let extraFrame = add.stdout.split(separator: "\n").first { $0.contains("frameChanged(extra)") }
            #expect(
                extraFrame?.contains("frame=0,533.33") == true && extraFrame?.hasSuffix("by=main") == true,
                "\(add.stdout)"
            )
            // Every event from the verb's to the idle point, in order, none missing.
            let seqs = events.map(\.seq)
            #expect(seqs == Array((seqs.first ?? 0)...(seqs.last ?? 0)), "\(add.stdout)")

            // As JSON: the verb's events, then those that followed, with the command that published each.
            let remove = try await runtime.containment("ctl", "invoke", "main", "remove", "extra", "--json")
            #expect(remove.status == 0, "\(remove.stderr)")
            let reply = try #require(JSON.object(remove.stdout), "\(remove.stdout)")
            let followed = reply["followed"] as? [[String: Any]] ?? []
            #expect(followed.map { $0["event"] as? String }.contains("childRemoved"), "\(remove.stdout)")
            #expect(followed.allSatisfy { $0["commandId"] as? Int != reply["commandId"] as? Int })

            let quiet = try await runtime.containment("ctl", "invoke", "main", "add", "extra", "--no-follow")
            #expect(
                quiet.status == 0 && Self.events(quiet.stdout).map(\.event) == ["verbInvoked(main)"],
                "\(quiet.stdout)"
            )
            // A verb refused follows nothing: its error and exit 1.
            let unknown = try await runtime.containment("ctl", "invoke", "main", "shuffle")
            #expect(unknown.status == 1 && unknown.stdout.isEmpty, "\(unknown.stdout)")
            #expect(unknown.stderr.hasPrefix("unknownVerb: main, a stack run by host ui-host"), "\(unknown.stderr)")
        }
    }
}
