import ContainmentBus
import ContainmentLoad
import ContainmentConfig
import ContainmentRuntime
import ContainmentWorkload
import Foundation
import ZeroMQ

/// What `containment bench` measures: everything, or one group of figures alone.
package enum BenchMode: String, CaseIterable, Sendable {
    case all, model, core, loop, codec, bus, host, calls, creation, durability, replicated, peer
}

/// `containment bench`'s settings, as its command line gives them (`nil`: the default, or quick's).
package struct BenchOptions: Sendable {
    package var quick = false
    package var json = false
    package var roundTrips: Int?
    package var requests: Int?
    package var clients = 4
    package var window = 16
    package var pubSubMessages: Int?
    package var modelCommands: Int?
    package var controllers: Int?
    package var hosts: Int?
    package var batch = 100
    package var eventsPerRequest = 16
    package var recoveryEvents: Int?
    package var recoveryControllers: Int?
    package var hostCallbacks: Int?
    package var stalledSubscribers = 0
    package var failovers: Int?
    /// `bench replicated`'s way to etcd (`containment-etcd` links the client; this library does not).
    package var etcdStore: (@Sendable (EtcdSettings) throws -> any EtcdStore)?
    package var keep = false

    package init() {}
}

/// Runs `containment bench`: starts its own processes (echo and subscriber peers, a supervisor and hosts) in a fresh
/// directory, stops them, and prints a table (or JSON) with whether each target is met.
package enum Bench {
    package static func run(_ mode: BenchMode, _ options: BenchOptions) throws {
        let settings = BenchSettings(
            quick: options.quick,
            roundTrips: options.roundTrips ?? (options.quick ? 2_000 : 20_000),
            requests: options.requests ?? (options.quick ? 40_000 : 400_000),
            clients: options.clients,
            window: options.window,
            pubSubMessages: options.pubSubMessages ?? (options.quick ? 50_000 : 500_000),
            modelCommands: options.modelCommands ?? (options.quick ? 20_000 : 200_000),
            controllers: options.controllers ?? (options.quick ? 5_000 : 1_000_000),
            hosts: options.hosts ?? (options.quick ? 4 : 16),
            batch: options.batch,
            eventsPerRequest: options.eventsPerRequest,
            recoveryEvents: options.recoveryEvents ?? (options.quick ? 50_000 : 1_000_000),
            recoveryControllers: options.recoveryControllers ?? (options.quick ? 50_000 : 1_000_000),
            hostCallbacks: options.hostCallbacks ?? (options.quick ? 20_000 : 200_000),
            stalledSubscribers: options.stalledSubscribers,
            failovers: options.failovers ?? (options.quick ? 3 : 20),
            requestBytes: BenchMessages.request(client: 0, sequence: 0).count,
            replyBytes: BenchMessages.reply.count,
            eventTopicBytes: BenchMessages.eventTopic.count,
            eventBytes: BenchMessages.event(seq: 1_000_000).count
        )
        if mode == .codec {
            let codec = try CodecFigure.measure(
                steps: ModelThroughput(seed: 1, count: settings.modelCommands, poolSize: 300).steps
            )
            return try printAlone(
                options.json,
                codec,
                ["figure", "hand-written", "SwiftProtobuf", "speed-up"],
                BenchReport.codecRows(codec)
            )
        }
        if mode == .core {
            let core = CoreFigures.measure(settings)
            if options.json {
                try printJSON(core)
            } else {
                print(BenchReport.coreLines(core).joined(separator: "\n"))
            }
            return
        }
        if mode == .model {
            let model = ModelFigure.measure(count: settings.modelCommands)
            let layout = try LayoutFigure.measure(quick: settings.quick)
            if options.json {
                try printJSON(ModelAndLayout(model: model, layout: layout))
            } else {
                print(
                    "model alone: \(BenchReport.count(model.commandsPerSecond)) commands/s, "
                        + "\(BenchReport.count(model.eventsPerSecond)) events/s (\(model.commands) steps); "
                        + "asking whether code answers: \(BenchReport.count(model.askingCommandsPerSecond)) commands/s"
                )
                print(BenchReport.layoutLine(layout))
            }
            return
        }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "containment-bench-\(getpid())-\(UInt32.random(in: 0..<UInt32.max))"
        ).path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { if !options.keep { try? FileManager.default.removeItem(atPath: directory) } }
        let json = options.json
        let runner = BenchRunner(settings: settings, directory: directory, context: try Context()) { step in
            if !json { FileHandle.standardError.write(Data("bench: \(step)\n".utf8)) }
        }
        if mode == .host {
            let callbacks = try runner.hostCallbacks()
            return try printAlone(
                options.json,
                callbacks,
                ["figure", "Containment", "measured", ""],
                BenchReport.hostRows(callbacks)
            )
        }
        if mode == .loop {
            let loop = try runner.loop()
            if options.json { return try printJSON(loop) }
            let events = loop.events
            print(
                "supervisor loop in-process, pipelined \(loop.clients)×\(loop.window): "
                    + "\(BenchReport.count(loop.requestsPerSecond)) requests/s over \(BenchReport.count(Double(loop.requests))), "
                    + String(format: "%.2f µs a request", loop.seconds * 1e6 / Double(loop.requests))
            )
            print(
                "events, requests of \(events.eventsPerRequest): \(BenchReport.count(events.perSecond)) events/s to 1 "
                    + "subscriber, \(events.received) of \(events.requests * events.eventsPerRequest) received, "
                    + "\(events.gaps) gaps"
            )
            return
        }
        if mode == .calls {
            let calls = try runner.calls()
            return try printAlone(
                options.json,
                calls,
                ["figure", "Containment", "beside", "ratio"],
                BenchReport.callRows(calls)
            )
        }
        if mode == .creation {
            let creation = try runner.creation()
            return try printAlone(
                options.json,
                creation,
                ["figure", "Containment", "", ""],
                BenchReport.creationRows(creation)
            )
        }
        if mode == .bus {
            let (raw, runtime) = try runner.commands()
            let ratios = BenchReport.busRatios(raw: raw, runtime: runtime)
            return try printAlone(
                options.json,
                BusFigures(raw: raw, runtime: runtime, ratios: ratios),
                ["figure", "Containment", "raw ZeroMQ", "ratio"],
                BenchReport.busRows(raw: raw, runtime: runtime, ratios: ratios, settings)
            )
        }
        if mode == .peer {
            let peer = try runner.peer()
            if options.json { try printJSON(peer) } else { print(peer.lines(settings).joined(separator: "\n")) }
            return
        }
        if mode == .durability {
            let durability = try runner.durability()
            return try printAlone(
                options.json,
                durability,
                ["figure", "Containment", "size", ""],
                BenchReport.durabilityRows(durability, settings)
            )
        }
        if mode == .replicated {
            guard let store = options.etcdStore else { throw LoadError("bench replicated needs a way to etcd") }
            let replication = try runner.replication(store: store)
            return try printAlone(
                options.json,
                replication,
                ["figure", "Containment", "", ""],
                BenchReport.replicationRows(replication, settings)
            )
        }
        runner.progress("the model alone")
        let model = ModelFigure.measure(count: settings.modelCommands)
        runner.progress("the layout solver")
        let layout = try LayoutFigure.measure(quick: settings.quick)
        runner.progress("the supervisor's core alone")
        let core = CoreFigures.measure(settings)
        runner.progress("the codec: hand-written and SwiftProtobuf")
        let codec = try CodecFigure.measure(
            steps: ModelThroughput(seed: 1, count: settings.modelCommands, poolSize: 300).steps
        )
        let (raw, runtime) = try runner.commands()
        let creation = try runner.creation()
        let hostCallbacks = try runner.hostCallbacks()
        let calls = try runner.calls()
        let durability = try runner.durability()
        let report = BenchReport(
            settings: settings,
            model: model,
            layout: layout,
            core: core,
            codec: codec,
            raw: raw,
            runtime: runtime,
            creation: creation,
            hostCallbacks: hostCallbacks,
            calls: calls,
            durability: durability
        )
        if options.json {
            try printJSON(report)
        } else {
            print(report.table)
        }
    }

    /// Prints one figure measured alone: as JSON, or its rows under `header`.
    static func printAlone<Figure: Encodable>(
        _ json: Bool,
        _ figure: Figure,
        _ header: [String],
        _ rows: [[String]]
    ) throws {
        if json { try printJSON(figure) } else { print(BenchReport.aligned([header] + rows).joined(separator: "\n")) }
    }
}
