import ContainmentBus
import ContainmentModel
import ContainmentConfig
import ContainmentRuntime
import ContainmentTestKit
import Foundation
import Testing
import ZeroMQ

/// Controller code running in a host acts through the runtime as its controller, and only as that controller: a custom
/// container's code through the simulated runtime; a forged host and concurrent controllers through real processes.
@Suite(.serialized) struct ControllerCodeTests {
    static let topology = """
        window: {name: main, width: 1280, height: 800, root: shell}
        controllers:
          - {id: shell, kind: content, host: shell-host}
          - {id: main, kind: stack, host: ui-host, parent: shell, embed: [0, 0, 1280, 800]}
          - {id: top, kind: content, host: ui-host, parent: main, embed: [0, 0, 10, 10]}
          - {id: bottom, kind: content, host: detail-host, parent: main, embed: [0, 10, 10, 10]}
        """

    static func frames(_ tree: [String: Any]) -> [String: [Double]] {
        var frames: [String: [Double]] = [:]
        for controller in tree["controllers"] as? [[String: Any]] ?? [] {
            if let id = controller["id"] as? String, let frame = controller["frame"] as? [Double] { frames[id] = frame }
        }
        return frames
    }

    /// The frame of `id`'s root view, as `[x, y, width, height]`.
    static func frame(_ id: ControllerID, in snapshot: TreeSnapshot) -> [Double]? {
        snapshot.controller(id)?.frame.map { [$0.x, $0.y, $0.width, $0.height] }
    }

    /// The `stack` container's own code, in its host, lays out its children (in two other hosts, simulated) when its
    /// size changes.
    @Test func aCustomContainerLaysOutItsChildrenAsTheirParent() async throws {
        try await withSimulatedTopology(Self.topology) { runtime in
            try await runtime.perform([
                .by("shell", .setFrame(.root("main"), Rect(x: 0, y: 0, width: 600, height: 400)))
            ])
            // The container's code answers the resize in its own time: once nothing moves, it has.
            try await runtime.runUntilIdle()
            let snapshot = try await runtime.snapshot()
            #expect(Self.frame("top", in: snapshot) == [0, 0, 600, 200])
            #expect(Self.frame("bottom", in: snapshot) == [0, 200, 600, 200])
            // It was the container that set them, from its host, as itself.
            let events = try await runtime.events().map(\.description)
            #expect(events.contains("frameChanged(bottom) view=bottom frame=0,200,600,200 by=main"), "\(events)")
            #expect(
                try await runtime.describedCallbacks(of: "bottom").suffix(2) == [
                    "viewWillLayoutSubviews(bottom)", "viewDidLayoutSubviews(bottom)",
                ]
            )
        }
    }

    /// Seed 000's public methods: `invoke main add C` reaches the stack's code in its host, which embeds C and lays its
    /// children out again, as itself; a verb its host did not register is refused before the model.
    @Test func aCustomContainerAnswersItsVerbs() async throws {
        try await withSimulatedTopology(Self.topology) { runtime in
            try await runtime.perform([.create("extra", kind: .content)], hosts: ["extra": "detail-host"])
            let add = await runtime.described([.system(.invoke("main", verb: "add", arguments: ["extra"]))])
            #expect(add == ["verbInvoked(main) verb=add arguments=extra by=system"])
            try await runtime.runUntilIdle()
            var snapshot = try await runtime.snapshot()
            #expect(Self.frame("top", in: snapshot) == [0, 0, 1280, 266.6666666666667])
            #expect(Self.frame("extra", in: snapshot) == [0, 533.3333333333334, 1280, 266.6666666666667])
            let unknown = await runtime.described([.system(.invoke("main", verb: "shuffle"))])
            #expect(
                unknown == [
                    "unknownVerb: main, a stack run by host ui-host, has no verb shuffle; its verbs: add, remove."
                ]
            )
            let content = await runtime.described([.system(.invoke("top", verb: "add", arguments: ["extra"]))])
            #expect(
                content.first?.hasPrefix(
                    "unknownVerb: top, a content run by host ui-host, has no verb add; its verbs: none."
                ) == true,
                "\(content)"
            )
            let remove = await runtime.described([.by("shell", .invoke("main", verb: "remove", arguments: ["top"]))])
            #expect(remove == ["verbInvoked(main) verb=remove arguments=top by=shell"])
            try await runtime.runUntilIdle()
            snapshot = try await runtime.snapshot()
            #expect(Self.frame("bottom", in: snapshot) == [0, 0, 1280, 400])
            #expect(Self.frame("extra", in: snapshot) == [0, 400, 1280, 400])
        }
    }

    /// A host may act only as a controller it runs: the supervisor knows which controller is asking.
    @Test func aHostCannotActAsAControllerItDoesNotRun() async throws {
        // The topology names a remote host that runs nothing (a name it does not name is refused at its Hello).
        try await RuntimeFixture.with(
            topology: "hosts: [shell-host, ui-host, detail-host, {name: impostor, remote: true}]\n" + Self.topology
        ) { runtime in
            let (context, impostor) = try runtime.rawDealer()
            // It registers as that host, which runs nothing.
            let welcome = try impostor.exchange(.hello("impostor"))
            guard case .welcome(let welcomed) = welcome?.body else {
                Issue.record("no welcome: \(String(describing: welcome))")
                return
            }
            #expect(welcomed.controllers.isEmpty)
            // Acting as the shell — which may set main's frame — is refused: this host does not run the shell.
            let command = WireCommand(
                Request.by("shell", .setFrame(.root("main"), Rect(x: 0, y: 0, width: 1, height: 1)))
            )
            let reply = try impostor.exchange(
                .with {
                    $0.requestID = 2
                    $0.commands = .with { $0.commands = [command] }
                }
            )
            guard case .error(let error) = reply?.body else {
                Issue.record("accepted: \(String(describing: reply))")
                return
            }
            #expect(error.code == "unauthorized")
            #expect(error.message == "Host impostor may act only as a controller it runs, not as shell.")
            impostor.close()
            context.terminate()
            #expect(Self.frames(try await runtime.treeJSON())["main"] == [0, 0, 1280, 800])
        }
    }

    /// Controllers of one host run concurrently: `slow` takes two seconds over each of its callbacks, and its
    /// neighbour on the same host gets and handles its own meanwhile. (Handled one after the other, the neighbour's
    /// would wait behind the slow one's eight callbacks, 16 s; the inspect waits at most 5 s.)
    @Test func aSlowControllerDelaysOnlyItself() async throws {
        try await RuntimeFixture.with(
            topology: """
                window: {name: main, width: 800, height: 600, root: shell}
                controllers:
                  - {id: shell, kind: content, host: h0}
                  - {id: slow, kind: slow, host: h1, parent: shell, embed: [0, 0, 400, 600]}
                  - {id: quick, kind: content, host: h1, parent: shell, embed: [400, 0, 400, 600]}
                """
        ) { runtime in
            // Both get a new frame and its layout callbacks, the slow one first.
            #expect(try await runtime.containment("ctl", "set-frame", "slow", "0,0,300,600", "--quiet").status == 0)
            #expect(try await runtime.containment("ctl", "set-frame", "quick", "300,0,500,600", "--quiet").status == 0)
            let quick = try await runtime.containment("inspect", "quick")
            #expect(quick.status == 0, "\(quick.stderr)")
            #expect(
                quick.eventDescriptions.suffix(2) == ["viewWillLayoutSubviews(quick)", "viewDidLayoutSubviews(quick)"],
                "\(quick.eventDescriptions)"
            )
            #expect(quick.eventDescriptions.filter { $0.hasPrefix("viewWillLayoutSubviews") }.count == 2)
        }
    }
}
