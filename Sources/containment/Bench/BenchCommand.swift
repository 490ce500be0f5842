import ArgumentParser
import ContainmentBus
import ContainmentLoad
import ContainmentRuntime
import Foundation
import ZeroMQ

/// `containment bench`: every figure of the runtime beside its baseline, measured in one run on this machine.
struct BenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Measure the model, raw ZeroMQ and Containment in one run, each figure beside its baseline.",
        discussion: """
            Starts its own processes (echo and subscriber peers, a supervisor and hosts) in a fresh directory and \
            stops them. Prints a table (or --json) and whether each target is met; exits 0 either way. See \
            docs/BENCH.md for what each figure measures.
            """
    )

    @Flag(help: "Scaled down to run in seconds (a smoke test; figures are rough).") var quick = false
    @Flag(help: "Print the figures as JSON.") var json = false
    @Option(help: "Round trips timed for each latency figure (default 20000; quick 2000).") var roundTrips: Int?
    @Option(help: "Seconds each throughput figure is measured (default 5; quick 1).") var seconds: Double?
    @Option(help: "Pipelined clients (DEALERs).") var clients = 4
    @Option(help: "Requests each pipelined client keeps outstanding.") var window = 16
    @Option(help: "Messages each raw PUB→SUB run publishes (default 500000; quick 50000).") var pubSubMessages: Int?
    @Option(help: "Steps of the model's recorded stream (default 200000; quick 20000).") var modelCommands: Int?
    @Option(help: "Controllers to create (default 1000000; quick 5000).") var controllers: Int?
    @Option(help: "Hosts they are created over (default 16; quick 4).") var hosts: Int?
    @Option(help: "Creations per batch.") var batch = 100
    @Option(help: "set_alpha commands (each one event) per request while event delivery is measured (even).")
    var eventsPerRequest = 16
    @Option(help: "Events in the journal recovered (default 1000000; quick 50000).") var recoveryEvents: Int?
    @Option(help: "Controllers in the checkpoint recovered (default 1000000; quick 50000).")
    var recoveryControllers: Int?
    @Option(
        help:
            "Callbacks sent through one host per content figure, a quarter per busy one (default 200000; quick 20000)."
    )
    var hostCallbacks: Int?
    @Option(
        help: """
            Subscribers that never read, connected while event delivery is measured: the supervisor's resident size \
            before, at the peak and after they leave, and whether the measured subscribers still see every event.
            """
    )
    var stalledSubscribers = 0
    @Flag(help: "Only the durability figures: recovery, and each journalSync mode.") var durabilityOnly = false
    @Flag(help: "Only the callbacks through one host: 1 and 1,000 actors, content and busy.") var hostOnly = false
    @Flag(
        help:
            "Only a typed method call's round trip beside an invoke's, and a resize answered by code beside one that asks nobody (--round-trips of each)."
    )
    var callsOnly = false
    @Flag(help: "Only the creation of --controllers controllers over --hosts hosts, with memory and peak RSS.")
    var creationOnly = false
    @Flag(help: "Only the model alone (no processes): the figure to profile.") var modelOnly = false
    @Flag(help: "Only the codec figures: the hand-written protobuf paths beside SwiftProtobuf (no processes).")
    var codecOnly = false
    @Flag(
        help: """
            Only the figures over the bus, each beside raw ZeroMQ: round trips, pipelined requests, event delivery \
            to 1 and 8 subscribers.
            """
    )
    var busOnly = false
    @Flag(
        help: """
            Only the supervisor's own work per request, on one thread, without sockets or disk (no processes): \
            pipelined requests of one command, and delivery's requests of --events-per-request commands.
            """
    )
    var coreOnly = false
    @Flag(help: "Keep the working directory (peer logs, reports).") var keep = false

    func validate() throws {
        for (name, value) in [
            ("--round-trips", roundTrips), ("--pub-sub-messages", pubSubMessages), ("--model-commands", modelCommands),
            ("--controllers", controllers), ("--hosts", hosts), ("--clients", clients), ("--window", window),
            ("--batch", batch), ("--events-per-request", eventsPerRequest), ("--recovery-events", recoveryEvents),
            ("--recovery-controllers", recoveryControllers), ("--host-callbacks", hostCallbacks),
        ] where (value ?? 1) < 1 {
            throw ValidationError("\(name) must be at least 1")
        }
        if stalledSubscribers < 0 { throw ValidationError("--stalled-subscribers must not be negative") }
        if let seconds, !(seconds > 0) { throw ValidationError("--seconds must be positive") }
        if !eventsPerRequest.isMultiple(of: 2) { throw ValidationError("--events-per-request must be even") }
    }

    func run() throws {
        let settings = BenchSettings(
            quick: quick,
            roundTrips: roundTrips ?? (quick ? 2_000 : 20_000),
            seconds: seconds ?? (quick ? 1 : 5),
            clients: clients,
            window: window,
            pubSubMessages: pubSubMessages ?? (quick ? 50_000 : 500_000),
            modelCommands: modelCommands ?? (quick ? 20_000 : 200_000),
            controllers: controllers ?? (quick ? 5_000 : 1_000_000),
            hosts: hosts ?? (quick ? 4 : 16),
            batch: batch,
            eventsPerRequest: eventsPerRequest,
            recoveryEvents: recoveryEvents ?? (quick ? 50_000 : 1_000_000),
            recoveryControllers: recoveryControllers ?? (quick ? 50_000 : 1_000_000),
            hostCallbacks: hostCallbacks ?? (quick ? 20_000 : 200_000),
            stalledSubscribers: stalledSubscribers,
            requestBytes: BenchMessages.request(client: 0, sequence: 0).count,
            replyBytes: BenchMessages.reply.count,
            eventTopicBytes: BenchMessages.eventTopic.count,
            eventBytes: BenchMessages.event(seq: 1_000_000).count
        )
        if codecOnly {
            let codec = try CodecFigure.measure(steps: settings.modelCommands)
            return try printAlone(
                codec,
                ["figure", "hand-written", "SwiftProtobuf", "speed-up"],
                BenchReport.codecRows(codec)
            )
        }
        if coreOnly {
            let core = CoreFigures.measure(settings)
            if json {
                try printJSON(core)
            } else {
                print(BenchReport.coreLines(core).joined(separator: "\n"))
            }
            return
        }
        if modelOnly {
            let model = ModelFigure.measure(count: settings.modelCommands)
            if json {
                try printJSON(model)
            } else {
                print(
                    "model alone: \(BenchReport.count(model.commandsPerSecond)) commands/s, "
                        + "\(BenchReport.count(model.eventsPerSecond)) events/s (\(model.commands) steps); "
                        + "asking whether code answers: \(BenchReport.count(model.askingCommandsPerSecond)) commands/s"
                )
            }
            return
        }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "containment-bench-\(getpid())-\(UInt32.random(in: 0..<UInt32.max))"
        ).path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { if !keep { try? FileManager.default.removeItem(atPath: directory) } }
        let json = json
        let runner = BenchRunner(settings: settings, directory: directory, context: try Context()) { step in
            if !json { FileHandle.standardError.write(Data("bench: \(step)\n".utf8)) }
        }
        if hostOnly {
            let callbacks = try runner.hostCallbacks()
            return try printAlone(
                callbacks,
                ["figure", "Containment", "measured", ""],
                BenchReport.hostRows(callbacks)
            )
        }
        if callsOnly {
            let calls = try runner.calls()
            return try printAlone(calls, ["figure", "Containment", "beside", "ratio"], BenchReport.callRows(calls))
        }
        if creationOnly {
            let creation = try runner.creation()
            return try printAlone(creation, ["figure", "Containment", "", ""], BenchReport.creationRows(creation))
        }
        if busOnly {
            let (raw, runtime) = try runner.commands()
            let ratios = BenchReport.busRatios(raw: raw, runtime: runtime)
            return try printAlone(
                BusFigures(raw: raw, runtime: runtime, ratios: ratios),
                ["figure", "Containment", "raw ZeroMQ", "ratio"],
                BenchReport.busRows(raw: raw, runtime: runtime, ratios: ratios, settings)
            )
        }
        if durabilityOnly {
            let durability = try runner.durability()
            return try printAlone(
                durability,
                ["figure", "Containment", "size", ""],
                BenchReport.durabilityRows(durability, settings)
            )
        }
        runner.progress("the model alone")
        let model = ModelFigure.measure(count: settings.modelCommands)
        runner.progress("the supervisor's core alone")
        let core = CoreFigures.measure(settings)
        runner.progress("the codec: hand-written and SwiftProtobuf")
        let codec = try CodecFigure.measure(steps: settings.modelCommands)
        let (raw, runtime) = try runner.commands()
        let creation = try runner.creation()
        let hostCallbacks = try runner.hostCallbacks()
        let calls = try runner.calls()
        let durability = try runner.durability()
        let report = BenchReport(
            settings: settings,
            model: model,
            core: core,
            codec: codec,
            raw: raw,
            runtime: runtime,
            creation: creation,
            hostCallbacks: hostCallbacks,
            calls: calls,
            durability: durability
        )
        if json {
            try printJSON(report)
        } else {
            print(report.table)
        }
    }
}

extension BenchCommand {
    /// Prints one figure measured alone: as JSON, or its rows under `header`.
    func printAlone<Figure: Encodable>(_ figure: Figure, _ header: [String], _ rows: [[String]]) throws {
        if json { try printJSON(figure) } else { print(BenchReport.aligned([header] + rows).joined(separator: "\n")) }
    }
}

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
            ] + Self.coreRows(core) + Self.busRows(raw: raw, runtime: runtime, ratios: ratios, settings)
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
        let widths = (0..<4).map { column in rows.map { $0[column].count }.max() ?? 0 }
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
            "delivery1": ratio(runtime.delivery1.perSecond, raw.pubSub1.perSecond),
            "delivery8": ratio(runtime.delivery8.perSecond, raw.pubSub8.perSecond),
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
                "pipelined \(settings.clients)×\(settings.window), replies/s", count(runtime.pipelinedPerSecond),
                count(raw.pipelinedPerSecond), percent(r["pipelined"]),
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
