import ContainmentBus
import ContainmentHost
import ContainmentModel
import Testing

/// The host's registration as a value (``HostCore``), without sockets or a real clock: what it sends, to which
/// supervisor, and what it hands its dispatcher, for each input at each time.
@Suite struct HostCoreTests {
    static let interval = Duration.milliseconds(100)
    static let a = "ipc:///run/a.sock"
    static let b = "ipc:///run/b.sock"

    static func core(_ endpoints: [String] = [a], at now: ContinuousClock.Instant) -> HostCore {
        HostCore(name: "h0", pid: 42, kinds: [], heartbeatInterval: interval, endpoints: endpoints, at: now)
    }

    /// What a list of actions says, in short: `hello(lastSeq)`, `heartbeat`, `connect(E)`, `probe(E)`, `adopt`,
    /// `deliver(seqs)`, `resume(id)`.
    static func said(_ actions: [HostAction]) -> [String] {
        actions.compactMap { action in
            switch action {
            case .send(.hello(_, _, _, let lastSeq, _)): "hello(\(lastSeq))"
            case .send(.heartbeat): "heartbeat"
            case .send(let other): "send(\(other))"
            case .connect(let endpoint): "connect(\(endpoint == a ? "a" : "b"))"
            case .probe(let endpoint): "probe(\(endpoint == a ? "a" : "b"))"
            case .job(.adopt): "adopt"
            case .job(.deliver(let events, _)): "deliver(\(events.map(\.seq)))"
            case .job(let other): "job(\(other))"
            case .resume(let reply): "resume(\(reply.requestID))"
            case .log: nil
            }
        }
    }

    static func inbound(_ message: SupervisorMessage, requestID: UInt64 = 0) throws -> HostInbound {
        try HostInbound(decoding: message.bytes(requestID: requestID))
    }

    static func welcome(restore: Bool = false, seq: UInt64 = 0) throws -> HostInbound {
        try inbound(
            .welcome(
                host: "h0",
                controllers: [],
                heartbeatInterval: interval,
                restore: restore,
                seq: seq,
                incarnation: 1
            ),
            requestID: HostCore.helloID
        )
    }

    static func delivery(_ seqs: [UInt64]) -> HostInbound {
        .delivery(seqs.map { BusEvent(.viewDidLoad(ControllerID("c")), seq: $0) })
    }

    @Test func itGreetsWithBackoffUntilWelcomedThenBeatsEveryInterval() throws {
        var now = ContinuousClock.now
        var core = Self.core(at: now)
        #expect(Self.said(core.handle(.start, at: now)) == ["hello(0)"])
        // Not welcomed: hello again after 1, then 2, 4, 8 and 8 more intervals.
        var hellos: [Int] = []
        for step in 1...30 {
            now += Self.interval
            if Self.said(core.handle(.tick, at: now)) == ["hello(0)"] { hellos.append(step) }
        }
        #expect(hellos == [1, 3, 7, 15, 23])
        #expect(!core.isRegistered)
        #expect(Self.said(core.handle(.message(try Self.welcome()), at: now)) == ["adopt"])
        #expect(core.isRegistered)
        #expect(Self.said(core.handle(.tick, at: now + Self.interval / 2)).isEmpty, "no heartbeat before an interval")
        #expect(Self.said(core.handle(.tick, at: now + Self.interval)) == ["heartbeat"])
    }

    /// A welcome that restores its actors makes them current as of its seq: the next hello says so, so that the
    /// supervisor, which counts that welcome as given, does not take the host for one that lost it. One that does not
    /// restore leaves what the host received as it was.
    @Test func aRestoringWelcomeCountsAsReceivedUpToItsSeq() throws {
        let now = ContinuousClock.now
        var core = Self.core(at: now)
        _ = core.handle(.start, at: now)
        _ = core.handle(.message(try Self.welcome()), at: now)
        _ = core.handle(.message(Self.delivery([5, 6])), at: now)
        _ = core.handle(.message(try Self.welcome(seq: 40)), at: now)
        #expect(core.lastDelivered == 6)
        _ = core.handle(.message(try Self.welcome(restore: true, seq: 40)), at: now)
        #expect(core.lastDelivered == 40)
        _ = core.handle(.message(try Self.welcome(restore: true, seq: 30)), at: now)
        #expect(core.lastDelivered == 40, "never back")
    }

    @Test func deliveriesGoToTheDispatcherInOrderAndTheNextHelloSaysHowFar() throws {
        let now = ContinuousClock.now
        var core = Self.core(at: now)
        _ = core.handle(.start, at: now)
        _ = core.handle(.message(try Self.welcome()), at: now)
        #expect(Self.said(core.handle(.message(Self.delivery([5, 6])), at: now)) == ["deliver([5, 6])"])
        #expect(Self.said(core.handle(.message(Self.delivery([7])), at: now)) == ["deliver([7])"])
        #expect(core.lastDelivered == 7)
        // The supervisor restarted and does not know this host: one hello, however many heartbeats it refuses.
        let unknown = try Self.inbound(.refused(ContainmentError(.hostUnavailable, "Host h0 is not registered here")))
        #expect(Self.said(core.handle(.message(unknown), at: now)) == ["hello(7)"])
        #expect(Self.said(core.handle(.message(unknown), at: now)).isEmpty)
        // A reply an actor's request waits for goes to it.
        let reply = try Self.inbound(.refused(ContainmentError(.unknownController, "no x")), requestID: 9)
        #expect(Self.said(core.handle(.message(reply), at: now)) == ["resume(9)"])
    }

    /// Back-pressure: once its bound of jobs waits for the dispatcher, the host reads nothing more of the supervisor's
    /// (its queue there fills instead of memory here) until the dispatcher says it finished some; it beats on
    /// meanwhile, so the supervisor does not take it for dead.
    @Test func aDispatcherBehindStopsTheHostReadingTheSupervisorButNotBeating() throws {
        var now = ContinuousClock.now
        var core = HostCore(
            name: "h0",
            pid: 42,
            kinds: [],
            heartbeatInterval: Self.interval,
            endpoints: [Self.a],
            maxQueuedJobs: 3,
            at: now
        )
        _ = core.handle(.start, at: now)
        _ = core.handle(.message(try Self.welcome()), at: now)
        _ = core.handle(.message(Self.delivery([1])), at: now)
        #expect(core.readsSupervisor && core.queuedJobs == 2)
        _ = core.handle(.message(Self.delivery([2])), at: now)
        #expect(!core.readsSupervisor && core.queuedJobs == 3)
        now += Self.interval
        #expect(Self.said(core.handle(.tick, at: now)) == ["heartbeat"])
        #expect(Self.said(core.handle(.jobsDone(1), at: now)).isEmpty)
        #expect(core.readsSupervisor && core.queuedJobs == 2)
        _ = core.handle(.jobsDone(5), at: now)
        #expect(core.queuedJobs == 0, "never below none")
        // A real host's bound: 256 jobs.
        var host = Self.core(at: now)
        _ = host.handle(.message(try Self.welcome()), at: now)
        for seq in UInt64(1)...254 { _ = host.handle(.message(Self.delivery([seq])), at: now) }
        #expect(host.readsSupervisor)
        _ = host.handle(.message(Self.delivery([255])), at: now)
        #expect(!host.readsSupervisor && host.queuedJobs == 256)
    }

    /// A host that greeted its one supervisor in vain (its backoff grown to 8 intervals) and sees the connection drop
    /// — that process died, another comes — greets again within an interval, not 8 (found by `simulate`, seed 105 of
    /// 10 minutes: a storm of supervisor restarts kept a host away for 15 s).
    @Test func aHostBackingOffGreetsTheNextSupervisorWithinAnInterval() throws {
        var now = ContinuousClock.now
        var core = Self.core(at: now)
        _ = core.handle(.start, at: now)
        for _ in 1...15 {
            now += Self.interval
            _ = core.handle(.tick, at: now)
        }
        // Backing off: the next hello is 8 intervals after the last (at 15).
        now += Self.interval
        #expect(Self.said(core.handle(.tick, at: now)).isEmpty)
        _ = core.handle(.dropped(endpoint: Self.a), at: now)
        #expect(Self.said(core.handle(.tick, at: now + Self.interval / 2)).isEmpty, "not at once: it reconnects first")
        #expect(Self.said(core.handle(.tick, at: now + Self.interval)) == ["hello(0)"])
        // A welcomed host keeps beating through a drop: the next process refuses the beat, and it greets then.
        _ = core.handle(.message(try Self.welcome()), at: now + Self.interval)
        _ = core.handle(.dropped(endpoint: Self.a), at: now + Self.interval)
        #expect(core.isRegistered)
        #expect(Self.said(core.handle(.tick, at: now + Self.interval * 2)) == ["heartbeat"])
    }

    @Test func aStandbyNamingTheLeaderTurnsTheHostToIt() throws {
        let now = ContinuousClock.now
        var core = Self.core([Self.a, Self.b], at: now)
        _ = core.handle(.start, at: now)
        let standby = try Self.inbound(.notLeader(standby: "a", leader: ("b", Self.b)), requestID: HostCore.helloID)
        #expect(Self.said(core.handle(.message(standby), at: now)) == ["connect(b)", "hello(0)"])
        #expect(core.endpoint == Self.b)
        // No one leads yet: a registered host greets again later, not at once.
        _ = core.handle(.message(try Self.welcome()), at: now)
        let none = try Self.inbound(.notLeader(standby: "b", leader: nil))
        #expect(Self.said(core.handle(.message(none), at: now)).isEmpty && !core.isRegistered)
    }

    @Test func probesFindTheLeaderAndADroppedConnectionIsGreetedAgain() throws {
        var now = ContinuousClock.now
        var core = Self.core([Self.a, Self.b], at: now)
        _ = core.handle(.start, at: now)
        _ = core.handle(.message(try Self.welcome()), at: now)
        now += Self.interval
        #expect(Self.said(core.handle(.tick, at: now)) == ["probe(b)", "heartbeat"])
        // b answers as a leader does (it refuses a heartbeat from a host it does not know): the host turns to it.
        let leading = try Self.inbound(.refused(ContainmentError(.hostUnavailable, "not registered here")))
        #expect(Self.said(core.handle(.probed(endpoint: Self.b, leading), at: now)) == ["connect(b)", "hello(0)"])
        // An answer of the supervisor talked to is old: dropped.
        #expect(Self.said(core.handle(.probed(endpoint: Self.b, leading), at: now)).isEmpty)
        // Its connection drops: greeted again at once; another's dropping is not news.
        #expect(Self.said(core.handle(.dropped(endpoint: Self.b), at: now)) == ["hello(0)"])
        #expect(Self.said(core.handle(.dropped(endpoint: Self.a), at: now)).isEmpty)
        var single = Self.core(at: now)
        #expect(Self.said(single.handle(.dropped(endpoint: Self.a), at: now)).isEmpty, "one supervisor: it reconnects")
    }
}
