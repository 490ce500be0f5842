import ContainmentBus
import ContainmentLoad
import ContainmentConfig
import ContainmentRuntime
import Foundation

/// The figures over the bus measured alone (`--bus-only`).
struct BusFigures: Encodable, Sendable {
    var raw: RawFigures
    var runtime: RuntimeFigures
    var ratios: [String: Double]
}

/// Every figure, the targets, and the two ways to print them.
struct BenchReport: Codable, Sendable {
    struct Target: Codable, Sendable {
        var target: String
        var value: String
        var met: Bool
    }

    var settings: BenchSettings
    var model: ModelFigure
    var layout: LayoutFigure
    var core: CoreFigures
    var codec: CodecFigure
    var raw: RawFigures
    var runtime: RuntimeFigures
    var creation: CreationFigure
    var hostCallbacks: [HostCallbackFigure]
    var calls: CallFigures
    var durability: DurabilityFigures
    var ratios: [String: Double]
    var targets: [Target]

    init(
        settings: BenchSettings,
        model: ModelFigure,
        layout: LayoutFigure,
        core: CoreFigures,
        codec: CodecFigure,
        raw: RawFigures,
        runtime: RuntimeFigures,
        creation: CreationFigure,
        hostCallbacks: [HostCallbackFigure],
        calls: CallFigures,
        durability: DurabilityFigures
    ) {
        self.settings = settings
        self.model = model
        self.layout = layout
        self.core = core
        self.codec = codec
        self.raw = raw
        self.runtime = runtime
        self.creation = creation
        self.hostCallbacks = hostCallbacks
        self.calls = calls
        self.durability = durability
        ratios = Self.busRatios(raw: raw, runtime: runtime)
        let r = ratios
        let gaps = runtime.delivery1.gaps + runtime.delivery8.gaps
        targets = [
            Target(
                target: "model ≥ 1,000,000 commands/s",
                value: Self.count(model.commandsPerSecond),
                met: model.commandsPerSecond >= 1_000_000
            ),
            // Issue 13's targets.
            Target(
                target: "round trip p50 ≤ 1.5× raw",
                value: Self.times(r["roundTripP50"]),
                met: (r["roundTripP50"] ?? .infinity) <= 1.5
            ),
            Target(
                target: "round trip p99 ≤ 3× raw",
                value: Self.times(r["roundTripP99"]),
                met: (r["roundTripP99"] ?? .infinity) <= 3
            ),
            Target(
                target: "pipelined ≥ 100,000 accepted commands/s and ≥ 70% of raw",
                value: "\(Self.count(runtime.pipelinedPerSecond)), \(Self.percent(r["pipelined"]))",
                met: runtime.pipelinedPerSecond >= 100_000 && (r["pipelined"] ?? 0) >= 0.7
            ),
            Target(
                target: "delivery to 1 subscriber ≥ 50% of raw PUB→SUB",
                value: Self.percent(r["delivery1"]),
                met: (r["delivery1"] ?? 0) >= 0.5
            ),
            Target(
                target: "delivery to 8 subscribers ≥ 80% of raw PUB→SUB",
                value: Self.percent(r["delivery8"]),
                met: (r["delivery8"] ?? 0) >= 0.8
            ),
            Target(target: "events gap-free", value: "\(gaps) gaps", met: gaps == 0),
        ]
        if let stalled = runtime.stalled {
            targets.append(
                Target(
                    target: "beside \(stalled.subscribers) stalled subscribers, the supervisor grows ≤ its bound",
                    value: "+\(Self.mebibytes(stalled.peakKiB - stalled.beforeKiB)) of "
                        + "+\(Self.mebibytes(stalled.boundKiB)), then \(Self.mebibytes(stalled.afterKiB))",
                    met: stalled.peakKiB - stalled.beforeKiB <= stalled.boundKiB
                )
            )
        }
        targets += [
            Target(
                target: "1,000,000 controllers over 16 hosts in ≤ 10 s (--controllers 1000000)",
                value: "\(Self.count(Double(creation.controllers))) over \(creation.hosts) in "
                    + String(format: "%.2f s", creation.seconds),
                met: creation.controllers >= 1_000_000 && creation.hosts >= 16 && creation.seconds <= 10
            ),
            Target(
                target: "supervisor ≤ 1 KiB per controller",
                value: Self.bytes(creation.supervisorBytesPerController),
                met: creation.supervisorBytesPerController <= 1024
            ),
            Target(
                target: "host ≤ 2 KiB per controller",
                value: Self.bytes(creation.hostBytesPerController),
                met: creation.hostBytesPerController <= 2048
            ),
            Target(
                target: "recovery of 1,000,000 journaled events ≤ 2 s",
                value: Self.recovery(durability.journalRecovery, of: "events"),
                met: durability.journalRecovery.events >= 1_000_000 && durability.journalRecovery.seconds <= 2
            ),
            Target(
                target: "recovery of 400 answers of 10,000 events ≤ 2 s, answers kept ≤ answerCacheBytes",
                value: String(format: "%.2f s, ", durability.answersRecovery.seconds)
                    + Self.bytes(Double(durability.answersRecovery.answerBytes)),
                met: durability.answersRecovery.answerClients >= 400 && durability.answersRecovery.seconds <= 2
                    && durability.answersRecovery.answerBytes <= 64 << 20
            ),
            Target(
                target: "recovery of a 1,000,000-controller checkpoint ≤ 2 s",
                value: Self.recovery(durability.checkpointRecovery, of: "controllers"),
                met: durability.checkpointRecovery.controllers >= 1_000_000
                    && durability.checkpointRecovery.seconds <= 2
            ),
        ]
    }

    var table: String {
        let rows: [[String]] =
            [
                ["figure", "Containment", "raw ZeroMQ", "ratio"],
                ["model alone, commands/s (1 thread)", Self.count(model.commandsPerSecond), "", ""],
                ["model asking whether code answers, commands/s", Self.count(model.askingCommandsPerSecond), "", ""],
            ] + Self.layoutRows(layout) + Self.coreRows(core)
            + Self.busRows(raw: raw, runtime: runtime, ratios: ratios, settings)
            + Self.creationRows(creation)
        var lines = Self.aligned(
            rows + Self.hostRows(hostCallbacks) + Self.callRows(calls) + Self.durabilityRows(durability, settings)
                + Self.codecRows(codec)
        )
        lines.append("")
        lines.append(
            "messages: request \(settings.requestBytes) B, reply \(settings.replyBytes) B, event "
                + "\(settings.eventTopicBytes) + \(settings.eventBytes) B; ratios: Containment / raw"
        )
        lines.append("")
        let targetWidth = targets.map(\.target.count).max() ?? 0
        lines.append("targets")
        for target in targets {
            lines.append(
                "  \(target.met ? "met   " : "MISSED")  \(target.target)"
                    + String(repeating: " ", count: targetWidth - target.target.count) + "  \(target.value)"
            )
        }
        return lines.joined(separator: "\n")
    }

    /// Rows of a table, columns aligned (the first to the left), a rule under the first row.
    static func aligned(_ rows: [[String]]) -> [String] {
        let columns = rows.map(\.count).max() ?? 0
        let widths = (0..<columns).map { column in rows.map { column < $0.count ? $0[column].count : 0 }.max() ?? 0 }
        func line(_ row: [String]) -> String {
            row.enumerated().map { column, text in
                let pad = String(repeating: " ", count: widths[column] - text.count)
                return column == 0 ? text + pad : pad + text
            }.joined(separator: "   ")
        }
        var lines = rows.map(line)
        lines.insert(String(repeating: "-", count: lines[0].count), at: 1)
        return lines
    }

    /// Each figure over the bus against its raw baseline (latency: Containment / raw; throughput: the share of raw).
    static func busRatios(raw: RawFigures, runtime: RuntimeFigures) -> [String: Double] {
        func ratio(_ value: Double, _ baseline: Double) -> Double { baseline > 0 ? value / baseline : 0 }
        return [
            "roundTripP50": ratio(runtime.roundTrip.p50, raw.roundTrip.p50),
            "roundTripP99": ratio(runtime.roundTrip.p99, raw.roundTrip.p99),
            "roundTripP999": ratio(runtime.roundTrip.p999, raw.roundTrip.p999),
            "pipelined": ratio(runtime.pipelinedPerSecond, raw.pipelinedPerSecond),
            "pipelinedCPU": ratio(runtime.pipelinedCPUMicros, raw.pipelinedCPUMicros),
            "delivery1": ratio(runtime.delivery1.perSecond, raw.pubSub1.perSecond),
            "delivery8": ratio(runtime.delivery8.perSecond, raw.pubSub8.perSecond),
            // Beside the floor: raw ZeroMQ with the journal's synchronous write per drained batch.
            "roundTripP50VersusFloor": ratio(runtime.roundTrip.p50, raw.synced.roundTrip.p50),
            "pipelinedVersusFloor": ratio(runtime.pipelinedPerSecond, raw.synced.pipelinedPerSecond),
        ]
    }

    /// Round trips, pipelined requests and event delivery, each beside raw ZeroMQ.
    static func busRows(
        raw: RawFigures,
        runtime: RuntimeFigures,
        ratios r: [String: Double],
        _ settings: BenchSettings
    ) -> [[String]] {
        [
            [
                "round trip p50", micros(runtime.roundTrip.p50), micros(raw.roundTrip.p50),
                times(r["roundTripP50"]),
            ],
            [
                "round trip p99", micros(runtime.roundTrip.p99), micros(raw.roundTrip.p99),
                times(r["roundTripP99"]),
            ],
            [
                "round trip p99.9", micros(runtime.roundTrip.p999), micros(raw.roundTrip.p999),
                times(r["roundTripP999"]),
            ],
            [
                "  round trip p50 beside raw + the journal's sync (floor)", micros(runtime.roundTrip.p50),
                micros(raw.synced.roundTrip.p50), times(r["roundTripP50VersusFloor"]),
            ],
            [
                "pipelined \(settings.clients)×\(settings.window), replies/s", count(runtime.pipelinedPerSecond),
                count(raw.pipelinedPerSecond), percent(r["pipelined"]),
            ],
            [
                "  server's CPU per pipelined request", micros(runtime.pipelinedCPUMicros),
                micros(raw.pipelinedCPUMicros), times(r["pipelinedCPU"]),
            ],
            [
                "  pipelined beside raw + the journal's sync (floor)", count(runtime.pipelinedPerSecond),
                count(raw.synced.pipelinedPerSecond), percent(r["pipelinedVersusFloor"]),
            ],
            [
                "events/s to 1 subscriber", count(runtime.delivery1.perSecond), count(raw.pubSub1.perSecond),
                percent(r["delivery1"]),
            ],
            [
                "events/s to each of 8 subscribers", count(runtime.delivery8.perSecond), count(raw.pubSub8.perSecond),
                percent(r["delivery8"]),
            ],
        ] + stalledRows(runtime)
    }

    /// With `--stalled-subscribers`: the supervisor's memory beside subscribers that never read, and the gaps the
    /// subscribers that read saw meanwhile.
    static func stalledRows(_ runtime: RuntimeFigures) -> [[String]] {
        guard let stalled = runtime.stalled else { return [] }
        let gaps = runtime.delivery1.gaps + runtime.delivery8.gaps
        return [
            [
                "supervisor RSS beside \(stalled.subscribers) stalled subscribers: before / peak / after",
                "\(mebibytes(stalled.beforeKiB)) / \(mebibytes(stalled.peakKiB)) / \(mebibytes(stalled.afterKiB))",
                "bound: +\(mebibytes(stalled.boundKiB))", "",
            ],
            ["  gaps at the 1 + 8 subscribers that read, meanwhile", "\(gaps)", "", ""],
        ]
    }

    /// The creation of controllers over hosts, and the memory it took.
    static func creationRows(_ creation: CreationFigure) -> [[String]] {
        [
            [
                "create \(count(Double(creation.controllers))) controllers / \(creation.hosts) hosts",
                String(format: "%.2f s", creation.seconds), "", "",
            ],
            ["  creations/s", count(creation.perSecond), "", ""],
            ["memory per controller, supervisor", bytes(creation.supervisorBytesPerController), "", ""],
            ["memory per controller, host", bytes(creation.hostBytesPerController), "", ""],
            ["peak RSS, supervisor", mebibytes(creation.supervisorPeakKiB), "", ""],
            ["peak RSS, largest host", mebibytes(creation.hostPeakKiB.max() ?? 0), "", ""],
        ]
    }

    /// The callbacks through one host, per kind and number of actors.
    static func hostRows(_ figures: [HostCallbackFigure]) -> [[String]] {
        figures.map { figure in
            [
                "callbacks/s through one host, \(count(Double(figure.actors))) \(figure.kind) "
                    + (figure.actors == 1 ? "actor" : "actors"),
                count(figure.perSecond),
                "\(count(Double(figure.callbacks))) in " + String(format: "%.2f s", figure.seconds),
                "",
            ]
        }
    }

    /// The durability rows: recovery times, then each `journalSync` mode's round trip and pipelined figures.
    static func durabilityRows(_ durability: DurabilityFigures, _ settings: BenchSettings) -> [[String]] {
        var rows: [[String]] = [
            [
                "recover a journal of \(count(Double(durability.journalRecovery.events))) events",
                String(format: "%.2f s", durability.journalRecovery.seconds),
                "\(count(Double(durability.journalRecovery.bytes / 1_048_576))) MiB", "",
            ],
            [
                "recover a checkpoint of \(count(Double(durability.checkpointRecovery.controllers))) controllers",
                String(format: "%.2f s", durability.checkpointRecovery.seconds),
                "\(count(Double(durability.checkpointRecovery.bytes / 1_048_576))) MiB", "",
            ],
            [
                "recover \(count(Double(durability.answersRecovery.answerClients))) clients' memory warnings to "
                    + "\(count(Double(durability.answersRecovery.controllers))) controllers",
                String(format: "%.2f s", durability.answersRecovery.seconds),
                "\(count(Double(durability.answersRecovery.bytes / 1_048_576))) MiB",
                "kept whole: \(count(Double(durability.answersRecovery.answerBytes / 1_024))) KiB",
            ],
        ]
        rows.append([
            "disk: write + fdatasync p50 / p99, appending",
            "\(micros(durability.diskSync.appending.p50)) / \(micros(durability.diskSync.appending.p99))", "", "",
        ])
        rows.append([
            "disk: write + fdatasync p50 / p99, over reserved space",
            "\(micros(durability.diskSync.reserved.p50)) / \(micros(durability.diskSync.reserved.p99))", "", "",
        ])
        let through = durability.diskSync.reservedWritingThrough
        rows.append([
            "disk: write O_DSYNC p50 / p99, over reserved space (the journal)",
            "\(micros(through.p50)) / \(micros(through.p99))", "", "",
        ])
        for mode in durability.syncModes {
            rows.append([
                "journalSync \(mode.mode): round trip p50 / p99",
                "\(micros(mode.roundTrip.p50)) / \(micros(mode.roundTrip.p99))", "", "",
            ])
            rows.append([
                "journalSync \(mode.mode): pipelined \(settings.clients)×\(settings.window), replies/s",
                count(mode.pipelinedPerSecond), "", "",
            ])
        }
        return rows
    }

    /// The replicated journal's rows: each journal's round trip and pipelined figures, then the failover time.
    static func replicationRows(_ replication: ReplicationFigures, _ settings: BenchSettings) -> [[String]] {
        var rows: [[String]] = []
        for journal in replication.journals {
            rows.append([
                "journal: \(journal.journal), round trip p50 / p99",
                "\(micros(journal.roundTrip.p50)) / \(micros(journal.roundTrip.p99))", "", "",
            ])
            rows.append([
                "journal: \(journal.journal), pipelined \(settings.clients)×\(settings.window), replies/s",
                count(journal.pipelinedPerSecond), "", "",
            ])
        }
        let failover = replication.failover
        rows.append([
            "failover over \(failover.kills) kills (client resends every \(failover.resendMs) ms): p50 / p90 / max",
            String(format: "%.0f / %.0f / %.0f ms", failover.p50, failover.p90, failover.max), "", "",
        ])
        return rows
    }

    /// The codec pairs: each hand-written path's rate, SwiftProtobuf's for the same work, and the speed-up.
    static func codecRows(_ codec: CodecFigure) -> [[String]] {
        codec.pairs.map { pair in
            [
                "codec: \(pair.work), \(pair.unit)/s (hand-written, SwiftProtobuf)", count(pair.handWrittenPerSecond),
                count(pair.swiftProtobufPerSecond), times(pair.speedup),
            ]
        }
    }

    static func recovery(_ figure: RecoveryBenchmark.Figure, of what: String) -> String {
        let amount = what == "events" ? Double(figure.events) : Double(figure.controllers)
        return String(format: "%.2f s", figure.seconds) + " for \(count(amount)) \(what)"
    }

    static func count(_ value: Double) -> String {
        let formatter = NumberFormatter()
        formatter.numberStyle = .decimal
        formatter.maximumFractionDigits = 0
        formatter.locale = Locale(identifier: "en_US")
        return formatter.string(from: NSNumber(value: value.rounded())) ?? "\(Int(value))"
    }

    static func micros(_ value: Double) -> String { String(format: "%.1f µs", value) }
    static func bytes(_ value: Double) -> String { String(format: "%.0f B", value) }
    static func mebibytes(_ kib: Int) -> String { String(format: "%.1f MiB", Double(kib) / 1024) }
    static func times(_ value: Double?) -> String { value.map { String(format: "%.2f×", $0) } ?? "" }
    static func percent(_ value: Double?) -> String { value.map { String(format: "%.0f%%", $0 * 100) } ?? "" }
}
