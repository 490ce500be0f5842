import ContainmentModel
import Testing

/// SPEC §16, child protocols (seed 000: "the container defines a protocol for its children").
@Suite struct ChildProtocolTests {
    /// A `grid` requiring `tapped` and `reset` of its children; `tile` answers both, `half` only `tapped`, `content`
    /// nothing; `ghost` no host ever registered.
    func scene() -> Harness {
        var h = Harness()
        h.state.kindProtocols = [
            "grid": KindProtocol(verbs: ["insert"], requires: ["tapped", "reset"]),
            "tile": KindProtocol(verbs: ["tapped", "reset", "extra"]),
            "half": KindProtocol(verbs: ["tapped"]),
            .content: KindProtocol(),
        ]
        h.ok(.system(.create("board", kind: "grid")))
        for (id, kind) in [("t", "tile"), ("h", "half"), ("c", "content"), ("g", "ghost")] as [(ControllerID, Kind)] {
            h.ok(.system(.create(id, kind: kind)))
        }
        return h
    }

    @Test func aChildLackingARequiredVerbIsRefusedNamingEachOne() {
        var h = scene()
        h.ok(.by("board", .addChild("t", to: "board")))
        let half = h.fails(.protocolMismatch, .by("board", .addChild("h", to: "board")))
        #expect(
            half?.message == "board, a grid, requires of its children the verbs tapped, reset; h, a half, lacks reset."
        )
        let plain = h.fails(.protocolMismatch, .by("board", .addChild("c", to: "board")))
        #expect(plain?.message.hasSuffix("c, a content, lacks tapped, reset.") == true)
        // The seeds' displayContentController is refused as a whole.
        h.fails(
            .protocolMismatch,
            .by("board", .addChild("c", to: "board")),
            .by("board", .didMove("c", toParent: "board"))
        )
        h.fails(.unknownKind, .by("board", .addChild("g", to: "board")))
        // A container without a protocol takes any child.
        h.ok(.system(.create("plain", kind: .content)))
        h.ok(.by("plain", .addChild("c", to: "plain")))
    }

    /// Without the kinds' protocols (a journal's replay, the model alone) nothing is judged.
    @Test func withoutTheKindsProtocolsNothingIsJudged() {
        var h = scene()
        h.state.kindProtocols = [:]
        h.ok(.by("board", .addChild("c", to: "board")))
    }
}
