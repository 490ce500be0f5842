import ContainmentClient
import ContainmentModel
import ContainmentTestKit
import Foundation
import Testing

/// SPEC §15's answers from controller code (the first test in the simulated runtime, the others through real host
/// processes): a form's `loadView` builds two subviews and
/// its `viewWillLayoutSubviews` places them, both within the command that shows it (before `viewDidLoad`,
/// `viewDidLayoutSubviews`); a book's code names the page a swipe turns to, creating it; a host that is stopped
/// (SIGSTOP) holds a command no longer than `answerTimeoutMs`, nor past the moment it is declared down. Every actor
/// receives its callbacks in the model's order.
@Suite(.serialized) struct AnsweringCodeTests {
    static let topology = """
        window: {name: main, width: 800, height: 600, root: root}
        \(OwnHostTopology.hosts("h0", "h1"))controllers:
          - {id: root, kind: content, host: h0}
          - {id: form, kind: form, host: h1}
          - {id: late, kind: form, host: h1}
          - {id: book, kind: book, host: h1}
          - {id: pages, kind: page, host: h0, dataSource: book, pageStyle: scroll}
          - {id: book-p1, kind: content, host: h0}
        """

    /// The topology above, its hosts simulated (in the test's process, `containment host`'s kinds).
    static let simulatedTopology = topology.replacingOccurrences(
        of: OwnHostTopology.hosts("h0", "h1"),
        with: "hosts: [h0, h1]\n"
    )

    static let left = Rect(x: 0, y: 0, width: 400, height: 600)
    static let right = Rect(x: 400, y: 0, width: 400, height: 600)

    /// The position of the first event described by `description`, recording an issue when there is none.
    static func position(of description: String, in events: [Event]) -> Int {
        guard let index = events.firstIndex(where: { $0.description == description }) else {
            Issue.record("no \(description) in \(events.map(\.description))")
            return -1
        }
        return index
    }

    /// Shows the form `late` (run by h1) in root while h1 is stopped; h1 goes on once the command is answered.
    static func showLateWithH1Stopped(_ runtime: TestRuntime, _ client: RuntimeClient) async throws -> [Event] {
        let pid = try await stoppedHost("h1", of: runtime, client)
        defer { kill(pid, SIGCONT) }
        return try await client.perform(SeedListings.displayContentController("late", in: "root", frame: left))
    }

    /// Stops host `name` with SIGSTOP — the process the supervisor knows as that host — and returns its pid once the
    /// kernel reports it stopped.
    static func stoppedHost(_ name: String, of runtime: TestRuntime, _ client: RuntimeClient) async throws -> Int32 {
        let pid = try #require(runtime.pid(ofHost: name))
        let known = try await client.snapshot().hosts.first { $0.name == name }
        #expect(
            known?.pid == pid && known?.up == true,
            "the pid file says \(pid), the supervisor \(String(describing: known))"
        )
        #expect(kill(pid, SIGSTOP) == 0, "kill(\(pid), SIGSTOP) failed: errno \(errno)")
        // /proc/PID/stat: "pid (comm) STATE …"; T is stopped.
        let stopped = Poll.blockingUntil {
            let stat = (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)) ?? ""
            return stat.split(separator: ")").last?.split(separator: " ").first == "T"
        }
        if stopped { return pid }
        Issue.record("host \(name) (pid \(pid)) is not stopped")
        return pid
    }

    @Test func aFormsCodeBuildsAndLaysOutItsViewsWithinTheCommandAndABookNamesTheNextPage() async throws {
        try await withSimulatedTopology(Self.simulatedTopology) { runtime in
            // The form is shown: its code's subviews are in before viewDidLoad, their frames before
            // viewDidLayoutSubviews — in the reply to the very command.
            let shown = try await runtime.perform(
                SeedListings.displayContentController("form", in: "root", frame: Self.left)
            )
            let order = [
                "loadView(form)",
                "viewInserted(form) view=form/header superview=form index=0",
                "viewInserted(form) view=form/body superview=form index=1",
                "viewDidLoad(form)",
                "viewWillLayoutSubviews(form)",
                "frameChanged(form) view=form/header frame=0,0,400,44 by=form",
                "frameChanged(form) view=form/body frame=0,44,400,556 by=form",
                "viewDidLayoutSubviews(form)",
            ].map { Self.position(of: $0, in: shown) }
            #expect(order == order.sorted() && !order.contains(-1), "\(shown.map(\.description))")
            #expect(!shown.contains { if case .answerTimedOut = $0 { true } else { false } })
            let tree = try await runtime.snapshot()
            #expect(
                tree.views[ViewID(owner: "form", name: "body")]?.frame == Rect(x: 0, y: 44, width: 400, height: 556)
            )

            // A page container whose data source is the book: a swipe to the left asks the book's code (on h1) for
            // the page after book-p1; it creates book-p2 and names it.
            var events = shown
            events += try await runtime.perform(
                SeedListings.displayContentController("pages", in: "root", frame: Self.right)
            )
            events += try await runtime.perform([Request(.setPages("pages", ["book-p1"]), by: .controller("pages"))])
            let swipe = Command.input("main", at: Point(x: 600, y: 300), kind: "swipe", direction: .left)
            let turned = try await runtime.perform([swipe])
            #expect(turned.contains(.controllerCreated("book-p2", kind: .content)))
            #expect(turned.last?.description == "pagesChanged(pages) pages=book-p2 direction=forward")
            let after = try await runtime.snapshot()
            #expect(after.controller("pages")?.children == ["book-p2"])
            #expect(after.controller("book-p2")?.host == "h1", "run where the code that made it runs")
            // And back: the page before book-p2 exists, so the code names it without creating it.
            let back = try await runtime.perform([
                .input("main", at: Point(x: 600, y: 300), kind: "swipe", direction: .right)
            ])
            #expect(!back.contains { if case .controllerCreated = $0 { true } else { false } })
            #expect(back.last?.description == "pagesChanged(pages) pages=book-p1 direction=reverse")
            events += turned + back
            try await runtime.expectCallbacks(of: ["form", "pages", "book-p1", "book-p2"], as: events)
        }
    }

    @Test func aStoppedHostHoldsACommandForTheAnswerTimeoutOnly() async throws {
        // Heartbeats missed for a minute before h1 is declared down: under load, stopping h1 and sending the command
        // took more than the default 2 s once, and the command was refused for a host down, not held.
        let settings = "answerTimeoutMs: 300\nheartbeatTimeoutMs: 60000\n"
        try await OwnHostTopology.withRuntime(Self.topology, settings: settings) { runtime in
            let client = try runtime.client()
            // h1 stopped: it answers nothing, but its heartbeats are not missed yet: the command goes on after 300 ms
            // with nothing from the form's code, and the events say so.
            let shown = try await Self.showLateWithH1Stopped(runtime, client)
            #expect(shown.contains(.answerTimedOut("late", question: .loadView)))
            #expect(shown.contains(.answerTimedOut("late", question: .viewWillLayoutSubviews)))
            #expect(!shown.contains { $0.description.hasPrefix("viewInserted(late) view=late/header") })
            // Its late answers are dropped; its actor still receives the callbacks, in order.
            try await OwnHostTopology.expectCallbacks(of: ["late"], as: shown, client)
        }
    }

    @Test func aHostDeclaredDownWhileAskedIsNotWaitedFor() async throws {
        // An answer timeout far past the client's request timeout (5 s): the command is answered in time only because
        // the supervisor stops waiting for a host it declares down (heartbeats missed for 2 s).
        try await OwnHostTopology.withRuntime(Self.topology, settings: "answerTimeoutMs: 60000\n") { runtime in
            let client = try runtime.client()
            let shown = try await Self.showLateWithH1Stopped(runtime, client)
            #expect(shown.contains(.answerTimedOut("late", question: .loadView)))
            let root = try #require(try await client.snapshot().controller("root"))
            #expect(root.children == ["late"])
        }
    }
}
