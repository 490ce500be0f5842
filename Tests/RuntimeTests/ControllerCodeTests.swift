import ContainmentBus
import ContainmentModel
import ContainmentRuntime
import Foundation
import Testing
import ZeroMQ

/// Controller code running in a host acts through the runtime as its controller, and only as that controller.
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

    /// The `stack` container's own code, in its host, lays out its children (in two processes) when its size changes.
    @Test func aCustomContainerLaysOutItsChildrenAsTheirParent() async throws {
        try await RuntimeFixture.with(topology: Self.topology) { runtime in
            let resized = try await runtime.containment("ctl", "set-frame", "main", "0,0,600,400")
            #expect(resized.status == 0, "\(resized.stderr)")
            // The container's code answers the resize in its own time: once nothing moves, it has.
            try runtime.waitIdle()
            let frames = Self.frames(try await runtime.treeJSON())
            #expect(frames["top"] == [0, 0, 600, 200])
            #expect(frames["bottom"] == [0, 200, 600, 200])
            // It was the container that set them, from its host, as itself.
            let bottom = try await runtime.containment("inspect", "bottom")
            #expect(
                bottom.eventDescriptions.suffix(2) == [
                    "viewWillLayoutSubviews(bottom)", "viewDidLayoutSubviews(bottom)",
                ]
            )
        }
    }

    /// Seed 000's public methods: `ctl invoke main add C` reaches the stack's code in its host, which embeds C and lays
    /// its children out again, as itself; a verb its host did not register is refused before the model.
    @Test func aCustomContainerAnswersItsVerbs() async throws {
        try await RuntimeFixture.with(topology: Self.topology) { runtime in
            #expect(try await runtime.containment("ctl", "create", "extra", "--host", "detail-host").status == 0)
            let add = try await runtime.containment("ctl", "invoke", "main", "add", "extra")
            #expect(add.status == 0, "\(add.stderr)")
            #expect(add.eventDescriptions == ["verbInvoked(main) verb=add arguments=extra by=system"])
            try runtime.waitIdle()
            var frames = Self.frames(try await runtime.treeJSON())
            #expect(frames["top"] == [0, 0, 1280, 266.6666666666667])
            #expect(frames["extra"] == [0, 533.3333333333334, 1280, 266.6666666666667])
            let unknown = try await runtime.containment("ctl", "invoke", "main", "shuffle")
            #expect(unknown.status == 1)
            #expect(
                unknown.stderr
                    == "unknownVerb: main, a stack run by host ui-host, has no verb shuffle; its verbs: add, remove.\n"
            )
            let content = try await runtime.containment("ctl", "invoke", "top", "add", "extra")
            #expect(
                content.stderr.hasPrefix(
                    "unknownVerb: top, a content run by host ui-host, has no verb add; its verbs: none."
                )
            )
            let remove = try await runtime.containment("ctl", "invoke", "main", "remove", "top", "--by", "shell")
            #expect(remove.eventDescriptions == ["verbInvoked(main) verb=remove arguments=top by=shell"])
            try runtime.waitIdle()
            frames = Self.frames(try await runtime.treeJSON())
            #expect(frames["bottom"] == [0, 0, 1280, 400] && frames["extra"] == [0, 400, 1280, 400])
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
