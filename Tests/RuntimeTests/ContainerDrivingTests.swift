import ContainmentClient
import ContainmentModel
import ContainmentTestKit
import Foundation
import Testing

/// SPEC §15 through real processes: seed 003's master, run by one host, pushes its detail onto the navigation
/// controller another host runs, as itself; the built-in containers answer their verbs; an outsider is refused; the
/// container's delegate, on another host, receives its switches as callbacks.
@Suite(.serialized) struct ContainerDrivingTests {
    static let topology = """
        window: {name: main, width: 800, height: 600, root: n}
        \(OwnHostTopology.hosts("h0", "h1"))controllers:
          - {id: n, kind: navigation, host: h0, delegate: watcher}
          - {id: watcher, kind: content, host: h1}
          - {id: master, kind: master, host: h1}
          - {id: detail, kind: content, host: h1}
          - {id: outsider, kind: content, host: h1}
        """

    /// The events until one satisfies `found`, at most 20 s; that one last.
    static func events(_ subscriber: RuntimeSubscriber, until found: (Event) -> Bool) throws -> [Event] {
        var events: [Event] = []
        let deadline = ContinuousClock.now + .seconds(20)
        while ContinuousClock.now < deadline {
            guard case .event(let event, _) = try subscriber.next(timeout: .milliseconds(200)) else { continue }
            events.append(event)
            if found(event) { return events }
        }
        Issue.record("no such event came; saw \(events.map(\.description))")
        return events
    }

    /// The error `body` is refused with; nil (an issue recorded) when it is accepted.
    static func refusal(_ body: () throws(RemoteError) -> Void) -> ContainmentError? {
        do {
            try body()
            Issue.record("accepted")
            return nil
        } catch {
            return error.error
        }
    }

    @Test func theMasterPushesItsDetailAndTheContainersAnswerTheirVerbs() async throws {
        try await OwnHostTopology.withRuntime(Self.topology) { runtime in
            let client = try runtime.client()
            try client.perform([.push("master", on: "n")])
            let subscriber = try RuntimeSubscriber(environment: runtime.environment)
            defer { subscriber.close() }
            // The state first: from then on every event comes through.
            guard case .state(let tree, _)? = try subscriber.next(timeout: .seconds(20)) else {
                Issue.record("no state came")
                return
            }
            #expect(tree.controller("n")?.children == ["master"])

            // Seed 003: the master's code pushes the detail onto its navigation controller, as itself.
            try client.perform([.invoke("master", verb: "show", arguments: ["detail"])])
            let pushed = try Self.events(subscriber) {
                if case .navigationDidShow("n", "detail", _) = $0 { true } else { false }
            }
            let shown = pushed.filter { $0.name.hasPrefix("navigation") }.map(\.description)
            #expect(
                shown == [
                    "navigationWillShow(n) shown=detail requestedBy=master",
                    "navigationDidShow(n) shown=detail requestedBy=master",
                ]
            )
            // It ran as the navigation controller's own push: it set the detail's frame, below its bar.
            #expect(pushed.map(\.description).contains("frameChanged(detail) view=detail frame=0,44,800,556 by=n"))
            #expect(try client.snapshot().controller("n")?.children == ["master", "detail"])

            // The built-in navigation controller answers `pop`: it pops, as itself.
            try client.perform([.invoke("n", verb: "pop")])
            let popped = try Self.events(subscriber) {
                if case .navigationDidShow("n", "master", _) = $0 { true } else { false }
            }
            #expect(popped.last?.description == "navigationDidShow(n) shown=master")
            #expect(try client.snapshot().controller("n")?.children == ["master"])

            // The navigation controller's delegate, on the other host, received each switch as a callback (SPEC §15).
            let told = try client.callbacks(of: "watcher").map(\.description)
            #expect(
                told == [
                    "delegateCallback(watcher) container=n callback=navigationWillShow child=master",
                    "delegateCallback(watcher) container=n callback=navigationDidShow child=master",
                    "delegateCallback(watcher) container=n callback=navigationWillShow child=detail",
                    "delegateCallback(watcher) container=n callback=navigationDidShow child=detail",
                    "delegateCallback(watcher) container=n callback=navigationWillShow child=master",
                    "delegateCallback(watcher) container=n callback=navigationDidShow child=master",
                ]
            )

            // A controller outside the navigation controller's subtree may not push onto it.
            let outsider = Self.refusal { () throws(RemoteError) in
                try client.perform([Request(.push("detail", on: "n"), by: .controller("outsider"))])
            }
            #expect(outsider?.code == .unauthorized)
            #expect(
                outsider?.message
                    == "outsider may not push onto n; only n, a controller in its subtree, or the system may."
            )
            // A verb the container does not have is refused by the supervisor, naming the ones it has.
            let verb = Self.refusal { () throws(RemoteError) in
                try client.perform([.invoke("n", verb: "select", arguments: ["0"])])
            }
            #expect(verb?.code == .unknownVerb)
            #expect(verb?.message.hasSuffix("its verbs: push, pop, popTo, popToRoot, setStack.") == true)
        }
    }
}
