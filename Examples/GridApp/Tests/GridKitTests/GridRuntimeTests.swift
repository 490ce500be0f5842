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

    /// The same app with the tiles listed under the board: the topology hands them to the board's code.
    static let boardTopology = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().appendingPathComponent("../../Config/board.yaml").standardized.path

    static func frames(_ snapshot: TreeSnapshot, _ ids: [ControllerID]) -> [Rect?] {
        ids.map { snapshot.views[.root($0)]?.frame }
    }

    static let cells = GridLayout.frames(count: 3, in: Rect(x: 0, y: 0, width: 800, height: 600))

    @Test func theGridLaysItsChildrenOutInTwoColumnsAndCountsTheirReports() async throws {
        try await withRuntime(topology: Self.topology) { runtime in
            let client = try runtime.client()
            let grid = try GridController.resolve(id: "board", using: runtime.actorSystem())
            // Each call returns once the grid laid its children out: the frames are there when it returns.
            #expect(try await grid.insert(child: "a", at: 0) == ["a"])
            #expect(try await grid.insert(child: "b", at: 1) == ["a", "b"])
            #expect(try await grid.insert(child: "c", at: 1) == ["a", "c", "b"])
            let snapshot = try await client.snapshot()
            #expect(Self.frames(snapshot, ["a", "c", "b"]) == Self.cells)
            // Each tile's code built its label and laid it out within the commands that showed and placed it.
            for (tile, cell) in zip(["a", "c", "b"] as [ControllerID], Self.cells) {
                #expect(
                    snapshot.views[ViewID(owner: tile, name: "label")]?.frame == TileBehavior.labelFrame(in: cell.size)
                )
            }
            #expect(snapshot.embeddedChildren(of: "board").sorted { $0.rawValue < $1.rawValue } == ["a", "b", "c"])
            // Moving a child: no second embedding, a new layout.
            #expect(try await grid.insert(child: "b", at: 0) == ["b", "a", "c"])
            #expect(Self.frames(try await client.snapshot(), ["b", "a", "c"]) == Self.cells)
            #expect(try await grid.children() == ["b", "a", "c"])
            try await runtime.wait(until: "the board counted three reports") { snapshot in
                snapshot.controller("board")?.properties.title == "Board: 3 tiles appeared"
            }
            // The tile's actor saw the seeds' displayContentController (SPEC §2, §4), then the grid's layout of it (a move
            // keeps its size: no layout callbacks).
            let tile = try await client.callbacks(of: "c").map(\.name)
            #expect(
                tile == [
                    "willMoveToParent", "loadView", "viewDidLoad", "viewWillAppear", "viewDidAppear",
                    "didMoveToParent", "viewWillLayoutSubviews", "viewDidLayoutSubviews",
                ]
            )
            // The calls were ordered and journaled as invokes, each under its method's declared name: the grid's actor
            // received each one in order.
            let calls = try await client.callbacks(of: "board").compactMap { event -> String? in
                guard case .verbInvoked(_, let verb, let arguments, .system) = event, verb.hasSuffix(")") else {
                    return nil
                }
                return "\(verb) \(arguments.joined(separator: " "))"
            }
            #expect(
                calls == [
                    "insert(child:at:) \"a\" 0", "insert(child:at:) \"b\" 1", "insert(child:at:) \"c\" 1",
                    "insert(child:at:) \"b\" 0", "children() ",
                ]
            )
        }
    }

    /// A topology's children of a custom container, through real processes: handed to the board's code, which
    /// embeds and lays them out; each tile gets its didMoveToParent.
    @Test func theTopologysChildrenAreEmbeddedByTheBoardsCode() async throws {
        try await withRuntime(topology: Self.boardTopology) { runtime in
            let client = try runtime.client()
            try await runtime.wait(until: "the board embedded and laid out its three tiles") { snapshot in
                snapshot.embeddedChildren(of: "board") == ["a", "b", "c"]
                    && Self.frames(snapshot, ["a", "b", "c"]) == Self.cells
            }
            let grid = try GridController.resolve(id: "board", using: runtime.actorSystem())
            #expect(try await grid.children() == ["a", "b", "c"])
            #expect(try await client.callbacks(of: "b").map(\.name).contains("didMoveToParent"))
        }
    }

    @Test func theStringVerbReachesTheSameMethod() async throws {
        try await withRuntime(topology: Self.topology) { runtime in
            let client = try runtime.client()
            try await client.perform([.invoke("board", verb: "insert", arguments: ["a", "0"])])
            try await client.perform([.invoke("board", verb: "insert", arguments: ["b", "0"])])
            try await runtime.wait(until: "b, a are laid out") { snapshot in
                Self.frames(snapshot, ["b", "a"])
                    == Array(GridLayout.frames(count: 2, in: Rect(x: 0, y: 0, width: 800, height: 600)))
            }
            #expect(
                try await GridController.resolve(id: "board", using: runtime.actorSystem()).children() == ["b", "a"]
            )
        }
    }

    /// What a program without GridKit's types does — another language's client, an operator's tool: it lists the
    /// grid's methods with their schemas and calls one by its declared name, with JSON.
    @Test func theGridsMethodsAreListedAndCalledByName() async throws {
        try await withRuntime(topology: Self.topology) { runtime in
            let client = try runtime.client()
            let board = try await client.methods(of: "board")
            #expect(board.kind == "grid")
            #expect(Set(board.methods.map(\.name)) == ["insert(child:at:)", "feature(child:)", "children()"])
            let insert = try #require(board.methods.first { $0.name == "insert(child:at:)" })
            #expect(insert.parameters.map(\.label) == ["child", "at"])
            #expect(insert.result == #"{"items":{"type":"string"},"type":"array"}"#)
            let arguments = try insert.arguments(fromJSON: #"{"child": "a", "at": 0}"#)
            #expect(try await client.call("board", method: insert.name, arguments: arguments) == #"["a"]"#)
            #expect(try await client.call("board", method: "children()", arguments: []) == #"["a"]"#)
        }
    }

    @Test func aTypedCallsErrorsAreTyped() async throws {
        try await withRuntime(topology: Self.topology) { runtime in
            let system = try runtime.actorSystem()
            let grid = try GridController.resolve(id: "board", using: system)
            // The method's own error, and the runtime's refusal of what it did, reach the caller as they were thrown.
            await #expect(throws: RemoteError.self) { try await grid.insert(child: "a", at: -1) }
            do {
                _ = try await grid.insert(child: "nobody", at: 0)
                Issue.record("a controller that does not exist was embedded")
            } catch let error as RemoteError {
                #expect(error.error.code == .unknownController)
            }
            do {
                _ = try await grid.insert(child: "a", at: -1)
            } catch let error as RemoteError {
                #expect(error.error.code == .indexOutOfRange)
            }
            #expect(try await grid.children() == [])
            // SPEC §16's child protocol: the grid requires `tapped` of its children, which a content controller lacks.
            try await runtime.client().perform([.create("plain", kind: .content)])
            do {
                _ = try await grid.insert(child: "plain", at: 0)
                Issue.record("a child without the grid's protocol was embedded")
            } catch let error as RemoteError {
                #expect(error.error.code == .protocolMismatch)
                #expect(
                    error.error.message
                        == "board, a grid, requires of its children the verbs tapped; plain, a content, lacks tapped."
                )
            }
            #expect(try await grid.children() == [])
            // A controller that is gone: refused by the rules before any host sees the call.
            do {
                _ = try await GridController.resolve(id: "gone", using: system).children()
                Issue.record("a call of a controller that does not exist was answered")
            } catch let error as RemoteError {
                #expect(error.error.code == .unknownController)
                #expect(error.commandID != 0)
            }
            // A tile is not a grid: its host has no such method.
            do {
                _ = try await GridController.resolve(id: "a", using: system).children()
                Issue.record("a tile answered a grid's method")
            } catch let error as RemoteError {
                #expect(error.error.code == .unknownVerb)
                #expect(error.error.message == "a, a tile, has no typed methods.")
            }
        }
    }

    @Test func aRefusedVerbAndAnUnknownKindAreTypedErrors() async throws {
        try await withRuntime(topology: Self.topology) { runtime in
            let client = try runtime.client()
            await #expect(throws: RemoteError.self) {
                try await client.perform([.invoke("board", verb: "shuffle")])
            }
            do {
                try await client.perform([.create("t", kind: "timeline")], hosts: ["t": "grid-host"])
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
            try await client.perform([.invoke("board", verb: "insert", arguments: ["b", "0"])])
            try await client.perform([.invoke("board", verb: "insert", arguments: ["a", "1"])])
            try await runtime.wait(until: "b, a are laid out") { snapshot in
                Self.frames(snapshot, ["b", "a"])
                    == Array(GridLayout.frames(count: 2, in: Rect(x: 0, y: 0, width: 800, height: 600)))
            }
            // The grid published its order: tree, the inspector and every subscriber see it.
            #expect(try await client.snapshot().controller("board")?.properties.state == ["order": "b,a"])
            // The system rewrites it (the frames still say b, a), so that the new process shows which it reads.
            try await client.perform([.setProperties("board", [.state(["order": "a,b"])])])
            let first = try #require(runtime.pid(ofHost: "grid-host"))
            kill(first, SIGKILL)
            try await runtime.wait(until: "grid-host is up again in a new process") { snapshot in
                snapshot.hosts.contains { $0.name == "grid-host" && $0.up && $0.pid != first }
            }
            // The new process read its order back from its published state: the typed call places c between a and b.
            let grid = try GridController.resolve(id: "board", using: runtime.actorSystem())
            #expect(try await grid.insert(child: "c", at: 1) == ["a", "c", "b"])
            let snapshot = try await client.snapshot()
            #expect(Self.frames(snapshot, ["a", "c", "b"]) == Self.cells)
            #expect(snapshot.controller("board")?.properties.state == ["order": "a,c,b"])
        }
    }
}
