import ContainmentModel
import ContainmentTestKit
import Testing

/// SPEC §15 through the runtime (simulated: the supervisor core and two hosts): seed 003's master, run by one host,
/// pushes its detail onto the navigation controller another host runs, as itself; the built-in containers answer their
/// verbs; an outsider is refused; the container's delegate, on another host, receives its switches as callbacks.
@Suite struct ContainerDrivingTests {
    static let topology = """
        window: {name: main, width: 800, height: 600, root: n}
        hosts: [h0, h1]
        controllers:
          - {id: n, kind: navigation, host: h0, delegate: watcher}
          - {id: watcher, kind: content, host: h1}
          - {id: master, kind: master, host: h1}
          - {id: detail, kind: content, host: h1}
          - {id: outsider, kind: content, host: h1}
        """

    /// The error `requests` are refused with; nil (an issue recorded) when they are accepted.
    static func refusal(_ requests: [Request], _ runtime: SimulatedRuntime) async -> ContainmentError? {
        do {
            try await runtime.perform(requests)
            Issue.record("accepted")
            return nil
        } catch {
            return error.error
        }
    }

    /// Performs `commands`, lets the code they start run and a second of virtual time pass (a timed switch ends), and
    /// returns every event since.
    static func events(after commands: [Command], _ runtime: SimulatedRuntime) async throws -> [Event] {
        let before = try await runtime.events().count
        try await runtime.perform(commands)
        try await runtime.runUntilIdle()
        try await runtime.advance(by: .seconds(1))
        return Array(try await runtime.events().dropFirst(before))
    }

    @Test func theMasterPushesItsDetailAndTheContainersAnswerTheirVerbs() async throws {
        try await withSimulatedTopology(Self.topology) { runtime in
            try await runtime.perform([.push("master", on: "n")])
            #expect(try await runtime.snapshot().controller("n")?.children == ["master"])

            // Seed 003: the master's code pushes the detail onto its navigation controller, as itself.
            let pushed = try await Self.events(after: [.invoke("master", verb: "show", arguments: ["detail"])], runtime)
            let shown = pushed.filter { $0.name.hasPrefix("navigation") }.map(\.description)
            #expect(
                shown == [
                    "navigationWillShow(n) shown=detail requestedBy=master",
                    "navigationDidShow(n) shown=detail requestedBy=master",
                ]
            )
            // It ran as the navigation controller's own push: it set the detail's frame, below its bar.
            #expect(pushed.map(\.description).contains("frameChanged(detail) view=detail frame=0,44,800,556 by=n"))
            #expect(try await runtime.snapshot().controller("n")?.children == ["master", "detail"])

            // The built-in navigation controller answers `pop`: it pops, as itself.
            let popped = try await Self.events(after: [.invoke("n", verb: "pop")], runtime)
            #expect(
                popped.filter { $0.name.hasPrefix("navigation") }.map(\.description) == [
                    "navigationWillShow(n) shown=master", "navigationDidShow(n) shown=master",
                ]
            )
            #expect(try await runtime.snapshot().controller("n")?.children == ["master"])

            // The navigation controller's delegate, on the other host, received each switch as a callback (SPEC §15).
            #expect(
                try await runtime.describedCallbacks(of: "watcher") == [
                    "delegateCallback(watcher) container=n callback=navigationWillShow child=master",
                    "delegateCallback(watcher) container=n callback=navigationDidShow child=master",
                    "delegateCallback(watcher) container=n callback=navigationWillShow child=detail",
                    "delegateCallback(watcher) container=n callback=navigationDidShow child=detail",
                    "delegateCallback(watcher) container=n callback=navigationWillShow child=master",
                    "delegateCallback(watcher) container=n callback=navigationDidShow child=master",
                ]
            )

            // A controller outside the navigation controller's subtree may not push onto it.
            let outsider = await Self.refusal([Request(.push("detail", on: "n"), by: .controller("outsider"))], runtime)
            #expect(outsider?.code == .unauthorized)
            #expect(
                outsider?.message
                    == "outsider may not push onto n; only n, a controller in its subtree, or the system may."
            )
            // A verb the container does not have is refused by the supervisor, naming the ones it has.
            let verb = await Self.refusal([.system(.invoke("n", verb: "select", arguments: ["0"]))], runtime)
            #expect(verb?.code == .unknownVerb)
            #expect(verb?.message.hasSuffix("its verbs: push, pop, popTo, popToRoot, setStack.") == true)
        }
    }
}
