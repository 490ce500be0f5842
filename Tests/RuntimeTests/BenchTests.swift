import Foundation
import Subprocess
import SystemPackage
import Testing

/// `containment bench` runs end to end, scaled right down, and reports every figure, each sane: a positive, finite
/// rate; percentiles in order; every event published received. No timing is asserted, and nothing is measured over a
/// window of time that a loaded machine could leave empty: throughput over a count of requests (`--requests`).
@Suite struct BenchTests {
    /// A rate or a time that was measured: positive and finite.
    static func sane(_ value: Any?) -> Bool {
        guard let value = value as? Double else { return false }
        return value > 0 && value.isFinite
    }

    @Test func aTinyBenchReportsEveryFigure() async throws {
        let result = try await Subprocess.run(
            .path(FilePath(RuntimeFixture.binary)),
            arguments: [
                "bench", "--quick", "--json", "--round-trips", "200", "--requests", "400", "--pub-sub-messages", "2000",
                "--model-commands", "2000", "--controllers", "400", "--hosts", "2", "--clients", "2", "--window", "4",
                "--recovery-events", "3000", "--recovery-controllers", "2000", "--host-callbacks", "400",
            ],
            output: .string(limit: 1 << 20),
            error: .string(limit: 1 << 20)
        )
        let stdout = result.standardOutput
        #expect(result.terminationStatus.isSuccess, "\(result.standardError)")
        let report = try #require(JSON.object(stdout), "not JSON: \(stdout)")
        let sections: [String: [String]] = [
            "model": ["commandsPerSecond", "eventsPerSecond"],
            "layout": ["addsPerSecond", "removesPerSecond", "fromScratchMilliseconds", "resizeMicroseconds"],
            "core": ["pipelined", "delivery"],
            "raw": ["roundTrip", "pipelinedPerSecond", "pubSub1", "pubSub8", "synced"],
            "runtime": ["roundTrip", "pipelinedPerSecond", "delivery1", "delivery8"],
            "creation": ["controllers", "hosts", "seconds", "supervisorBytesPerController", "hostBytesPerController"],
            "ratios": [
                "roundTripP50", "roundTripP99", "roundTripP999", "pipelined", "delivery1", "delivery8",
                "roundTripP50VersusFloor", "pipelinedVersusFloor",
            ],
            "calls": ["invoke", "call"],
        ]
        for (section, keys) in sections {
            let object = try #require(report[section] as? [String: Any], "no \(section)")
            for key in keys { #expect(object[key] != nil, "\(section).\(key) is missing") }
        }
        // Every event published reached every subscriber, without a gap: 2,000 raw; 400 / 8 requests of 16 events.
        let published = [
            "raw": ["pubSub1": 2_000, "pubSub8": 2_000], "runtime": ["delivery1": 800, "delivery8": 800],
        ]
        for (section, deliveries) in published {
            let figures = report[section] as? [String: Any] ?? [:]
            Self.expectSane(figures, section: section)
            for (name, expected) in deliveries {
                let figure = figures[name] as? [String: Any] ?? [:]
                let received = ["expected", "messages", "gaps"].map { figure[$0] as? Int }
                #expect(received == [expected, expected, 0], "\(section).\(name): \(figure)")
                #expect(Self.sane(figure["perSecond"]), "\(section).\(name): \(figure)")
            }
        }
        let ratios = report["ratios"] as? [String: Any] ?? [:]
        #expect(ratios.values.allSatisfy(Self.sane), "\(ratios)")
        let model = report["model"] as? [String: Any] ?? [:]
        #expect(Self.sane(model["commandsPerSecond"]) && Self.sane(model["eventsPerSecond"]), "\(model)")
        #expect(Self.sane((report["creation"] as? [String: Any])?["seconds"]), "creation.seconds")
        // Every callback sent through the one host was handled by its actors: one actor, then 1,000, content then busy.
        let callbacks = try #require(report["hostCallbacks"] as? [[String: Any]])
        #expect(
            callbacks.map { "\($0["kind"] ?? "") \($0["actors"] ?? 0) \($0["callbacks"] ?? 0)" } == [
                "content 1 400", "content 1000 400", "busy 1 100", "busy 1000 100",
            ]
        )
        // Every typed call and every invoke timed answered (a tenth more warmed up first).
        let calls = report["calls"] as? [String: Any]
        for figure in ["invoke", "call", "toActor", "relay", "syncedRelay"] {
            #expect((calls?[figure] as? [String: Any])?["count"] as? Int == 200, "calls.\(figure)")
        }
        // Recovery recovers what was written: every event's seq and every controller.
        let durability = try #require(report["durability"] as? [String: Any])
        let journal = durability["journalRecovery"] as? [String: Any]
        #expect((journal?["events"] as? Int ?? 0) >= 3_000, "\(durability)")
        let checkpoint = durability["checkpointRecovery"] as? [String: Any]
        #expect(checkpoint?["controllers"] as? Int == 2_000, "\(durability)")
        let disk = durability["diskSync"] as? [String: Any]
        for way in ["appending", "reserved", "reservedWritingThrough"] {
            #expect(((disk?[way] as? [String: Any])?["count"] as? Int ?? 0) > 0, "diskSync.\(way)")
        }
        let modes = (durability["syncModes"] as? [[String: Any]] ?? []).compactMap { $0["mode"] as? String }
        #expect(modes == ["batch", "interval", "none"])
        // Each hand-written codec path beside SwiftProtobuf's (the bench fails if their bytes differ).
        let pairs = try #require((report["codec"] as? [String: Any])?["pairs"] as? [[String: Any]])
        #expect(
            pairs.compactMap { $0["work"] as? String } == [
                "decode a request", "encode an event", "read an event's seq", "encode an accepted reply",
                "encode a journal record",
            ]
        )
        #expect(pairs.allSatisfy { ($0["count"] as? Int ?? 0) > 0 && $0["speedup"] is Double }, "\(pairs)")
        let targets = try #require(report["targets"] as? [[String: Any]])
        #expect(targets.count == 13)
        #expect(targets.allSatisfy { $0["target"] is String && $0["met"] is Bool })
    }

    /// The single-figure modes report their figure alone.
    @Test func theSingleFigureModesReportTheirFigure() async throws {
        for (arguments, keys) in [
            (["model", "--model-commands", "500"], ["commands", "accepted", "commandsPerSecond", "layout"]),
            (["codec", "--model-commands", "500"], ["pairs"]),
            (["core", "--quick"], ["pipelined", "delivery"]),
            (["loop", "--requests", "400", "--clients", "2", "--window", "4"], ["requests", "requestsPerSecond"]),
            (
                ["creation", "--controllers", "300", "--hosts", "2"],
                ["controllers", "hosts", "seconds", "supervisorPeakKiB", "hostPeakKiB"]
            ),
            (
                [
                    "bus", "--quick", "--round-trips", "200", "--requests", "400", "--pub-sub-messages", "2000",
                    "--clients", "2", "--window", "4", "--stalled-subscribers", "20",
                ],
                ["raw", "runtime", "ratios"]
            ),
            (
                [
                    "replicated", "--quick", "--round-trips", "100", "--requests", "400", "--clients", "2", "--window",
                    "4", "--failovers", "1",
                ],
                ["journals", "failover"]
            ),
        ] {
            // The replicated journal's figures need etcd's client: `containment-etcd`.
            let binary = arguments.contains("replicated") ? RuntimeFixture.etcdBinary : RuntimeFixture.binary
            let result = try await Subprocess.run(
                .path(FilePath(binary)),
                arguments: Arguments(["bench"] + arguments + ["--json"]),
                output: .string(limit: 1 << 20),
                error: .string(limit: 1 << 20)
            )
            #expect(result.terminationStatus.isSuccess, "\(arguments): \(result.standardError)")
            let figure = try #require(JSON.object(result.standardOutput), "\(arguments): not JSON")
            for key in keys { #expect(figure[key] != nil, "\(arguments): \(key) is missing") }
            if arguments[0] == "creation" { #expect(figure["controllers"] as? Int == 300) }
            if arguments[0] == "loop" {
                // The supervisor's loop in this process answered every request of the run it reports: half of them.
                #expect(figure["requests"] as? Int == 200 && figure["clients"] as? Int == 2, "\(figure)")
                #expect(Self.sane(figure["requestsPerSecond"]), "\(figure)")
                // And the event path: an eighth of the requests, 16 events each, every one received in order.
                let events = figure["events"] as? [String: Any] ?? [:]
                #expect(events["requests"] as? Int == 50 && events["received"] as? Int == 800, "\(events)")
                #expect(events["gaps"] as? Int == 0 && Self.sane(events["perSecond"]), "\(events)")
            }
            if arguments[0] == "core" {
                // Every command of every request accepted: one event each.
                for name in ["pipelined", "delivery"] {
                    let part = figure[name] as? [String: Any] ?? [:]
                    let (requests, commands) = (part["requests"] as? Int ?? 0, part["commandsPerRequest"] as? Int ?? 0)
                    #expect(requests > 0 && part["events"] as? Int == requests * commands, "\(name): \(part)")
                }
            }
            if arguments[0] == "replicated" {
                // Each journal measured, then one kill of the leader timed to the new leader's first acceptance.
                let journals = figure["journals"] as? [[String: Any]] ?? []
                #expect(journals.compactMap { $0["journal"] as? String } == ["file", "etcd"], "\(journals)")
                for journal in journals {
                    #expect((journal["roundTrip"] as? [String: Any])?["count"] as? Int == 100, "\(journal)")
                    #expect(Self.sane(journal["pipelinedPerSecond"]), "\(journal)")
                }
                let failover = figure["failover"] as? [String: Any] ?? [:]
                #expect(failover["kills"] as? Int == 1 && (failover["milliseconds"] as? [Double])?.count == 1)
                #expect(Self.sane(failover["p50"]), "\(failover)")
            }
            if arguments[0] == "bus" {
                let ratios = figure["ratios"] as? [String: Double] ?? [:]
                #expect(
                    Set(ratios.keys) == [
                        "roundTripP50", "roundTripP99", "roundTripP999", "pipelined", "pipelinedCPU", "delivery1",
                        "delivery8", "roundTripP50VersusFloor", "pipelinedVersusFloor",
                    ]
                )
                #expect(ratios.values.allSatisfy(Self.sane), "\(ratios)")
                Self.expectSane(figure["raw"] as? [String: Any] ?? [:], section: "raw")
                Self.expectSane(figure["runtime"] as? [String: Any] ?? [:], section: "runtime")
                // Twenty subscribers that never read, beside delivery: the supervisor within their bound, the
                // subscribers that read without a gap.
                let runtime = figure["runtime"] as? [String: Any] ?? [:]
                let stalled = try #require(runtime["stalled"] as? [String: Int], "\(runtime)")
                #expect(stalled["subscribers"] == 20 && stalled["queue"] == 10_000, "\(stalled)")
                let (before, peak, bound) = (
                    stalled["beforeKiB"] ?? 0, stalled["peakKiB"] ?? 0, stalled["boundKiB"] ?? 0
                )
                #expect(before > 0 && peak - before <= bound, "\(stalled)")
                for name in ["delivery1", "delivery8"] {
                    let delivery = runtime[name] as? [String: Any] ?? [:]
                    #expect(delivery["gaps"] as? Int == 0 && delivery["missing"] as? Int == 0, "\(name): \(delivery)")
                    #expect(delivery["messages"] as? Int == 800 && delivery["expected"] as? Int == 800, "\(name)")
                }
            }
        }
    }

    /// `bench peer`: Redis (appendfsync always and everysec, driven by redis-benchmark) beside Containment and raw
    /// ZeroMQ, each Redis figure measured, the ratios Containment's ÷ Redis always's, and the four targets judged.
    @Test func benchPeerPutsRedisBesideContainment() async throws {
        let result = try await Subprocess.run(
            .path(FilePath(RuntimeFixture.binary)),
            arguments: [
                "bench", "peer", "--quick", "--round-trips", "200", "--requests", "400", "--pub-sub-messages", "2000",
                "--clients", "2", "--window", "4", "--json",
            ],
            output: .string(limit: 1 << 20),
            error: .string(limit: 1 << 20)
        )
        #expect(result.terminationStatus.isSuccess, "\(result.standardError)")
        let figure = try #require(JSON.object(result.standardOutput), "not JSON: \(result.standardOutput)")
        var pipelined: [String: Double] = [:]
        for (key, fsync) in [("redisAlways", "always"), ("redisEverysec", "everysec")] {
            let redis = figure[key] as? [String: Any] ?? [:]
            #expect(redis["fsync"] as? String == fsync, "\(redis)")
            let trip = redis["roundTrip"] as? [String: Double] ?? [:]
            #expect(Self.sane(trip["p50"]) && (trip["p50"] ?? 0) <= (trip["p99"] ?? 0), "\(key): \(trip)")
            let pipe = redis["pipelined"] as? [String: Double] ?? [:]
            #expect(Self.sane(pipe["perSecond"]), "\(key): \(pipe)")
            // redis-server's own time on a CPU per SET, read from /proc.
            #expect(Self.sane(pipe["cpuMicros"]), "\(key): \(pipe)")
            pipelined[key] = pipe["perSecond"]
        }
        let runtime = figure["runtime"] as? [String: Any] ?? [:]
        Self.expectSane(runtime, section: "runtime")
        Self.expectSane(figure["raw"] as? [String: Any] ?? [:], section: "raw")
        let ratio = try #require(figure["pipelinedVersusRedisAlways"] as? Double)
        let containment = try #require(runtime["pipelinedPerSecond"] as? Double)
        #expect(abs(ratio - containment / (pipelined["redisAlways"] ?? 1)) < 1e-9 * max(1, ratio))
        // The floor: raw ZeroMQ writing each drained batch O_DSYNC before answering it. Its log holds every request
        // it answered: 200 round trips after 20 to warm up, and 4 pipelined rounds of 100 after 10.
        let synced = (figure["raw"] as? [String: Any])?["synced"] as? [String: Any] ?? [:]
        Self.expectSane(synced, section: "raw.synced")
        #expect(synced["journaled"] as? Int == 220 + 4 * 110, "\(synced)")
        for key in ["floorPipelinedVersusRedisAlways", "floorRoundTripP50VersusRedisAlways"] {
            #expect(Self.sane(figure[key]), "\(key)")
        }
        let targets = figure["targets"] as? [[String: Any]] ?? []
        #expect(targets.count == 4 && targets.allSatisfy { $0["met"] is Bool }, "\(targets)")
        #expect((targets.first?["target"] as? String)?.hasPrefix("pipelined ≥ 1.0× Redis always") == true)

        // As a table: six columns, then each target judged.
        let table = try await Subprocess.run(
            .path(FilePath(RuntimeFixture.binary)),
            arguments: [
                "bench", "peer", "--quick", "--round-trips", "100", "--requests", "200", "--pub-sub-messages", "1000",
                "--clients", "2", "--window", "4",
            ],
            output: .string(limit: 1 << 20),
            error: .string(limit: 1 << 20)
        )
        #expect(table.terminationStatus.isSuccess, "\(table.standardError)")
        let text = table.standardOutput
        #expect(text.hasPrefix("figure") && text.contains("Redis always") && text.contains("Redis everysec"), "\(text)")
        #expect(text.contains("\ntarget: pipelined ≥ 1.0× Redis always: "), "\(text)")
        #expect(text.components(separatedBy: "\ntarget: ").count == 5, "\(text)")
        #expect(text.contains("raw + sync (floor)"), "\(text)")
        #expect(text.components(separatedBy: "\nthe floor (raw ZeroMQ + the journal's sync), ").count == 3, "\(text)")
    }

    /// Without redis-server on the PATH, `bench peer` says what installs it and measures nothing.
    @Test func benchPeerWithoutRedisSaysWhatInstallsIt() async throws {
        let empty = FileManager.default.temporaryDirectory.appendingPathComponent("no-redis-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: empty, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: empty) }
        let result = try await Subprocess.run(
            .path(FilePath(RuntimeFixture.binary)),
            arguments: ["bench", "peer", "--quick"],
            environment: .inherit.updating(["PATH": empty]),
            output: .string(limit: 1 << 20),
            error: .string(limit: 1 << 20)
        )
        #expect(!result.terminationStatus.isSuccess)
        #expect(
            result.standardError.contains(
                "redis-server is not installed (bash scripts/setup.sh redis-server installs it)"
            ),
            "\(result.standardError)"
        )
    }

    /// A round trip's percentiles measured and in order, and the pipelined rate measured.
    static func expectSane(_ figures: [String: Any], section: String) {
        let trip = figures["roundTrip"] as? [String: Any] ?? [:]
        let (p50, p99, p999) = (trip["p50"] as? Double ?? 0, trip["p99"] as? Double ?? 0, trip["p999"] as? Double ?? 0)
        #expect(sane(p50) && p50 <= p99 && p99 <= p999, "\(section).roundTrip: \(trip)")
        #expect(sane(figures["pipelinedPerSecond"]), "\(section).pipelinedPerSecond: \(figures)")
        // The server's time on a CPU per pipelined request: the echo peer's or the supervisor's, read from /proc.
        #expect(sane(figures["pipelinedCPUMicros"]), "\(section).pipelinedCPUMicros: \(figures)")
    }
}
