import ContainmentModel
import Testing

/// SPEC §15, answers from controller code: what `loadView`, `viewWillLayoutSubviews` and a data source's page
/// questions return joins the transaction that asked, before the callback that follows.
@Suite struct AnswerTests {
    static let builder = Kind("builder")
    /// The `builder` kind's code answers all four questions.
    static let answering = [builder: Set(Question.Name.allCases)]

    /// root on window `main`, and a `builder` controller `b` not yet on screen.
    static func scene() -> Harness {
        var h = Harness()
        h.window()
        h.ok(.system(.create("b", kind: builder)))
        return h
    }

    /// What `b`'s loadView builds: two subviews with their frames.
    static let twoSubviews: [Command] = [
        .addSubview(ViewID(owner: "b", name: "title"), to: .root("b")),
        .setFrame(ViewID(owner: "b", name: "title"), Rect(x: 0, y: 0, width: 320, height: 44)),
        .addSubview(ViewID(owner: "b", name: "list"), to: .root("b")),
    ]

    @Test func aQuestionWithNoAnswerYetChangesNothingAndNamesTheQuestion() throws {
        var h = Self.scene()
        let before = h.state
        let applied = try h.state.apply(
            batch: SeedListings.displayContentController("b", in: "root", frame: phone),
            answers: Answers(answering: Self.answering)
        )
        // Every question met is asked at once: the layout of b's new root view too.
        #expect(applied == .unanswered([.loadView("b"), .viewWillLayoutSubviews("b", size: phone.size)]))
        #expect(h.state == before)
    }

    @Test func loadViewsCommandsRunBeforeViewDidLoadInTheSameTransaction() throws {
        var h = Self.scene()
        let applied = try h.state.apply(
            batch: [.by("b", .loadView("b"))],
            answers: Answers(given: [.loadView("b"): Answer(commands: Self.twoSubviews)], answering: Self.answering)
        )
        guard case .committed(let events) = applied else {
            Issue.record("not committed: \(applied)")
            return
        }
        #expect(
            events.map(\.description) == [
                "loadView(b)",
                "viewInserted(b) view=b/title superview=b index=0",
                "frameChanged(b) view=b/title frame=0,0,320,44 by=b",
                "viewInserted(b) view=b/list superview=b index=1",
                "viewDidLoad(b)",
            ]
        )
        #expect(
            h.state.views[.root("b")]?.subviews == [
                ViewID(owner: "b", name: "title"), ViewID(owner: "b", name: "list"),
            ]
        )
    }

    @Test func aTimedOutAnswerIsNothingAndTheEventNamesIt() throws {
        var h = Self.scene()
        let applied = try h.state.apply(
            batch: [.by("b", .loadView("b"))],
            answers: Answers(given: [.loadView("b"): .timedOut], answering: Self.answering)
        )
        #expect(
            applied == .committed([.loadView("b"), .answerTimedOut("b", question: .loadView), .viewDidLoad("b")])
        )
    }

    @Test func anAnswerTheModelRefusesIsTakenBackAndTheCommandGoesOn() throws {
        var h = Self.scene()
        h.create("other")
        let refused: [Command] = [
            .addSubview(ViewID(owner: "b", name: "title"), to: .root("b")),
            // Not b's to set: only other's parent may (R1).
            .setFrame(.root("other"), phone),
        ]
        let applied = try h.state.apply(
            batch: [.by("b", .loadView("b"))],
            answers: Answers(given: [.loadView("b"): Answer(commands: refused)], answering: Self.answering)
        )
        guard case .committed(let events) = applied else {
            Issue.record("not committed: \(applied)")
            return
        }
        #expect(events.map(\.name) == ["loadView", "ruleViolation", "viewDidLoad"])
        #expect(events[1].description.contains("code=foreignView") || events[1].description.contains("code="))
        #expect(
            h.state.views[ViewID(owner: "b", name: "title")] == nil,
            "the answer's first command was taken back too"
        )
        #expect(h.state.views[.root("b")] != nil)
    }

    @Test func layoutsCommandsRunBeforeTheContainersOwnLayoutAndViewDidLayoutSubviews() throws {
        var h = Self.scene()
        h.embed("b", in: "root", frame: phone)
        h.create("c")
        h.ok(.by("b", .addChild("c", to: "b")), .by("b", .addSubview(.root("c"), to: .root("b"))))
        let layout: [Command] = [.setFrame(.root("c"), Rect(x: 0, y: 44, width: 320, height: 436))]
        let applied = try h.state.apply(
            batch: [.by("root", .setFrame(.root("b"), Rect(x: 0, y: 0, width: 320, height: 568)))],
            answers: Answers(
                given: [.viewWillLayoutSubviews("b", size: Size(width: 320, height: 568)): Answer(commands: layout)],
                answering: Self.answering
            )
        )
        guard case .committed(let events) = applied else {
            Issue.record("not committed: \(applied)")
            return
        }
        let names = events.map(\.description)
        let will = try #require(names.firstIndex(of: "viewWillLayoutSubviews(b)"))
        let did = try #require(names.firstIndex(of: "viewDidLayoutSubviews(b)"))
        let frame = try #require(names.firstIndex { $0.hasPrefix("frameChanged(c) view=c frame=0,44,320,436 by=b") })
        #expect(will < frame && frame < did, "\(names)")
        // c's own layout (its size changed) runs inside b's answer.
        #expect(names[frame + 1] == "viewWillLayoutSubviews(c)")
    }

    @Test func aDataSourcesCodeNamesTheNextPage() throws {
        var h = Harness()
        var reader = ControllerProperties()
        reader.pageTransitionStyle = .scroll
        reader.pageDataSource = "b"
        h.ok(.system(.create("b", kind: Self.builder)))
        h.ok(.system(.create("pages", kind: .page, properties: reader)))
        h.create("p1")
        h.ok(.by("pages", .setPages("pages", ["p1"])))
        // The code creates the page it names: the command runs first, as the data source.
        let answer = Answer(commands: [.create("p2", kind: .content)], page: "p2")
        let question = Question.pageAfter("b", page: "p1", container: "pages")
        #expect(
            try h.state.apply(batch: [.by("pages", .nextPage("pages"))], answers: Answers(answering: Self.answering))
                == .unanswered([question])
        )
        let applied = try h.state.apply(
            batch: [.by("pages", .nextPage("pages"))],
            answers: Answers(given: [question: answer], answering: Self.answering)
        )
        guard case .committed(let events) = applied else {
            Issue.record("not committed: \(applied)")
            return
        }
        #expect(events.first?.description == "controllerCreated(p2) kind=content")
        #expect(events.last?.description == "pagesChanged(pages) pages=p2 direction=forward")
        // The code names no page before p2: nothing turns, and nothing is published.
        let before = Question.pageBefore("b", page: "p2", container: "pages")
        #expect(
            try h.state.apply(
                batch: [.by("pages", .previousPage("pages"))],
                answers: Answers(given: [before: .nothing], answering: Self.answering)
            ) == .committed([])
        )
        #expect(h.state.controllers["pages"]?.children == ["p2"])
    }

    @Test func aKindWhoseCodeDoesNotAnswerIsNotAskedAndReplayAsksNobody() throws {
        var h = Self.scene()
        // No answering kinds (a replay): the model answers, as it always has.
        let applied = try h.state.apply(batch: [.by("b", .loadView("b"))], answers: Answers())
        #expect(applied == .committed([.loadView("b"), .viewDidLoad("b")]))
    }
}
