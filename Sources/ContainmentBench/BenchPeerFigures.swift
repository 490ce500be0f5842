import Foundation

/// `bench peer`: Redis's figures beside Containment's and raw ZeroMQ's, measured in one run on this machine, with
/// issue 45's targets: pipelined commands at least Redis `always`'s, a round trip's p50 at most its, events at least
/// half of raw PUB→SUB to 1 subscriber and 90% to each of 8.
struct PeerFigures: Codable, Sendable {
    var redisAlways: RedisFigure
    var redisEverysec: RedisFigure
    var raw: RawFigures
    var runtime: RuntimeFigures
    /// Containment's figure ÷ Redis `always`'s.
    var pipelinedVersusRedisAlways: Double
    var roundTripP50VersusRedisAlways: Double
    /// The floor's (raw ZeroMQ with the journal's synchronous write, ``SyncedFigures``) ÷ Redis `always`'s: where it
    /// misses a target, no sequencer on this transport and disk with the same guarantee can meet it.
    var floorPipelinedVersusRedisAlways: Double
    var floorRoundTripP50VersusRedisAlways: Double
    var targets: [BenchReport.Target]

    init(redisAlways: RedisFigure, redisEverysec: RedisFigure, raw: RawFigures, runtime: RuntimeFigures) {
        self.redisAlways = redisAlways
        self.redisEverysec = redisEverysec
        self.raw = raw
        self.runtime = runtime
        func ratio(_ value: Double, _ baseline: Double) -> Double { baseline > 0 ? value / baseline : 0 }
        pipelinedVersusRedisAlways = ratio(runtime.pipelinedPerSecond, redisAlways.pipelined.perSecond)
        roundTripP50VersusRedisAlways = ratio(runtime.roundTrip.p50, redisAlways.roundTrip.p50)
        floorPipelinedVersusRedisAlways = ratio(raw.synced.pipelinedPerSecond, redisAlways.pipelined.perSecond)
        floorRoundTripP50VersusRedisAlways = ratio(raw.synced.roundTrip.p50, redisAlways.roundTrip.p50)
        let delivery1 = ratio(runtime.delivery1.perSecond, raw.pubSub1.perSecond)
        let delivery8 = ratio(runtime.delivery8.perSecond, raw.pubSub8.perSecond)
        targets = [
            .init(
                target: "pipelined ≥ 1.0× Redis always",
                value: BenchReport.times(pipelinedVersusRedisAlways),
                met: pipelinedVersusRedisAlways >= 1
            ),
            .init(
                target: "round trip p50 ≤ Redis always's",
                value: BenchReport.times(roundTripP50VersusRedisAlways),
                met: roundTripP50VersusRedisAlways > 0 && roundTripP50VersusRedisAlways <= 1
            ),
            .init(
                target: "events/s to 1 subscriber ≥ 50% of raw PUB→SUB",
                value: BenchReport.percent(delivery1),
                met: delivery1 >= 0.5
            ),
            .init(
                target: "events/s to each of 8 ≥ 90% of raw PUB→SUB",
                value: BenchReport.percent(delivery8),
                met: delivery8 >= 0.9
            ),
        ]
    }

    /// The table: each figure for Redis (both policies), Containment and raw ZeroMQ, then the targets.
    func lines(_ settings: BenchSettings) -> [String] {
        let none = "—"
        func ratio(_ value: Double, _ baseline: Double) -> Double? { baseline > 0 ? value / baseline : nil }
        let rows: [[String]] = [
            [
                "figure", "Redis always", "Redis everysec", "Containment", "raw ZeroMQ", "raw + sync (floor)",
                "Containment ÷ Redis always",
            ],
            [
                "round trip p50", BenchReport.micros(redisAlways.roundTrip.p50),
                BenchReport.micros(redisEverysec.roundTrip.p50), BenchReport.micros(runtime.roundTrip.p50),
                BenchReport.micros(raw.roundTrip.p50), BenchReport.micros(raw.synced.roundTrip.p50),
                BenchReport.times(roundTripP50VersusRedisAlways),
            ],
            [
                "round trip p99", BenchReport.micros(redisAlways.roundTrip.p99),
                BenchReport.micros(redisEverysec.roundTrip.p99), BenchReport.micros(runtime.roundTrip.p99),
                BenchReport.micros(raw.roundTrip.p99), BenchReport.micros(raw.synced.roundTrip.p99), "",
            ],
            [
                "pipelined \(settings.clients)×\(settings.window), replies/s",
                BenchReport.count(redisAlways.pipelined.perSecond),
                BenchReport.count(redisEverysec.pipelined.perSecond),
                BenchReport.count(runtime.pipelinedPerSecond), BenchReport.count(raw.pipelinedPerSecond),
                BenchReport.count(raw.synced.pipelinedPerSecond), BenchReport.times(pipelinedVersusRedisAlways),
            ],
            [
                "  server's CPU per pipelined request", BenchReport.micros(redisAlways.pipelined.cpuMicros),
                BenchReport.micros(redisEverysec.pipelined.cpuMicros), BenchReport.micros(runtime.pipelinedCPUMicros),
                BenchReport.micros(raw.pipelinedCPUMicros), BenchReport.micros(raw.synced.pipelinedCPUMicros),
                BenchReport.times(ratio(runtime.pipelinedCPUMicros, redisAlways.pipelined.cpuMicros)),
            ],
            [
                "events/s to 1 subscriber", none, none, BenchReport.count(runtime.delivery1.perSecond),
                BenchReport.count(raw.pubSub1.perSecond), none, "",
            ],
            [
                "events/s to each of 8 subscribers", none, none, BenchReport.count(runtime.delivery8.perSecond),
                BenchReport.count(raw.pubSub8.perSecond), none, "",
            ],
        ]
        // The floor judged by the first two targets: a target it misses is out of reach of any sequencer here.
        let floor = [
            ("pipelined", floorPipelinedVersusRedisAlways, floorPipelinedVersusRedisAlways >= 1),
            (
                "round trip p50", floorRoundTripP50VersusRedisAlways,
                floorRoundTripP50VersusRedisAlways > 0 && floorRoundTripP50VersusRedisAlways <= 1
            ),
        ]
        return BenchReport.aligned(rows) + [""]
            + targets.map { "target: \($0.target): \($0.met ? "met" : "not met") (\($0.value))" }
            + floor.map { name, value, met in
                "the floor (raw ZeroMQ + the journal's sync), \(name): \(BenchReport.times(value)) Redis always — "
                    + (met ? "within the target" : "misses it too")
            }
    }
}

extension BenchRunner {
    /// Redis (appendfsync `always` and `everysec`) measured before and after Containment's bus figures (and raw
    /// ZeroMQ's, alternating with them as in `bench bus`), each Redis figure the mean of its two runs.
    /// The fewest SETs a pipelined Redis run sends: redis-benchmark times a run by the millisecond, and fewer can
    /// all pass within one (its rate then reads `inf`).
    static let leastRedisRequests = 5_000

    func peer() throws -> PeerFigures {
        progress("Redis: starting redis-server with appendfsync always and everysec")
        let always = try RedisPeer.start(fsync: "always", directory: directory)
        defer { always.stop() }
        let everysec = try RedisPeer.start(fsync: "everysec", directory: directory)
        defer { everysec.stop() }
        func measure(_ peer: RedisPeer) throws -> (roundTrip: RedisRun, pipelined: RedisRun) {
            progress("Redis (appendfsync \(peer.fsync)): round trips, then pipelined requests")
            let bytes = settings.requestBytes
            return (
                try peer.benchmark(clients: 1, pipeline: 1, requests: settings.roundTrips, bytes: bytes),
                try peer.benchmark(
                    clients: settings.clients,
                    pipeline: settings.window,
                    requests: max(Self.leastRedisRequests, settings.requests / 2),
                    bytes: bytes
                )
            )
        }
        let before = (try measure(always), try measure(everysec))
        let (raw, runtime) = try commands()
        let after = (try measure(always), try measure(everysec))
        func figure(_ fsync: String, _ a: (RedisRun, RedisRun), _ b: (RedisRun, RedisRun)) -> RedisFigure {
            RedisFigure(fsync: fsync, roundTrip: .mean(a.0, b.0), pipelined: .mean(a.1, b.1))
        }
        return PeerFigures(
            redisAlways: figure("always", before.0, after.0),
            redisEverysec: figure("everysec", before.1, after.1),
            raw: raw,
            runtime: runtime
        )
    }
}
