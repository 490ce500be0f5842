import ContainmentBus
import ContainmentModel
import Testing

@testable import ContainmentConfig
@testable import ContainmentRuntime

/// The values the supervisor's core is made of, each with one job, on their own: admission, inspect forwarding,
/// placement and the transition timers.
@Suite struct SupervisorPartsTests {
    @Test func admissionRefusesWhatBreaksALimitNamingTheLimitNotTheInput() {
        let admission = Admission(maxBatch: 2, maxTextBytes: 16)
        #expect(admission.exceedsLimits(count: 3, bytes: 10, longestText: { 0 })?.code == .limitExceeded)
        #expect(admission.exceedsLimits(count: 2, bytes: 10, longestText: { 0 }) == nil)
        let refusal = admission.exceedsLimits(count: 1, bytes: 100, longestText: { 17 })
        #expect(refusal?.code == .limitExceeded)
        #expect(refusal?.message.contains("maxTextBytes") == true && refusal?.message.contains("17 bytes") == true)
        #expect(admission.exceedsLimits(count: 1, bytes: 100, longestText: { 16 }) == nil)
        // Within `bytes` of the limit a request cannot hold a longer text: not measured.
        var measured = false
        #expect(
            admission.exceedsLimits(count: 1, bytes: 16) {
                measured = true
                return 17
            } == nil
        )
        #expect(!measured)
    }

    /// A request's texts are measured at any depth, its client id among them, and never echoed.
    @Test func admissionMeasuresEveryTextOfADecodedRequest() throws {
        let admission = Admission(maxBatch: 2, maxTextBytes: 16)
        let long = String(repeating: "x", count: 17)
        var properties = ControllerProperties()
        properties.title = long
        let titled = HostOutbound.request(
            requestID: 1,
            .perform([.system(.create("a", kind: .content, properties: properties))])
        )
        let refusal = admission.exceedsLimits(try InboundRequest(decoding: titled.bytes), bytes: 100)
        #expect(refusal?.code == .limitExceeded && refusal?.message.contains(long) == false)
        let short = HostOutbound.request(requestID: 1, .perform([.system(.create("a", kind: .content))]))
        #expect(admission.exceedsLimits(try InboundRequest(decoding: short.bytes), bytes: 100) == nil)
        let goodbye = HostOutbound.goodbye(host: long)
        #expect(
            admission.exceedsLimits(try InboundRequest(decoding: goodbye.bytes), bytes: 100)?.code == .limitExceeded
        )
    }

    @Test func admissionAllowsEachRoleWhatItMayDo() {
        let commands = InboundRequest.Body.commands
        #expect(Admission.refusal(of: commands, role: nil, registeredAs: nil) == nil, "no CURVE: no roles")
        #expect(Admission.refusal(of: commands, role: .operator, registeredAs: nil) == nil)
        #expect(Admission.refusal(of: commands, role: .observer, registeredAs: nil)?.code == .unauthorized)
        #expect(Admission.refusal(of: .snapshot, role: .observer, registeredAs: nil) == nil)
        #expect(Admission.refusal(of: commands, role: .host("h1"), registeredAs: nil)?.code == .unauthorized)
        #expect(Admission.refusal(of: commands, role: .host("h1"), registeredAs: "h1") == nil)
        let hello = InboundRequest.Body.hello(HostHello(host: "h2", pid: 1, protocolVersion: 1, lastSeq: 0, kinds: []))
        #expect(Admission.refusal(of: hello, role: .host("h1"), registeredAs: nil)?.code == .unauthorized)
        #expect(Admission.refusal(of: hello, role: .host("h2"), registeredAs: nil) == nil)
        #expect(Admission.refusal(of: hello, role: .operator, registeredAs: nil)?.code == .unauthorized)
        let answer = InboundRequest.Body.answer(
            QuestionAnswer(questionID: 1, controller: "a", answer: .success(.nothing))
        )
        #expect(Admission.refusal(of: answer, role: .observer, registeredAs: nil)?.code == .unauthorized)
        #expect(
            Admission.refusal(of: .heartbeat(host: "h2"), role: .host("h1"), registeredAs: nil)?.code == .unauthorized
        )
        #expect(Admission.refusal(of: .heartbeat(host: "h1"), role: .host("h1"), registeredAs: nil) == nil)
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
