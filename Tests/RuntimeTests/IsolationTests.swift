import ContainmentBus
import ContainmentModel
import Foundation
import Testing

@testable import ContainmentConfig
@testable import ContainmentRuntime

/// SPEC §14, Isolation, without CURVE: one live registration per host name, and limits on what a peer may send —
/// refused with `limitExceeded`, naming the limit and never echoing the input — with warnings rate-limited per peer.
@Suite struct IsolationTests {
    typealias Core = SupervisorCoreTests

    static func refusal(_ step: SupervisorStep, to peer: [UInt8]) throws -> (HostInbound, bytes: Int) {
        let sent = try Core.decode(step)
        let index = try #require(sent.messages.firstIndex { $0.peer == peer })
        return (sent.messages[index].message, sent.bodies[index].count)
    }

    @Test func aSecondHelloForALiveHostIsRefusedAndTheRealHostKeepsItsCallbacks() throws {
        let clock = Core.ManualClock()
        var core = try Core.core(clock).0
        let real: [UInt8] = [1]
        let impostor: [UInt8] = [66]
        core.handle(.message([real, Core.hello("h0", pid: 100)]))
        _ = core.take()
        core.handle(.message([impostor, Core.hello("h0", id: 7, pid: 100)]))
        let (answer, _) = try Self.refusal(core.take(), to: impostor)
        #expect(answer.requestID == 7 && answer.refusal?.error.code == .unauthorized, "\(answer)")
        #expect(answer.refusal?.error.message.contains("registered on another connection") == true)
        // The real host still gets the callbacks of its controllers; the impostor nothing.
        core.handle(.message([Core.peer, Core.request([Core.create("a", host: "h0")], id: 1)]))
        let step = try Core.decode(core.take())
        #expect(
            step.messages.filter { $0.peer == real }.map { $0.message.delivered.map(\.name) } == [
                ["controllerCreated"]
            ]
        )
        #expect(!step.messages.contains { $0.peer == impostor })
        #expect(core.hostNames[impostor] == nil && core.hosts["h0"]?.routingID == real)
        // Once the real one is gone, a new registration is welcome.
        Core.pass(Core.config.heartbeatTimeout + .milliseconds(1), clock, &core)
        _ = core.take()
        core.handle(.message([impostor, Core.hello("h0", id: 8, pid: 101)]))
        let (welcome, _) = try Self.refusal(core.take(), to: impostor)
        #expect(welcome.welcome?.controllers.map(\.id) == ["a"])
    }

    @Test func anOversizedTextIsRefusedWithoutBeingEchoed() throws {
        var core = try Core.core(Core.ManualClock()).0
        let huge = String(repeating: "x", count: 100_000)
        core.handle(.message([Core.peer, Core.request([Core.create(huge)], id: 3)]))
        let step = core.take()
        #expect(step.records.isEmpty, "nothing journaled")
        let (answer, bytes) = try Self.refusal(step, to: Core.peer)
        #expect(answer.requestID == 3 && answer.refusal?.error.code == .limitExceeded)
        #expect(
            answer.refusal?.error.message
                == "A text of the request (an id, a name or a title) is 100000 bytes long; at most 256 (maxTextBytes) are taken."
        )
        #expect(bytes < 300, "the answer does not echo the id")
        // Among short commands whose request is longer than the limit, the one long text is found.
        let long = String(repeating: "y", count: 300)
        let short = (0..<40).map { Core.create("s\($0)") }
        core.handle(.message([Core.peer, Core.request(short + [Core.create(long)] + short, id: 5)]))
        let (longOne, _) = try Self.refusal(core.take(), to: Core.peer)
        #expect(longOne.requestID == 5 && longOne.refusal?.error.code == .limitExceeded)
        core.handle(.message([Core.peer, Core.request(short, id: 6)]))
        #expect(core.take().records.count == 1, "short texts in a long request: accepted")
        // A host name too.
        core.handle(.message([[9], Core.hello(huge, id: 4)]))
        let (hello, _) = try Self.refusal(core.take(), to: [9])
        #expect(hello.refusal?.error.code == .limitExceeded && core.hosts.isEmpty)
    }

    @Test func aBatchOverItsLimitsIsRefusedWhole() throws {
        var config = Core.config
        config.maxBatch = 10
        config.maxHostShare = 3
        var core = try Core.core(Core.ManualClock(), config: config).0
        core.handle(.message([[1], Core.hello("h0")]))
        _ = core.take()
        let eleven = (0..<11).map { Core.create("c\($0)") }
        core.handle(.message([Core.peer, Core.request(eleven, id: 1)]))
        let (tooMany, _) = try Self.refusal(core.take(), to: Core.peer)
        #expect(tooMany.refusal?.error.code == .limitExceeded)
        #expect(
            tooMany.refusal?.error.message == "The request holds 11 commands; at most 10 (maxBatch) are taken in one."
        )
        // Four creations on one host: over its share.
        core.handle(.message([Core.peer, Core.request((0..<4).map { Core.create("d\($0)", host: "h0") }, id: 2)]))
        let step = core.take()
        #expect(step.records.isEmpty)
        let (share, _) = try Self.refusal(step, to: Core.peer)
        #expect(share.refusal?.error.code == .limitExceeded && share.refusal?.index == 3)
        #expect(share.refusal?.error.message == "The batch concerns host h0 in more than 3 commands (maxHostShare).")
        #expect(core.state.controllers.isEmpty)
        core.handle(.message([Core.peer, Core.request((0..<3).map { Core.create("d\($0)", host: "h0") }, id: 3)]))
        #expect(try Self.refusal(core.take(), to: Core.peer).0.acceptance?.events.count == 3)
    }

    @Test func warningsAboutOnePeerAreRateLimited() {
        var limiter = WarningLimiter(interval: .seconds(1), peers: 2)
        let now = ContinuousClock.now
        #expect(limiter.allow([1], at: now) == 0)
        for _ in 0..<9_999 { #expect(limiter.allow([1], at: now) == nil) }
        #expect(limiter.allow([2], at: now) == 0, "another peer is its own")
        #expect(limiter.allow([1], at: now + .seconds(1)) == 9_999, "then one line with the count held back")
        // Bounded: a third peer starts afresh.
        #expect(limiter.allow([3], at: now + .seconds(1)) == 0)
    }
}
