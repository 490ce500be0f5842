import ContainmentClient
import ContainmentModel
import Foundation
import Testing

/// ContainmentClient's subscriber (the Clone pattern, in model types) on real daemons: the state, then the events
/// after it in order, and a new state after the supervisor was killed and started again.
@Suite(.serialized) struct RuntimeSubscriberTests {
    static let topology = """
        window: {name: main, width: 800, height: 600, root: box}
        controllers:
          - {id: box, kind: content, host: h0}
        """

    static func environment(_ runtime: RuntimeFixture) -> [String: String] {
        ["CONTAINMENT_RUN_DIR": runtime.runDirectory, "CONTAINMENT_CONFIG": runtime.configPath ?? ""]
    }

    /// The updates until `done` says so, at most 10 s.
    static func updates(
        _ subscriber: RuntimeSubscriber,
        until done: ([RuntimeSubscriber.Update]) -> Bool
    ) throws -> [RuntimeSubscriber.Update] {
        var updates: [RuntimeSubscriber.Update] = []
        let deadline = ContinuousClock.now + .seconds(10)
        while !done(updates), ContinuousClock.now < deadline {
            if let update = try subscriber.next(timeout: .milliseconds(200)) { updates.append(update) }
        }
        return updates
    }

    static func events(_ updates: [RuntimeSubscriber.Update]) -> [(UInt64, Event)] {
        updates.compactMap { if case .event(let event, let seq) = $0 { (seq, event) } else { nil } }
    }

    @Test func theStateThenEveryEventAfterItInOrder() async throws {
        try await RuntimeFixture.with(topology: Self.topology) { runtime in
            let subscriber = try RuntimeSubscriber(environment: Self.environment(runtime))
            defer { subscriber.close() }
            guard case .state(let tree, let epoch)? = try subscriber.next(timeout: .seconds(5)) else {
                Issue.record("the first update is not the state")
                return
            }
            #expect(tree.controller("box")?.frame == Rect(x: 0, y: 0, width: 800, height: 600))
            #expect(epoch >= 1)
            let client = try RuntimeClient(environment: Self.environment(runtime))
            try await client.perform([.create("menu", kind: "content")], hosts: ["menu": "h0"])
            try await client.perform([Request(.setAlpha(.root("box"), 0.5), by: .controller("box"))])
            let updates = try Self.updates(subscriber) { updates in
                Self.events(updates).contains { if case .alphaChanged = $0.1 { true } else { false } }
            }
            let events = Self.events(updates)
            #expect(events.map(\.1.name) == ["controllerCreated", "alphaChanged"])
            // Gap-free and after the state's seq.
            #expect(events.map(\.0) == [tree.seq + 1, tree.seq + 2])
        }
    }

    @Test func aRestartedSupervisorIsFollowedFromANewState() async throws {
        try await RuntimeFixture.with(topology: Self.topology) { runtime in
            let subscriber = try RuntimeSubscriber(environment: Self.environment(runtime))
            defer { subscriber.close() }
            guard case .state(_, let first)? = try subscriber.next(timeout: .seconds(5)) else {
                Issue.record("the first update is not the state")
                return
            }
            let pid = try runtime.supervisorPID()
            kill(pid, SIGKILL)
            try await runtime.waitUntilGone(pid)
            #expect(try await runtime.script("up.sh", [runtime.topologyPath]).status == 0)
            let updates = try Self.updates(subscriber) { updates in
                updates.contains { if case .state = $0 { true } else { false } }
            }
            let notices = updates.compactMap { if case .notice(let text) = $0 { text } else { nil } }
            #expect(notices.contains { $0.hasPrefix("the supervisor restarted (epoch \(first) → \(first + 1))") })
            guard case .state(let tree, let epoch)? = updates.last else {
                Issue.record("no new state after the restart: \(updates)")
                return
            }
            #expect(epoch == first + 1)
            #expect(tree.controller("box") != nil)
        }
    }

    @Test func theUpdatesAsAnAsyncSequence() async throws {
        try await RuntimeFixture.with(topology: Self.topology) { runtime in
            let client = try RuntimeClient(environment: Self.environment(runtime))
            var seen: [String] = []
            for try await update in RuntimeSubscriber.updates(environment: Self.environment(runtime)) {
                switch update {
                case .state(let tree, _):
                    seen.append("state \(tree.controllers.count)")
                    try await client.perform([.create("late", kind: "content")], hosts: ["late": "h0"])
                case .event(let event, _):
                    seen.append(event.name)
                case .notice(let text):
                    seen.append(text)
                }
                if seen.last == "controllerCreated" { break }
            }
            #expect(seen == ["state 1", "controllerCreated"])
        }
    }
}
