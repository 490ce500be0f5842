import ContainmentClient
import ContainmentModel
import ContainmentTestKit
import GridKit
import Testing

/// The app in memory (`withSimulatedRuntime`): the real supervisor core and the app's own kinds in the test's process,
/// no sockets, no processes, no waiting on a clock — `runUntilIdle()` returns once every message has moved and every
/// controller's code is done, so what follows it is checked at once.
@Suite struct GridSimulatedTests {
    static let cells = GridLayout.frames(count: 3, in: Rect(x: 0, y: 0, width: 800, height: 600))

    @Test(arguments: [1, 2, 3] as [UInt64])
    func theGridLaysItsChildrenOutAndCountsTheirReports(seed: UInt64) async throws {
        try await withSimulatedRuntime(topology: GridRuntimeTests.topology, kinds: GridKinds.registry, seed: seed) {
            runtime in
            let grid = try GridController.resolve(id: "board", using: runtime.actorSystem())
            #expect(try await grid.insert(child: "a", at: 0) == ["a"])
            #expect(try await grid.insert(child: "b", at: 1) == ["a", "b"])
            #expect(try await grid.insert(child: "c", at: 1) == ["a", "c", "b"])
            try await runtime.runUntilIdle()
            let snapshot = try await runtime.snapshot()
            #expect(GridRuntimeTests.frames(snapshot, ["a", "c", "b"]) == Self.cells)
            for (tile, cell) in zip(["a", "c", "b"] as [ControllerID], Self.cells) {
                #expect(
                    snapshot.views[ViewID(owner: tile, name: "label")]?.frame == TileBehavior.labelFrame(in: cell.size)
                )
            }
            // Idle means every tile's report reached the board and its code set the title: no waiting for it.
            #expect(snapshot.controller("board")?.properties.title == "Board: 3 tiles appeared")
            #expect(
                try await runtime.callbacks(of: "c").map(\.name) == [
                    "willMoveToParent", "loadView", "viewDidLoad", "viewWillAppear", "viewDidAppear",
                    "didMoveToParent", "viewWillLayoutSubviews", "viewDidLayoutSubviews",
                ]
            )
        }
    }

    /// A topology's children of a custom container are handed to its code (`setViewControllers`, by the system): the
    /// board embeds and lays them out in file order, and each tile gets the seeds' embedding callbacks, didMoveToParent
    /// among them.
    @Test(arguments: [1, 2] as [UInt64])
    func theTopologysChildrenAreEmbeddedByTheBoardsCode(seed: UInt64) async throws {
        try await withSimulatedRuntime(
            topology: GridRuntimeTests.boardTopology,
            kinds: GridKinds.registry,
            seed: seed
        ) { runtime in
            try await runtime.runUntilIdle()
            let snapshot = try await runtime.snapshot()
            #expect(snapshot.embeddedChildren(of: "board") == ["a", "b", "c"])
            #expect(GridRuntimeTests.frames(snapshot, ["a", "b", "c"]) == Self.cells)
            let handed = try await runtime.callbacks(of: "board").compactMap(ChildAssignment.children(in:))
            #expect(handed == [["a", "b", "c"]])
            // b is laid out twice: in a row of two, then in the grid of three once c came.
            #expect(
                try await runtime.callbacks(of: "b").map(\.name) == [
                    "willMoveToParent", "loadView", "viewDidLoad", "viewWillAppear", "viewDidAppear",
                    "didMoveToParent", "viewWillLayoutSubviews", "viewDidLayoutSubviews", "viewWillLayoutSubviews",
                    "viewDidLayoutSubviews",
                ]
            )
            let grid = try GridController.resolve(id: "board", using: runtime.actorSystem())
            #expect(try await grid.children() == ["a", "b", "c"])
            #expect(snapshot.controller("board")?.properties.title == "Board: 3 tiles appeared")
        }
    }

    /// The same verb called later (as `ctl invoke board setViewControllers c a` does), though the grid's host did
    /// not register it: the board embeds what it did not have, after those it has.
    @Test func handingChildrenLaterIsTheSameVerb() async throws {
        try await withSimulatedRuntime(topology: GridRuntimeTests.topology, kinds: GridKinds.registry) { runtime in
            try await runtime.runUntilIdle()
            let grid = try GridController.resolve(id: "board", using: runtime.actorSystem())
            #expect(try await grid.insert(child: "b", at: 0) == ["b"])
            try await runtime.perform([ChildAssignment.command("board", ["c", "a"])])
            try await runtime.runUntilIdle()
            #expect(try await grid.children() == ["b", "c", "a"])
            #expect(try await runtime.snapshot().embeddedChildren(of: "board").count == 3)
        }
    }

    /// A featured tile is half the grid's width and centred, by the grid's constraints, within the call; its cell still
    /// gives its top and height; unfeatured, the next layout puts it back in its cell.
    @Test func aFeaturedTileIsHalfTheGridsWidthAndCentredByConstraints() async throws {
        try await withSimulatedRuntime(topology: GridRuntimeTests.topology, kinds: GridKinds.registry) { runtime in
            let grid = try GridController.resolve(id: "board", using: runtime.actorSystem())
            #expect(try await grid.insert(child: "a", at: 0) == ["a"])
            #expect(try await grid.insert(child: "b", at: 1) == ["a", "b"])
            let cells = GridLayout.frames(count: 2, in: Rect(x: 0, y: 0, width: 800, height: 600))
            try await grid.feature(child: "b")
            var snapshot = try await runtime.snapshot()
            #expect(
                snapshot.views[.root("b")]?.frame == Rect(x: 200, y: cells[1].y, width: 400, height: cells[1].height)
            )
            #expect(snapshot.views[.root("a")]?.frame == cells[0])
            // It publishes its order and its feature, for tree, the inspector and every subscriber.
            #expect(snapshot.controller("board")?.properties.state == ["order": "a,b", "featured": "b"])
            // A tile is not the grid's to feature unless it is its child: refused, the feature kept.
            await #expect(throws: RemoteError.self) { try await grid.feature(child: "c") }
            snapshot = try await runtime.snapshot()
            #expect(snapshot.views[.root("b")]?.frame.width == 400)
            // Featuring another moves the feature.
            try await grid.feature(child: "a")
            #expect(try await runtime.snapshot().views[.root("a")]?.frame.x == 200)
            try await grid.feature(child: nil)
            #expect(try await grid.insert(child: "b", at: 1) == ["a", "b"])
            snapshot = try await runtime.snapshot()
            #expect(snapshot.controller("board")?.properties.state == ["order": "a,b"])
            #expect(GridRuntimeTests.frames(snapshot, ["a", "b"]) == cells)
        }
    }

    /// The grid's host cut off from the supervisor: the verb is journaled, but the grid's code does not see it until
    /// the cut heals. Past its heartbeat timeout (virtual time) the host is declared down; healed, it greets again and
    /// gets what it missed.
    @Test func aGridHostCutOffCatchesUpWhenTheCutHeals() async throws {
        try await withSimulatedRuntime(topology: GridRuntimeTests.topology, kinds: GridKinds.registry) { runtime in
            try await runtime.partition(host: "grid-host")
            try await runtime.perform([.invoke("board", verb: "insert", arguments: ["a", "0"])])
            try await runtime.runUntilIdle()
            #expect(try await runtime.snapshot().embeddedChildren(of: "board") == [])
            try await runtime.advance(by: .seconds(3))
            #expect(try await runtime.snapshot().hosts.first { $0.name == "grid-host" }?.up == false)
            try await runtime.heal(host: "grid-host")
            try await runtime.advance(by: .seconds(1))
            let healed = try await runtime.snapshot()
            #expect(healed.hosts.first { $0.name == "grid-host" }?.up == true)
            #expect(healed.embeddedChildren(of: "board") == ["a"])
            #expect(healed.controller("board")?.properties.title == "Board: 1 tiles appeared")
        }
    }

    @Test func aCrashedSupervisorRecoversFromItsJournalAndTheGridGoesOn() async throws {
        try await withSimulatedRuntime(topology: GridRuntimeTests.topology, kinds: GridKinds.registry) { runtime in
            let grid = try GridController.resolve(id: "board", using: runtime.actorSystem())
            #expect(try await grid.insert(child: "b", at: 0) == ["b"])
            try await runtime.crashSupervisor()
            let recovered = try await runtime.snapshot()
            #expect(recovered.embeddedChildren(of: "board") == ["b"])
            #expect(recovered.hosts.filter(\.up).count == 2, "both hosts greeted the new supervisor")
            // The grid's actor lived on (its host did not restart): it keeps its order.
            #expect(try await grid.insert(child: "a", at: 1) == ["b", "a"])
            try await runtime.runUntilIdle()
            #expect(
                GridRuntimeTests.frames(try await runtime.snapshot(), ["b", "a"])
                    == GridLayout.frames(count: 2, in: Rect(x: 0, y: 0, width: 800, height: 600))
            )
        }
    }
}
