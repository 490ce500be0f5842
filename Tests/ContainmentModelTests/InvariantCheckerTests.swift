import ContainmentModel
import ContainmentWorkload
import Testing

/// The invariant checker judges a history from its events alone: it accepts the model's own, and finds a forged
/// event that breaks a rule.
@Suite struct InvariantCheckerTests {
    /// Applies each request and has the checker follow its events; returns the problems found.
    static func follow(
        _ requests: [Request],
        state: inout ContainmentState,
        checker: inout InvariantChecker
    ) throws -> [String] {
        var problems: [String] = []
        for request in requests {
            let before = state
            let events = try state.apply(batch: [request])
            let after = state
            problems += checker.follow(
                events,
                properties: { before.controllers[$0]?.properties },
                presentation: { after.presentations[$0] }
            )
        }
        return problems
    }

    /// SPEC §12 (seed 002): a tap outside a form sheet on a wide window reaches nothing behind it.
    @Test func aTouchThroughASheetIsFound() throws {
        var state = ContainmentState()
        var checker = InvariantChecker()
        let tap = Request.system(.input("main", at: Point(x: 5, y: 5), kind: "tap"))
        let problems = try Self.follow(
            [
                .system(.create("root", kind: .content)), .system(.create("sheet", kind: .content)),
                .system(.attachWindow("main", root: "root", size: Size(width: 1024, height: 768))),
                .by("root", .present("sheet", on: "root", style: .formSheet)),
                tap,
            ],
            state: &state,
            checker: &checker
        )
        #expect(problems.isEmpty, "\(problems)")
        let forged = Event.inputDelivered(
            nil,
            window: "main",
            point: Point(x: 5, y: 5),
            kind: "tap",
            view: .root("root"),
            chain: ["root"]
        )
        #expect(
            checker.follow([forged])
                == ["\(forged): root lies behind sheet, whose presentation takes every touch outside it"]
        )
        // Behind an over… style the same point reaches the root: the model's events and the checker agree.
        #expect(try Self.follow([.by("root", .dismiss("sheet"))], state: &state, checker: &checker).isEmpty)
        let over = try Self.follow(
            [.by("root", .present("sheet", on: "root", style: .overFullScreen))],
            state: &state,
            checker: &checker
        )
        #expect(over.isEmpty)
        #expect(checker.follow([forged]).isEmpty)
    }

    /// SPEC §16: a tap on a row of a More list is its tab container's alone; a chain through the list is forged.
    @Test func aTapOnAMoreRowIsTheTabContainers() throws {
        var state = ContainmentState()
        var checker = InvariantChecker()
        let tabs: [ControllerID] = ["a", "b", "c", "d", "e", "f"]
        let problems = try Self.follow(
            [
                .system(.create("n", kind: .tab)),
                .system(.attachWindow("main", root: "n", size: Size(width: 1024, height: 768))),
            ] + tabs.map { .system(.create($0, kind: .content)) } + [
                .by("n", .setChildren("n", tabs)),
                .system(.input("main", at: Point(x: 1000, y: 740), kind: "tap")),
                .system(.input("main", at: Point(x: 500, y: 100), kind: "tap")),
            ],
            state: &state,
            checker: &checker
        )
        #expect(problems.isEmpty, "\(problems)")
        #expect(state.pushedInMore("n") == "f")
        let row = ViewID(owner: .moreList(of: "n"), name: "row-5")
        let forged = Event.inputDelivered(
            .moreList(of: "n"),
            window: "main",
            point: Point(x: 500, y: 100),
            kind: "tap",
            view: row,
            chain: [.moreList(of: "n"), "n"]
        )
        // Back on the list (the row is in it again), then a forged delivery to the list itself.
        #expect(
            try Self.follow([.by("n", .select("n", .controller("n/more")))], state: &state, checker: &checker).isEmpty
        )
        #expect(checker.follow([forged]) == ["\(forged): a tap on n/more-list/row-5 is n's alone"])
    }
}
