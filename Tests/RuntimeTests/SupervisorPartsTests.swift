import ContainmentBus
import ContainmentModel
import Testing

@testable import ContainmentRuntime

/// The values the supervisor's core is made of, each with one job, on their own: admission, inspect forwarding,
/// placement and the transition timers.
@Suite struct SupervisorPartsTests {
    static func create(_ id: String, title: String = "") -> WireCommand {
        var properties = ControllerProperties()
        if !title.isEmpty { properties.title = title }
        return WireCommand(.system(.create(ControllerID(id), kind: .content, properties: properties)))
    }

    @Test func admissionRefusesWhatBreaksALimitNamingTheLimitNotTheInput() {
        let admission = Admission(maxBatch: 2, maxTextBytes: 16)
        let three = ["a", "b", "c"].map { Self.create($0) }
        #expect(admission.exceedsLimits(three, clientID: "", bytes: 10)?.code == .limitExceeded)
        #expect(admission.exceedsLimits(Array(three.prefix(2)), clientID: "", bytes: 10) == nil)
        let long = String(repeating: "x", count: 17)
        let refusal = admission.exceedsLimits([Self.create("a", title: long)], clientID: "", bytes: 100)
        #expect(refusal?.code == .limitExceeded)
        #expect(refusal?.message.contains("maxTextBytes") == true && refusal?.message.contains(long) == false)
        #expect(admission.exceedsLimits([Self.create("a")], clientID: long, bytes: 100)?.code == .limitExceeded)
        // Within `bytes` of the limit a request cannot hold a longer text: not measured.
        #expect(admission.exceedsLimits([Self.create("a", title: long)], clientID: "", bytes: 16) == nil)
    }

    @Test func admissionAllowsEachRoleWhatItMayDo() {
        let commands = ClientMessage.OneOf_Body.commands(.init())
        #expect(Admission.refusal(of: commands, role: nil, registeredAs: nil) == nil, "no CURVE: no roles")
        #expect(Admission.refusal(of: commands, role: .operator, registeredAs: nil) == nil)
        #expect(Admission.refusal(of: commands, role: .observer, registeredAs: nil)?.code == .unauthorized)
        #expect(Admission.refusal(of: .snapshot(.init()), role: .observer, registeredAs: nil) == nil)
        #expect(Admission.refusal(of: commands, role: .host("h1"), registeredAs: nil)?.code == .unauthorized)
        #expect(Admission.refusal(of: commands, role: .host("h1"), registeredAs: "h1") == nil)
        let hello = ClientMessage.OneOf_Body.hello(.with { $0.host = "h2" })
        #expect(Admission.refusal(of: hello, role: .host("h1"), registeredAs: nil)?.code == .unauthorized)
        #expect(Admission.refusal(of: hello, role: .host("h2"), registeredAs: nil) == nil)
        #expect(Admission.refusal(of: hello, role: .operator, registeredAs: nil)?.code == .unauthorized)
        #expect(Admission.refusal(of: .answer(.init()), role: .observer, registeredAs: nil)?.code == .unauthorized)
    }

    @Test func anInspectIsRelayedOnlyFromTheHostAskedAndOnlyOnce() {
        let start = ContinuousClock.now
        var forwarding = InspectForwarding()
        let forwarded = InspectForwarding.Forwarded(
            client: [1],
            requestID: 7,
            host: [9],
            controller: "a",
            deadline: start + .seconds(5)
        )
        let id = forwarding.forward(forwarded)
        let other = forwarding.forward(.init(client: [2], requestID: 8, host: [8], controller: "b", deadline: start))
        #expect(id != other && forwarding.nextDeadline == start)
        #expect(forwarding.relay(id, from: [8]) == nil, "another peer's reply is not relayed")
        #expect(forwarding.relay(id, from: [9])?.requestID == 7)
        #expect(forwarding.relay(id, from: [9]) == nil, "a second reply is not relayed")
        #expect(forwarding.expire(now: start).map(\.requestID) == [8])
        #expect(forwarding.isEmpty)
    }

    @Test func inspectsForwardedToAConnectionThatIsGoneAreGivenUpInOrder() {
        let deadline = ContinuousClock.now + .seconds(5)
        var forwarding = InspectForwarding()
        for request in [UInt64(3), 1, 2] {
            _ = forwarding.forward(
                .init(
                    client: [1],
                    requestID: request,
                    host: request == 2 ? [7] : [9],
                    controller: "a",
                    deadline: deadline
                )
            )
        }
        #expect(forwarding.abandon(host: [9]).map(\.requestID) == [3, 1])
        #expect(forwarding.expire(now: deadline).map(\.requestID) == [2])
    }

    @Test func placementKeepsEachHostsLoadAndPicksTheLeastLoaded() {
        var placement = Placement()
        placement.assign("a", to: "h1")
        placement.assign("b", to: "h1")
        placement.assign("c", to: "h2")
        #expect(placement.load == ["h1": 2, "h2": 1])
        #expect(placement.leastLoaded(of: ["h1", "h2", "h3"]) == "h3")
        #expect(placement.leastLoaded(of: ["h1", "h2"]) == "h2")
        placement.assign("b", to: "h2")
        #expect(placement.load == ["h1": 1, "h2": 2] && placement["b"] == "h2")
        #expect(placement.leastLoaded(of: ["h2", "h1"]) == "h1")
        placement.assign("a", to: nil)
        #expect(placement["a"] == nil && placement.controllers(on: "h2") == ["b", "c"])
        #expect(placement.leastLoaded(of: ["h1", "h0"]) == "h0", "equals by name")
        #expect(placement.leastLoaded(of: [String]()) == nil)
    }

    @Test func aTimedTransitionIsDueOnceAfterItsDuration() {
        let start = ContinuousClock.now
        let slow = RunningTransition(parent: "p", from: "a", to: "b", duration: 0.3)
        let fast = RunningTransition(parent: "q", from: "c", to: "d", duration: 0.1)
        let untimed = RunningTransition(parent: "r", from: "e", to: "f", duration: 0)
        var timers = TransitionTimers()
        timers.schedule([slow, fast, untimed], now: start)
        timers.schedule([slow], now: start + .seconds(1))
        #expect(timers.timers.count == 2, "one timer per timed transition")
        #expect(timers.nextDeadline == start + .milliseconds(100))
        #expect(timers.takeDue(now: start + .milliseconds(99)).isEmpty)
        #expect(timers.takeDue(now: start + .milliseconds(300)) == [slow, fast])
        #expect(timers.takeDue(now: start + .seconds(10)).isEmpty && timers.nextDeadline == nil)
    }
}
