import ContainmentClient
import ContainmentModel
import ContainmentTestKit
import Foundation
import GridKit
import Testing

/// The app through a real runtime: the supervisor (in the test's process) starts both hosts from the app's own
/// executable (`swift build` first: `swift test` builds it), the grid lays its children out, the tiles report to it,
/// and a grid host killed with SIGKILL is started again and finds its order again.
@Suite(.serialized)
struct GridRuntimeTests {
    static let topology = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().appendingPathComponent("../../Config/grid.yaml").standardized.path

    static func frames(_ snapshot: TreeSnapshot, _ ids: [ControllerID]) -> [Rect?] {
        ids.map { snapshot.views[.root($0)]?.frame }
    }

    static let cells = GridLayout.frames(count: 3, in: Rect(x: 0, y: 0, width: 800, height: 600))

    @Test func theGridLaysItsChildrenOutInTwoColumnsAndCountsTheirReports() async throws {
        try await withRuntime(topology: Self.topology) { runtime in
            let client = try runtime.client()
            try client.perform([.invoke("board", verb: "insert", arguments: ["a", "0"])])
            try client.perform([.invoke("board", verb: "insert", arguments: ["b", "1"])])
            try client.perform([.invoke("board", verb: "insert", arguments: ["c", "1"])])
            let snapshot = try await runtime.wait(until: "a, c, b are laid out") { snapshot in
                Self.frames(snapshot, ["a", "c", "b"]) == Self.cells
            }
            #expect(snapshot.embeddedChildren(of: "board").sorted { $0.rawValue < $1.rawValue } == ["a", "b", "c"])
            try await runtime.wait(until: "the board counted three reports") { snapshot in
                snapshot.controller("board")?.properties.title == "Board: 3 tiles appeared"
            }
            // The tile's actor saw the seeds' displayContentController (SPEC §2, §4), then the grid's layout of it.
            #expect(
                try client.callbacks(of: "c").map(\.name) == [
                    "willMoveToParent", "loadView", "viewDidLoad", "viewWillAppear", "viewDidAppear",
                    "didMoveToParent", "viewWillLayoutSubviews", "viewDidLayoutSubviews",
                ]
            )
        }
    }

    @Test func aRefusedVerbAndAnUnknownKindAreTypedErrors() async throws {
        try await withRuntime(topology: Self.topology) { runtime in
            let client = try runtime.client()
            #expect(throws: RemoteError.self) {
                try client.perform([.invoke("board", verb: "shuffle")])
            }
            do {
                try client.perform([.create("t", kind: "timeline")], hosts: ["t": "grid-host"])
                Issue.record("a kind no host registered was created")
            } catch let error as RemoteError {
                #expect(error.error.code == .unknownKind)
                #expect(error.error.message.contains("grid-host: grid, tile"))
            }
        }
    }

    @Test func aKilledGridHostIsStartedAgainAndKeepsItsOrder() async throws {
        try await withRuntime(topology: Self.topology) { runtime in
            let client = try runtime.client()
            try client.perform([.invoke("board", verb: "insert", arguments: ["b", "0"])])
            try client.perform([.invoke("board", verb: "insert", arguments: ["a", "1"])])
            try await runtime.wait(until: "b, a are laid out") { snapshot in
                Self.frames(snapshot, ["b", "a"])
                    == Array(GridLayout.frames(count: 2, in: Rect(x: 0, y: 0, width: 800, height: 600)))
            }
            let first = try #require(runtime.pid(ofHost: "grid-host"))
            kill(first, SIGKILL)
            try await runtime.wait(until: "grid-host is up again in a new process") { snapshot in
                snapshot.hosts.contains { $0.name == "grid-host" && $0.up && $0.pid != first }
            }
            try client.perform([.invoke("board", verb: "insert", arguments: ["c", "1"])])
            try await runtime.wait(until: "b, c, a are laid out") { snapshot in
                Self.frames(snapshot, ["b", "c", "a"]) == Self.cells
            }
        }
    }
}
