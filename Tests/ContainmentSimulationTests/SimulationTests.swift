import ContainmentSimulation
import ContainmentTestSupport
import Synchronization
import Testing

/// The simulated world (issue 41): a seed makes one run, to the byte; seeds pass under every fault; and the checks
/// fail when the world is given a defect on purpose, so a pass says something.
@Suite(.cpuBound) struct SimulationTests {
    static func settings(seed: UInt64, seconds: Int64 = 3) -> SimulationSettings {
        var settings = SimulationSettings()
        settings.seed = seed
        settings.duration = .seconds(seconds)
        settings.faultEvery = .milliseconds(500)
        return settings
    }

    @Test func theSameSeedMakesTheSameRunToTheByte() {
        var settings = Self.settings(seed: 7)
        settings.trace = true
        let first = Simulation(settings).run()
        let second = Simulation(settings).run()
        #expect(first.lines(full: true) == second.lines(full: true))
        #expect(first.trace == second.trace && (first.trace?.count ?? 0) > 1_000)
        let other = Simulation(Self.settings(seed: 8)).run()
        #expect(other.lines(full: true) != first.lines(full: true), "another seed, another run")
    }

    /// Runs the world of `settings`, expecting every check to pass with faults injected.
    static func passingRun(
        _ settings: SimulationSettings,
        sourceLocation: SourceLocation = #_sourceLocation
    ) -> SimulationReport {
        let report = Simulation(settings).run()
        #expect(report.passed, "\(report.lines().joined(separator: "\n"))", sourceLocation: sourceLocation)
        #expect(!report.faults.isEmpty, "faults were injected", sourceLocation: sourceLocation)
        return report
    }

    /// Ten seeds of 3 s, a fault every half second: what the runtime's kills, stalls, partitions and full disks do to
    /// SPEC §14's guarantees, checked in the test command (`containment simulate --seeds 1000` by hand for more).
    @Test(arguments: Array(1...10) as [UInt64])
    func seedsPassUnderEveryKindOfFault(seed: UInt64) {
        let report = Self.passingRun(Self.settings(seed: seed))
        #expect(report.operations > 100 && report.accepted > 10, "\(report.lines())")
    }

    /// Contended (as `stress --contended`): every client draws over one pool, so their commands race on the same
    /// controllers; every check holds under every fault, and they did race.
    @Test func contendedClientsPassUnderEveryKindOfFault() throws {
        var settings = Self.settings(seed: 4)
        settings.contended = true
        let report = Self.passingRun(settings)
        let races = try #require(report.checks.first { $0.name == "every request answered; races counted" })
        let raced = races.detail.firstMatch(of: /, (\d+) other than/).flatMap { Int($0.1) } ?? 0
        #expect(raced > 0, "the clients never raced: \(races.detail)")
    }

    /// Answering (as `stress --answering`): forms whose code answers their loads and layouts, one question in twenty
    /// too late; every check holds under every fault on the replay of the journaled answers.
    @Test func answeringCodePassesUnderEveryKindOfFault() throws {
        var settings = Self.settings(seed: 5)
        settings.answering = true
        let report = Self.passingRun(settings)
        let replay = try #require(report.checks.first { $0.name == "journal replay = published events" })
        #expect(replay.detail.contains("answers of controllers' code replayed"), "\(replay.detail)")
    }

    /// Replicated (`journal: etcd`): two supervisors on a simulated etcd, the leader killed and stopped past its lease
    /// among the other faults; the standby takes over, hosts and clients follow it, and every check holds — one leader
    /// at a time among them.
    @Test(arguments: Array(1...4) as [UInt64])
    func replicatedSeedsPassWhileLeadersAreKilledAndStopped(seed: UInt64) throws {
        var settings = Self.settings(seed: seed)
        settings.replicated = true
        let report = Self.passingRun(settings)
        #expect(report.faults[.tornWrite] == nil, "etcd is the journal: no disk faults")
        let leaders = try #require(report.checks.first { $0.name.hasPrefix("one leader at a time") })
        // The clients kept working across the takeovers (a seed that draws an etcd election and a partition early
        // runs fewer than a hundred operations: seed 4 runs 94).
        #expect(leaders.passed && report.operations > 50, "\(report.lines())")
    }

    /// A leader that does not ask its own clock whether its lease may have lapsed speaks after a pause past it, while
    /// the standby already leads: the check of one leader at a time fails.
    @Test func aLeaderThatIgnoresItsLeaseFailsOneLeaderAtATime() {
        var failed: Set<String> = []
        for seed in UInt64(1)...6 {
            var settings = Self.settings(seed: seed)
            settings.replicated = true
            settings.faults = [.supervisorPause]
            settings.sabotage = .leaderIgnoresItsLease
            failed.formUnion(Simulation(settings).run().checks.filter { !$0.passed }.map(\.name))
        }
        #expect(failed.contains("one leader at a time: nothing sent once a supervisor's lease lapsed"), "\(failed)")
        #expect(
            failed.isSubset(of: [
                "one leader at a time: nothing sent once a supervisor's lease lapsed",
                "each actor got its callbacks in SPEC order",
            ]),
            "\(failed)"
        )
    }

    /// Issue 42, item 2: etcd's members electing a new raft leader (nothing answered, no lease lapsing, every lease
    /// extended when it takes office) for up to five sixths of the lease cost no failover — the leader renews every
    /// sixth of its lease. Renewing every third, as before, an election longer than two thirds outlasts it.
    @Test func etcdElectionsAreRiddenOutAndWereNotWithRenewalsEveryThirdOfTheLease() throws {
        let name = "etcd's elections ridden out: no failover"
        func settings(_ seed: UInt64) -> SimulationSettings {
            // Elections a lease apart (two in a row are one longer election): about one every 3 s.
            var settings = Self.settings(seed: seed, seconds: 8)
            settings.replicated = true
            settings.faults = [.etcdElection]
            return settings
        }
        for seed in UInt64(1)...2 {
            let report = Self.passingRun(settings(seed))
            #expect(report.checks.contains { $0.name == name && $0.passed }, "\(report.lines(full: true))")
            #expect((report.faults[.etcdElection] ?? 0) >= 2)
        }
        // Renewing every third of the lease, as before: some seed has an election outlast it (seed 1 since the streams
        // last changed; searched, so that a change to what the clients draw does not hide the sabotage).
        let bitten = (UInt64(1)...16).first { seed in
            var sabotaged = settings(seed)
            sabotaged.sabotage = .renewsEveryThirdOfTheLease
            return Simulation(sabotaged).run().checks.contains { $0.name == name && !$0.passed }
        }
        let seed = try #require(bitten, "no seed of 1…16 has an election outlast a renewal every third of the lease")
        #expect(
            Self.passingRun(settings(seed)).checks.contains { $0.name == name && $0.passed },
            "the same seed, not sabotaged"
        )
    }

    /// SPEC §16: a tab container's More controllers have no host. Seed 29's world (single, contended, more tabs, as
    /// `simulate` draws it) ends with one standing; its callbacks were sent to no one, and the actor check expects
    /// none (it once failed with "s-c-k1/more: no host runs its actor").
    @Test func aMoreTabStandingAtTheEndHasNoActorToCheck() {
        var settings = SimulationSettings()
        settings.drawsWorld = true
        let world = settings.world(seed: 29)
        #expect(world.moreTabs && world.contended)
        _ = Self.passingRun(world)
    }

    @Test func aHostThatDropsACallbackFailsTheActorCheck() {
        var settings = Self.settings(seed: 3)
        settings.faults = []
        settings.sabotage = .dropCallback
        let report = Simulation(settings).run()
        let failed = report.checks.filter { !$0.passed }.map(\.name)
        #expect(failed == ["each actor got its callbacks in SPEC order"], "\(report.lines())")
    }

    @Test func aDiskThatLosesAnAcknowledgedRecordFailsExactlyOnce() {
        var settings = Self.settings(seed: 3)
        settings.faults = []
        settings.sabotage = .loseAcknowledgedRecord
        let report = Simulation(settings).run()
        let failed = Set(report.checks.filter { !$0.passed }.map(\.name))
        #expect(failed.contains("every accepted reply is journaled; nothing applied twice"), "\(report.lines())")
    }

    @Test func seedsRunAtOncePrintTheSameLinesInSeedOrder() {
        let settings = Self.settings(seed: 11, seconds: 1)
        let alone = Lines()
        let atOnce = Lines()
        let passedAlone = SimulationRuns.run(settings, seeds: 4, jobs: 1, full: true) { alone.append($0) }
        let passedAtOnce = SimulationRuns.run(settings, seeds: 4, jobs: 3, full: true) { atOnce.append($0) }
        #expect(passedAlone && passedAtOnce)
        #expect(alone.all == atOnce.all && alone.all.count > 4)
        #expect(
            alone.all.filter { $0.hasPrefix("seed ") }.map { $0.prefix(8) } == [
                "seed 11:", "seed 12:", "seed 13:", "seed 14:",
            ]
        )
    }

    /// A supervisor restarted after it wrote checkpoints recovers from the latest and replays only the records after
    /// it; the checks (which replay the whole journal) agree with what it served.
    @Test func aSupervisorRestartedAfterACheckpointRecoversFromIt() {
        var settings = Self.settings(seed: 5, seconds: 4)
        settings.faults = [.supervisorCrash, .partition]
        settings.checkpointEvery = 50
        settings.trace = true
        let report = Simulation(settings).run()
        #expect(report.passed, "\(report.lines().joined(separator: "\n"))")
        #expect(report.supervisorStarts > 1)
        let checkpoints = report.trace?.filter { $0.contains("supervisor writes a checkpoint") }.count ?? 0
        #expect(checkpoints >= report.records / 50 - 1 && checkpoints > 2, "\(checkpoints): \(report.lines())")
    }

    /// A replicated world's leader writes checkpoints to etcd (the real `EtcdCheckpointer`, fenced, then its
    /// retention); a supervisor starting stands by from the latest, replaying only what came after it, and a standby
    /// stopped while the leader's retention removed batches it had yet to apply recovers from the checkpoint again
    /// (`Recovery.follow`). The checks read every batch ever appended and agree with what was served.
    @Test func aReplicatedWorldCheckpointsToEtcdAndStandbysRecoverFromIt() {
        var (written, fromCheckpoint, lagged) = (0, 0, 0)
        for seed in UInt64(1)...8 {
            var settings = Self.settings(seed: seed, seconds: 4)
            settings.replicated = true
            // Stopped (a fifth of the time the standby), it lags; killed, it recovers from the checkpoint.
            settings.faults = seed.isMultiple(of: 2) ? [.supervisorCrash, .supervisorPause] : [.supervisorPause]
            settings.checkpointEvery = 50
            settings.trace = true
            let report = Simulation(settings).run()
            #expect(report.passed, "\(report.lines().joined(separator: "\n"))")
            let trace = report.trace ?? []
            written += trace.count { $0.contains("wrote a checkpoint to etcd") }
            fromCheckpoint += trace.count { $0.contains("recovered from etcd: the checkpoint of batch") }
            lagged += trace.count { $0.contains("lagged past a checkpoint's retention") }
        }
        #expect(
            written > 10 && fromCheckpoint > 2,
            "\(written) checkpoints written, \(fromCheckpoint) stood by from one"
        )
        #expect(lagged > 0, "no standby lagged past the retention in these seeds")
    }

    /// Each seed draws its world's shape when asked (`simulate`'s default): replicated or not, contended, answering —
    /// from a stream of its own, so a drawn world runs exactly as the same shape given by flags.
    @Test func eachSeedDrawsItsWorldAndRunsItAsTheFlagsWould() throws {
        var drawing = Self.settings(seed: 1, seconds: 1)
        drawing.drawsWorld = true
        let worlds = (UInt64(1)...40).map { drawing.world(seed: $0) }
        #expect(Set(worlds.map(\.replicated)) == [true, false])
        #expect(worlds.contains(where: \.contended) && worlds.contains(where: \.answering))
        #expect(worlds.contains { $0.lateReader })
        #expect(worlds.map(\.seed) == Array(1...40))
        let drawn = try #require(worlds.first { $0.replicated && !$0.contended && !$0.answering && !$0.lateReader })
        var pinned = Self.settings(seed: drawn.seed, seconds: 1)
        pinned.replicated = true
        #expect(Simulation(drawn).run().lines(full: true) == Simulation(pinned).run().lines(full: true))
        #expect(Self.settings(seed: 3).world(seed: 9).replicated == false, "a world not drawn keeps its flags")
    }

    /// Issue 42, finding 3, in the simulated world: a client asks for up to 200 snapshots at once and reads nothing
    /// for up to 2 s. Its replies wait in the supervisor's own queue, in order, within `replyQueueBytes` (64 KiB here);
    /// past half of it its snapshots are refused. Under kills and stops of the leader, every reply answers one request
    /// at most once, in order — and a leader stopped past its lease sends none of what waited when it continues (the
    /// simulator found that one: `SupervisorDriver.retryReplies` now asks whether the step is barred).
    @Test func aLateReaderIsAnsweredInOrderWithinItsBudgetUnderFaults() throws {
        var (snapshots, refused) = (0, 0)
        // Seeds 3 and 8 of a replicated world whose leader is stopped are two of those that caught it (12 of 100).
        let worlds: [(seed: UInt64, replicated: Bool, faults: Set<FaultKind>)] = [
            (1, false, [.supervisorCrash, .supervisorPause, .clientDisconnect, .delay]),
            (2, false, [.supervisorCrash, .supervisorPause, .clientDisconnect, .delay]),
            (3, true, [.supervisorPause]), (8, true, [.supervisorPause]),
        ]
        for (seed, replicated, faults) in worlds {
            var settings = Self.settings(seed: seed, seconds: 4)
            settings.lateReader = true
            settings.replicated = replicated
            settings.faults = faults
            let report = Self.passingRun(settings)
            let check = try #require(report.checks.first { $0.name.hasPrefix("a client reading late") })
            #expect(check.passed && report.shape.hasSuffix("late reader"), "\(report.lines(full: true))")
            let counts = check.detail.split(separator: " ").compactMap { Int($0) }
            snapshots += counts.first ?? 0
            refused += counts.dropFirst().first ?? 0
        }
        #expect(snapshots > 0 && refused > 0, "\(snapshots) snapshots, \(refused) refusals")
    }

    /// By default a client's pause grows with the run, so a long run sends about as many commands as a short one.
    @Test func theLoadByDefaultFollowsTheDuration() {
        var settings = SimulationSettings()
        #expect(settings.meanThink == .microseconds(2_500))
        settings.duration = .seconds(600)
        #expect(settings.meanThink == .milliseconds(150))
        settings.think = .milliseconds(1)
        #expect(settings.meanThink == .milliseconds(1))
    }

    /// A host whose actors fall behind stops reading the supervisor once its bound of jobs waits, beating on; the
    /// supervisor's queue toward it fills (`full`), the deliveries after wait in order, and every check holds.
    @Test func hostsWhoseActorsFallBehindPushBackOnTheSupervisor() {
        var (stopped, full) = (0, 0)
        for seed in UInt64(1)...3 {
            var settings = Self.settings(seed: seed)
            settings.faults = [.slowActors]
            settings.trace = true
            let trace = Self.passingRun(settings).trace ?? []
            stopped += trace.count { $0.contains("stops reading the supervisor") }
            full += trace.count { $0.contains("the queue toward a peer is full") }
        }
        #expect(stopped > 0 && full > 0, "\(stopped) stops, \(full) sends found the queue full")
    }

    @Test func aDurationIsReadAsTheCommandLineWritesIt() {
        #expect(SimulationRuns.duration("10m") == .seconds(600))
        #expect(SimulationRuns.duration("500ms") == .milliseconds(500))
        #expect(SimulationRuns.duration("2.5") == .milliseconds(2_500))
        #expect(SimulationRuns.duration("0s") == nil && SimulationRuns.duration("ten") == nil)
    }
}

/// Lines written from the runs' threads.
private final class Lines: Sendable {
    private let lines = Mutex<[String]>([])
    func append(_ line: String) { lines.withLock { $0.append(line) } }
    var all: [String] { lines.withLock { $0 } }
}
