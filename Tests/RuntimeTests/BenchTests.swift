import Foundation
import Subprocess
import SystemPackage
import Testing

/// `containment bench` runs end to end, scaled right down, and reports every figure. No timing is asserted.
@Suite struct BenchTests {
    @Test func aTinyBenchReportsEveryFigure() async throws {
        let result = try await Subprocess.run(
            .path(FilePath(RuntimeFixture.binary)),
            arguments: [
                "bench", "--quick", "--json", "--round-trips", "200", "--seconds", "0.3", "--pub-sub-messages", "2000",
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
            "core": ["pipelined", "delivery"],
            "raw": ["roundTrip", "pipelinedPerSecond", "pubSub1", "pubSub8"],
            "runtime": ["roundTrip", "pipelinedPerSecond", "delivery1", "delivery8"],
            "creation": ["controllers", "hosts", "seconds", "supervisorBytesPerController", "hostBytesPerController"],
            "ratios": ["roundTripP50", "roundTripP99", "roundTripP999", "pipelined", "delivery1", "delivery8"],
            "calls": ["invoke", "call"],
        ]
        for (section, keys) in sections {
            let object = try #require(report[section] as? [String: Any], "no \(section)")
            for key in keys { #expect(object[key] != nil, "\(section).\(key) is missing") }
        }
        for section in ["raw", "runtime"] {
            let roundTrip = (report[section] as? [String: Any])?["roundTrip"] as? [String: Any]
            for key in ["p50", "p99", "p999"] { #expect(roundTrip?[key] != nil, "\(section).roundTrip.\(key)") }
        }
        let runtime = report["runtime"] as? [String: Any]
        for delivery in ["delivery1", "delivery8"] {
            let figure = runtime?[delivery] as? [String: Any]
            #expect(figure?["gaps"] as? Int == 0, "\(delivery) saw gaps")
            #expect((figure?["messages"] as? Int ?? 0) > 0, "\(delivery) received nothing")
        }
        // Every callback sent through the one host was handled by its actors: one actor, then 1,000, content then busy.
        let callbacks = try #require(report["hostCallbacks"] as? [[String: Any]])
        #expect(
            callbacks.map { "\($0["kind"] ?? "") \($0["actors"] ?? 0) \($0["callbacks"] ?? 0)" } == [
                "content 1 400", "content 1000 400", "busy 1 100", "busy 1000 100",
            ]
        )
        // Every typed call and every invoke timed answered (a tenth more warmed up first).
        let calls = report["calls"] as? [String: Any]
        for figure in ["invoke", "call", "toActor", "relay"] {
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
        #expect(targets.count == 12)
        #expect(targets.allSatisfy { $0["target"] is String && $0["met"] is Bool })
    }

    /// The single-figure modes report their figure alone.
    @Test func theSingleFigureModesReportTheirFigure() async throws {
        for (arguments, keys) in [
            (["model", "--model-commands", "500"], ["commands", "accepted", "commandsPerSecond"]),
            (["codec", "--model-commands", "500"], ["pairs"]),
            (["core", "--quick"], ["pipelined", "delivery"]),
            (
                ["creation", "--controllers", "300", "--hosts", "2"],
                ["controllers", "hosts", "seconds", "supervisorPeakKiB", "hostPeakKiB"]
            ),
            (
                [
                    "bus", "--quick", "--round-trips", "200", "--seconds", "0.3", "--pub-sub-messages", "2000",
                    "--clients", "2", "--window", "4", "--stalled-subscribers", "20",
                ],
                ["raw", "runtime", "ratios"]
            ),
            (
                [
                    "replicated", "--quick", "--round-trips", "100", "--seconds", "0.3", "--clients", "2", "--window",
                    "4", "--failovers", "1",
                ],
                ["journals", "failover"]
            ),
        ] {
            let result = try await Subprocess.run(
                .path(FilePath(RuntimeFixture.binary)),
                arguments: Arguments(["bench"] + arguments + ["--json"]),
                output: .string(limit: 1 << 20),
                error: .string(limit: 1 << 20)
            )
            #expect(result.terminationStatus.isSuccess, "\(arguments): \(result.standardError)")
            let figure = try #require(JSON.object(result.standardOutput), "\(arguments): not JSON")
            for key in keys { #expect(figure[key] != nil, "\(arguments): \(key) is missing") }
            if arguments[0] == "creation" { #expect(figure["controllers"] as? Int == 300) }
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
                    #expect((journal["pipelinedPerSecond"] as? Double ?? 0) > 0, "\(journal)")
                }
                let failover = figure["failover"] as? [String: Any] ?? [:]
                #expect(failover["kills"] as? Int == 1 && (failover["milliseconds"] as? [Double])?.count == 1)
                #expect((failover["p50"] as? Double ?? 0) > 0, "\(failover)")
            }
            if arguments[0] == "bus" {
                let ratios = figure["ratios"] as? [String: Double] ?? [:]
                #expect(
                    Set(ratios.keys) == [
                        "roundTripP50", "roundTripP99", "roundTripP999", "pipelined", "delivery1", "delivery8",
                    ]
                )
                #expect(ratios.values.allSatisfy { $0 > 0 }, "\(ratios)")
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
                }
            }
        }
    }
}
