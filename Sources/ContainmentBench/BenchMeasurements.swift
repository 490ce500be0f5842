import ContainmentBus
import ContainmentLoad
import ContainmentModel
import ContainmentWorkload
import Foundation
import Histogram
import ZeroMQ

/// Round-trip percentiles, in microseconds.
struct Latency: Codable, Sendable {
    var count: Int
    var p50: Double
    var p99: Double
    var p999: Double
    var max: Double

    init(_ histogram: Histogram<UInt64>) {
        count = Int(histogram.totalCount)
        p50 = Double(histogram.valueAtPercentile(50)) / 1_000
        p99 = Double(histogram.valueAtPercentile(99)) / 1_000
        p999 = Double(histogram.valueAtPercentile(99.9)) / 1_000
        max = Double(histogram.max) / 1_000
    }
}

/// The model alone: a recorded random stream applied on one thread.
struct ModelFigure: Codable, Sendable {
    var commands: Int
    var accepted: Int
    var events: Int
    var seconds: Double
    var commandsPerSecond: Double
    var eventsPerSecond: Double
    /// The same stream applied as the supervisor does once a host registered answering code (SPEC §15), none of the
    /// stream's controllers being of an answering kind: the cost of asking whether to ask.
    var askingCommandsPerSecond: Double

    /// Records `count` steps untimed, then times three passes of each way and keeps the medians.
    static func measure(count: Int) -> ModelFigure {
        let stream = ModelThroughput(seed: 1, count: count, poolSize: 300)
        let clock = ContinuousClock()
        func median(asking: Bool) -> (Duration, ModelThroughput.Tally) {
            var passes: [(Duration, ModelThroughput.Tally)] = []
            for _ in 0..<3 {
                let start = clock.now
                let tally = stream.run(asking: asking)
                passes.append((clock.now - start, tally))
            }
            passes.sort { $0.0 < $1.0 }
            return passes[1]
        }
        let (elapsed, tally) = median(asking: false)
        let (askingElapsed, _) = median(asking: true)
        let seconds = elapsed.seconds
        return ModelFigure(
            commands: stream.steps.count,
            accepted: tally.accepted,
            events: tally.events,
            seconds: seconds,
            commandsPerSecond: Double(stream.steps.count) / seconds,
            eventsPerSecond: Double(tally.events) / seconds,
            askingCommandsPerSecond: Double(stream.steps.count) / askingElapsed.seconds
        )
    }
}

/// libzmq alone, between this process and a `bench-peer`: the baselines.
struct RawFigures: Codable, Sendable {
    var roundTrip: Latency
    var pipelinedPerSecond: Double
    /// The echo peer's time on a CPU per pipelined request, µs.
    var pipelinedCPUMicros: Double
    var pubSub1: DeliveryFigure
    var pubSub8: DeliveryFigure
    /// The same echo writing each drained batch of requests `O_DSYNC` before answering it: the floor.
    var synced: SyncedFigures
}

/// Raw ZeroMQ with the journal's synchronous write (``SyncedLog``): the round trip and pipelined rate of an echo that
/// makes each request durable before its reply and does nothing else — what no sequencer on this transport and disk,
/// with the same guarantee, can beat (docs/BENCH.md, "The floor").
struct SyncedFigures: Codable, Sendable {
    var roundTrip: Latency
    var pipelinedPerSecond: Double
    var pipelinedCPUMicros: Double
    /// The requests the echo wrote to its log (read back from it): every one it answered.
    var journaled: Int
}

/// Containment: the same traffic through a real supervisor and hosts.
struct RuntimeFigures: Codable, Sendable {
    var roundTrip: Latency
    var pipelinedPerSecond: Double
    /// The supervisor's time on a CPU per pipelined request (every thread of it), µs: what each costs the server,
    /// whatever else the machine runs meanwhile.
    var pipelinedCPUMicros: Double
    var pipelinedRefused: Int
    var delivery1: DeliveryFigure
    var delivery8: DeliveryFigure
    /// With `--stalled-subscribers`: what that many subscribers that never read cost the supervisor meanwhile.
    var stalled: StalledFigure?
}

/// Many controllers created over many hosts, and what they cost in memory.
struct CreationFigure: Codable, Sendable {
    var controllers: Int
    var hosts: Int
    var seconds: Double
    var perSecond: Double
    var supervisorBytesPerController: Double
    var hostBytesPerController: Double
    var supervisorDeltaKiB: Int
    var hostDeltaKiB: [Int]
    /// Peak resident memory (VmHWM) of the supervisor, and of each host, once every controller is created.
    var supervisorPeakKiB: Int
    var hostPeakKiB: [Int]
}

/// The settings of a run, so every figure can be reproduced.
struct BenchSettings: Codable, Sendable {
    var quick: Bool
    var roundTrips: Int
    /// Pipelined requests the main throughput figure is measured over (then a fraction of it for the others).
    var requests: Int
    var clients: Int
    var window: Int
    var pubSubMessages: Int
    var modelCommands: Int
    var controllers: Int
    var hosts: Int
    var batch: Int
    var eventsPerRequest: Int
    var recoveryEvents: Int
    var recoveryControllers: Int
    var hostCallbacks: Int
    var stalledSubscribers: Int
    var failovers: Int
    var requestBytes: Int
    var replyBytes: Int
    var eventTopicBytes: Int
    var eventBytes: Int
}

/// Runs the measurements, each in its own processes.
struct BenchRunner {
    let settings: BenchSettings
    let directory: String
    let context: Context
    let progress: (String) -> Void

    /// The requests that drive event delivery: each publishes `eventsPerRequest` events.
    var deliveryRequests: Int { max(1, settings.requests / 8) }

    // MARK: Raw libzmq

    /// PUB→SUB to 1 and 8 subscriber processes.
    func rawPubSub() throws -> (DeliveryFigure, DeliveryFigure) {
        progress("raw ZeroMQ: PUB→SUB to 1 and 8 subscribers")
        return (try rawPubSub(subscribers: 1), try rawPubSub(subscribers: 8))
    }

    /// A PUB in this process sends real `alphaChanged` events (topic and body) to subscriber processes as fast as
    /// the slowest one takes them: no drops (`ZMQ_XPUB_NODROP`), so every gap would be a bug.
    private func rawPubSub(subscribers count: Int) throws -> DeliveryFigure {
        let endpoint = "ipc://\(directory)/pub\(count).sock"
        let publisher = try context.socket(.pub)
        try publisher.set(.sendHighWaterMark, to: 10_000)
        try publisher.set(.xpubNoDrop, to: true)
        try publisher.bind(endpoint)
        defer { publisher.close() }
        let group = try SubscriberGroup(
            count: count,
            endpoint: endpoint,
            directory: directory,
            tag: "raw\(count)",
            measured: settings.pubSubMessages,
            highWaterMark: 10_000
        )
        var seq: UInt64 = 0
        let warmTopic = Array("runtime/warm".utf8)
        func publish(_ topic: [UInt8]) throws {
            seq += 1
            let frames = [topic, BenchMessages.event(seq: seq)]
            while try !publisher.send(frames) { usleep(20) }
        }
        try group.waitUntilReady { try publish(warmTopic) }
        for _ in 0..<settings.pubSubMessages { try publish(BenchMessages.eventTopic) }
        return DeliveryFigure(try group.reports(timeout: .seconds(120)), expected: settings.pubSubMessages)
    }

    // MARK: Containment

    /// Round trips and pipelined commands through a supervisor, and the same traffic to the raw echo peer, in
    /// alternating blocks (so a change in the machine's load weighs on both); then event delivery.
    func commands() throws -> (raw: RawFigures, runtime: RuntimeFigures) {
        progress("raw ZeroMQ: starting the echo peers (one syncing); Containment: starting a supervisor and a host")
        let echoEndpoint = "ipc://\(directory)/echo.sock"
        let replyFile = directory + "/reply.bin"
        try Data(BenchMessages.reply).write(to: URL(fileURLWithPath: replyFile))
        let ready = directory + "/echo.ready"
        let echo = try BenchProcess(
            ["bench-peer", "echo", "--endpoint", echoEndpoint, "--reply-file", replyFile, "--ready-file", ready],
            log: directory + "/echo.log"
        )
        defer { echo.stop() }
        let syncedEndpoint = "ipc://\(directory)/synced-echo.sock"
        let syncFile = directory + "/synced-echo.journal"
        let syncedReady = directory + "/synced-echo.ready"
        let syncedEcho = try BenchProcess(
            [
                "bench-peer", "echo", "--endpoint", syncedEndpoint, "--reply-file", replyFile, "--sync-file", syncFile,
                "--ready-file", syncedReady,
            ],
            log: directory + "/synced-echo.log"
        )
        defer { syncedEcho.stop() }
        let runtime = try LocalRuntime(hosts: 1, settings: "requestTimeoutMs: 30000\n")
        defer { runtime.stop() }
        let clock = ContinuousClock()
        let deadline = clock.now + .seconds(10)
        for (peer, file) in [(echo, ready), (syncedEcho, syncedReady)] {
            while !FileManager.default.fileExists(atPath: file) {
                guard clock.now < deadline, peer.process.isRunning else {
                    throw LoadError("an echo peer did not start")
                }
                Thread.sleep(forTimeInterval: 0.01)
            }
        }
        let endpoint = runtime.config.commandEndpoint
        let client = try CommandClient(context: context, endpoint: endpoint, timeout: .seconds(30))
        try prepareClients(endpoint: endpoint)

        progress("round trips, raw, raw + sync and Containment alternating")
        let rawTrips = try RoundTrips(context: context, endpoint: echoEndpoint)
        let syncedTrips = try RoundTrips(context: context, endpoint: syncedEndpoint)
        let trips = try RoundTrips(context: context, endpoint: endpoint)
        // One raw round trip, one synced, one through Containment, and so on: a burst of load elsewhere on the
        // machine lands on all alike, which matters for the tail percentiles on a shared machine.
        let warmup = max(1, settings.roundTrips / 10)
        for index in 0..<(warmup + settings.roundTrips) {
            try rawTrips.run(1, record: index >= warmup)
            try syncedTrips.run(1, record: index >= warmup)
            try trips.run(1, record: index >= warmup)
        }

        progress("pipelined requests, raw, raw + sync and Containment in alternating rounds")
        let rounds = 4
        let round = max(1, settings.requests / rounds)
        // Raw, synced and Containment: each one's replies and its server's time on a CPU over its rounds (every
        // thread: libzmq's I/O thread too).
        let supervisor = runtime.sample().first { $0.name == "supervisor" }?.pid ?? 0
        let servers = [
            (echoEndpoint, echo.process.processIdentifier), (syncedEndpoint, syncedEcho.process.processIdentifier),
            (endpoint, supervisor),
        ]
        var results = [Pipeline.Result](repeating: Pipeline.Result(), count: servers.count)
        var used = [UInt64](repeating: 0, count: servers.count)
        for _ in 0..<rounds {
            for (index, (target, server)) in servers.enumerated() {
                let before = ProcessSample.cpuNanos(of: server)
                let result = try Pipeline(endpoint: target, clients: settings.clients, window: settings.window).run(
                    context: context,
                    .requests(round, warmup: round / 10),
                    request: BenchMessages.request,
                    accepted: BenchMessages.isAccepted
                )
                used[index] += ProcessSample.cpuNanos(of: server, since: before)
                results[index].add(result)
            }
        }
        echo.stop()
        syncedEcho.stop()
        let requests = Double(rounds * (round + round / 10))
        // Every request the synced echo answered was written first: its log holds each of them.
        let journaled = try SyncedLog.records(in: syncFile)
        let sentToSynced = warmup + settings.roundTrips + rounds * (round + round / 10)
        guard journaled == sentToSynced else {
            throw LoadError("the synced echo wrote \(journaled) requests of the \(sentToSynced) it answered")
        }
        let cpuMicros = used.map { Double($0) / requests / 1_000 }

        progress(
            "Containment: event delivery to 1 and 8 subscribers"
                + (settings.stalledSubscribers > 0 ? ", beside \(settings.stalledSubscribers) that never read" : "")
        )
        let ((delivery1, delivery8), stalled) = try besideStalled(runtime) {
            (
                try delivery(runtime: runtime, client: client, subscribers: 1),
                try delivery(runtime: runtime, client: client, subscribers: 8)
            )
        }
        let (pubSub1, pubSub8) = try rawPubSub()
        return (
            RawFigures(
                roundTrip: Latency(rawTrips.histogram),
                pipelinedPerSecond: results[0].perSecond,
                pipelinedCPUMicros: cpuMicros[0],
                pubSub1: pubSub1,
                pubSub8: pubSub8,
                synced: SyncedFigures(
                    roundTrip: Latency(syncedTrips.histogram),
                    pipelinedPerSecond: results[1].perSecond,
                    pipelinedCPUMicros: cpuMicros[1],
                    journaled: journaled
                )
            ),
            RuntimeFigures(
                roundTrip: Latency(trips.histogram),
                pipelinedPerSecond: results[2].perSecond,
                pipelinedCPUMicros: cpuMicros[2],
                pipelinedRefused: results[2].refused,
                delivery1: delivery1,
                delivery8: delivery8,
                stalled: stalled
            )
        )
    }

    /// Subscribers count what the supervisor publishes while pipelined clients drive it as hard as they can.
    private func delivery(
        runtime: LocalRuntime,
        client: CommandClient,
        subscribers count: Int
    ) throws
        -> DeliveryFigure
    {
        // Each client's controller at alpha 0.75, whatever the requests before left it at, before any subscriber
        // connects: every command of the batches below (which begin at 0.25) then changes it and publishes an event,
        // so that `expected` is exact.
        let reset = (0..<settings.clients).map {
            Request(.setAlpha(.root(ControllerID(BenchMessages.controller($0))), 0.75), by: .natural)
        }
        _ = try client.submit(reset)
        let group = try SubscriberGroup(
            count: count,
            endpoint: runtime.config.eventEndpoint,
            directory: directory,
            tag: "events\(count)",
            measured: deliveryRequests * settings.eventsPerRequest,
            highWaterMark: 0
        )
        // A destroy of nobody is rejected and publishes a ruleViolation (under runtime/): the warm-up.
        let nobody = Request.system(.destroy(ControllerID("bench-nobody")))
        try group.waitUntilReady { _ = try? client.submit([nobody]) }
        // Each request a batch of set_alpha commands, each publishing an event: the event path is what is driven.
        let tails = (0..<settings.clients).map {
            BenchMessages.batchTail(client: $0, size: settings.eventsPerRequest)
        }
        _ = try Pipeline(endpoint: runtime.config.commandEndpoint, clients: settings.clients, window: settings.window)
            .run(
                context: context,
                .requests(deliveryRequests, warmup: 0),
                request: { client, sequence in BenchMessages.withField1(UInt64(sequence + 1), tails[client]) },
                accepted: BenchMessages.isAccepted
            )
        return DeliveryFigure(
            try group.reports(timeout: .seconds(120)),
            expected: deliveryRequests * settings.eventsPerRequest
        )
    }

    // MARK: Creation and memory

    func creation() throws -> CreationFigure {
        progress("Containment: starting a supervisor and \(settings.hosts) hosts")
        let runtime = try LocalRuntime(
            hosts: settings.hosts,
            settings: "requestTimeoutMs: 60000\nheartbeatTimeoutMs: 30000\n",
            timeout: .seconds(60)
        )
        defer { runtime.stop() }
        Thread.sleep(forTimeInterval: 0.5)
        let before = runtime.sample()
        progress("Containment: creating \(settings.controllers) controllers in batches of \(settings.batch)")
        let total = settings.controllers
        let batch = settings.batch
        let hosts = runtime.hostNames
        let batches = (total + batch - 1) / batch
        var next = 0
        let clock = ContinuousClock()
        let start = clock.now
        let created = try Pipeline(endpoint: runtime.config.commandEndpoint, clients: 2, window: 4).run(
            context: context,
            .requests(batches, warmup: 0),
            request: { _, _ in
                let first = next * batch
                next += 1
                let indices = first..<min(total, first + batch)
                return ClientRequest.commands(
                    indices.map { .system(.create(ControllerID("n\($0)"), kind: .content)) },
                    hosts: Dictionary(
                        uniqueKeysWithValues: indices.map { (ControllerID("n\($0)"), hosts[$0 % hosts.count]) }
                    ),
                    requestID: UInt64(next)
                )
            },
            accepted: BenchMessages.isAccepted
        )
        guard created.accepted == batches else {
            throw LoadError("\(batches - created.accepted) of \(batches) creation batches were refused")
        }
        // Each host handles its deliveries and a forwarded inspect in order: once it answers an inspect of the last
        // controller it was given, it has an actor for every one.
        let client = try CommandClient(
            context: context,
            endpoint: runtime.config.commandEndpoint,
            timeout: .seconds(90)
        )
        for (offset, host) in hosts.enumerated() {
            let last = (0..<total).last { $0 % hosts.count == offset }
            guard let last else { continue }
            let reply = try client.inspect(ControllerID("n\(last)"))
            guard reply.host == host else { throw LoadError("n\(last) is on \(reply.host), not \(host)") }
        }
        let seconds = (clock.now - start).seconds
        Thread.sleep(forTimeInterval: 0.5)
        let after = runtime.sample()
        func delta(_ name: String) -> Int {
            (after.first { $0.name == name }?.residentKiB ?? 0) - (before.first { $0.name == name }?.residentKiB ?? 0)
        }
        let hostDeltas = hosts.map(delta)
        let perHost = Double(total) / Double(hosts.count)
        let meanHostDelta = Double(hostDeltas.reduce(0, +)) / Double(max(1, hostDeltas.count))
        return CreationFigure(
            controllers: total,
            hosts: hosts.count,
            seconds: seconds,
            perSecond: Double(total) / seconds,
            supervisorBytesPerController: Double(delta("supervisor") * 1024) / Double(total),
            hostBytesPerController: meanHostDelta * 1024 / perHost,
            supervisorDeltaKiB: delta("supervisor"),
            hostDeltaKiB: hostDeltas,
            supervisorPeakKiB: after.first { $0.name == "supervisor" }?.peakKiB ?? 0,
            hostPeakKiB: hosts.map { name in after.first { $0.name == name }?.peakKiB ?? 0 }
        )
    }
}
