import ContainmentBus
import ContainmentModel
import Testing

@testable import ContainmentConfig
@testable import ContainmentRuntime

/// Issue 42, finding 4: 500 clients asking for a snapshot at once held the supervisor up for seconds, building the
/// same snapshot each time. Now one is built (and encoded) for every request while nothing in it changes — and each
/// reply is still the state at that moment.
@Suite struct SharedSnapshotTests {
    typealias Core = SupervisorCoreTests

    /// Asks `core` for a snapshot: what it handed out, and the reply's bytes.
    static func ask(_ core: inout DrivenCore, id: UInt64) throws -> (shared: SharedSnapshot, body: [UInt8]) {
        core.handle(.message([Core.peer, ClientRequest.snapshot(requestID: id)]))
        let step = core.take()
        guard case .reply(_, _, .snapshot(let shared))? = step.actions.last else {
            throw ContainmentError(.malformed, "no snapshot reply: \(step.actions)")
        }
        return (shared, try #require(try Core.decode(step).bodies.last))
    }

    /// The reply a snapshot of the state now would give.
    static func now(_ core: inout DrivenCore, id: UInt64) -> [UInt8] {
        PreEncoded.snapshot(requestID: id, encoded: SharedSnapshot(core.core.snapshot()).encoded)
    }

    @Test func aSnapshotIsBuiltOnceWhileNothingInItChanges() throws {
        let clock = Core.ManualClock()
        var core = try Core.core(clock).0
        core.handle(.message([[1], Core.hello("h0")]))
        _ = core.take()

        let first = try Self.ask(&core, id: 1)
        let second = try Self.ask(&core, id: 2)
        #expect(first.shared === second.shared, "nothing changed: built once")
        #expect(second.body == Self.now(&core, id: 2))

        // A command changes the state: a new one.
        core.handle(.message([Core.peer, Core.request([Core.create("a", host: "h0")], id: 3)]))
        _ = core.take()
        let third = try Self.ask(&core, id: 4)
        #expect(third.shared !== second.shared)
        #expect(third.body == Self.now(&core, id: 4))

        // So do a subscriber and a host's standing, which change no seq.
        core.handle(.subscribers(2))
        _ = core.take()
        let fourth = try Self.ask(&core, id: 5)
        #expect(fourth.shared !== third.shared && fourth.body == Self.now(&core, id: 5))
        core.handle(.hostExited("h0", reason: "killed"))
        _ = core.take()
        let fifth = try Self.ask(&core, id: 6)
        #expect(fifth.shared !== fourth.shared && fifth.body == Self.now(&core, id: 6))
        #expect(try Self.ask(&core, id: 7).shared === fifth.shared)
    }
}
