@testable import ContainmentModel
import Testing

/// Every error code the model gives for SPEC §1–§6 and §9, each from a real rejection that changes nothing.
@Suite struct ErrorCodeTests {
    /// root (window) ⊃ a (embedded) and b (added); c loose; p presented by root.
    static func world() -> Harness {
        var h = Harness()
        h.window()
        h.create("a", "b", "c", "p")
        h.embed("a", in: "root")
        h.ok(.by("root", .addChild("b", to: "root")))
        h.ok(.by("root", .transition(in: "root", from: "a", to: "b", duration: 0.5)))
        // Presentation arrives with SPEC §7; until then the link is set directly to reach its containment check.
        h.state.controllers["p"]?.presenting = "root"
        return h
    }

    static let cases: [(ContainmentError.Code, Request)] = [
        (.selfChild, .by("c", .addChild("c", to: "c"))),
        (.cycle, .by("a", .addChild("root", to: "a"))),
        (.presentedHasParent, .by("c", .addChild("p", to: "c"))),
        (.unknownController, .by("c", .addChild("ghost", to: "c"))),
        (.notAChild, .by("c", .didMove("a", toParent: "c"))),
        (.outOfOrder, .by("root", .didMove("a", toParent: "root"))),
        (.frameAuthority, .by("a", .setFrame(.root("a"), phone))),
        (.foreignView, .by("root", .setAlpha(.root("a"), 0.5))),
        (.hierarchyInconsistency, .by("c", .addSubview(.root("a"), to: .root("c")))),
        (.unbalancedAppearance, .system(.endAppearance("c"))),
        (.noCommonParent, .by("root", .transition(in: "root", from: "b", to: "c"))),
        (.sameController, .by("root", .transition(in: "root", from: "b", to: "b"))),
        (.notInHierarchy, .by("c", .transition(in: "c", from: "x", to: "y"))),
        (.transitionInProgress, .by("root", .removeFromParent("a"))),
        (.duplicateID, .system(.create("a", kind: .content))),
        (.unauthorized, .by("c", .addChild("c", to: "root"))),
        (.malformed, .system(.resizeWindow("main", size: Size(width: .infinity, height: 1)))),
        (.malformed, .system(.resizeWindow("main", size: Size(width: 1e300, height: 1e300)))),
        (.unknownView, .by("c", .removeFromSuperview(ViewID(owner: "c", name: "none")))),
        (.unknownWindow, .system(.resizeWindow("none", size: Size(width: 1, height: 1)))),
        (.indexOutOfRange, .by("c", .addSubview(ViewID(owner: "c", name: "v"), to: .root("c"), at: 9))),
    ]

    @Test(arguments: cases.indices)
    func rejectionChangesNothing(index: Int) {
        let (code, request) = Self.cases[index]
        var h = Self.world()
        if code == .notInHierarchy {
            h.create("x", "y")
            h.ok(.by("c", .addChild("x", to: "c")), .by("c", .addChild("y", to: "c")))
        }
        h.fails(code, request)
    }

    @Test func everyCodeOfSectionsOneToSixIsCovered() {
        let covered = Set(Self.cases.map(\.0))
        let model: [ContainmentError.Code] = [
            .selfChild, .cycle, .presentedHasParent, .unknownController, .notAChild, .outOfOrder, .frameAuthority,
            .foreignView, .hierarchyInconsistency, .unbalancedAppearance, .noCommonParent, .sameController,
            .notInHierarchy, .transitionInProgress, .duplicateID, .unauthorized, .malformed, .unknownView,
            .unknownWindow,
        ]
        #expect(Set(model).isSubset(of: covered))
        #expect(ContainmentError.Code.all.count == Set(ContainmentError.Code.all).count)
        for code in ContainmentError.Code.all { #expect(ContainmentError.Code(named: code.rawValue) == code) }
    }
}
