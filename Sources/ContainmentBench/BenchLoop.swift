import ContainmentBus
import ContainmentConfig
import ContainmentLoad
import ContainmentModel
import ContainmentRuntime
import Foundation
import ZeroMQ

/// `bench loop`: the supervisor's whole loop in this process (``InProcessSupervisor``) — its sockets, its journal,
/// its driver — driven over ipc by `bench bus`'s pipelined clients, with no other process: what
/// `scripts/callgrind-loop.sh` counts (docs/BENCH.md, "The supervisor's whole loop").
struct LoopFigure: Codable, Sendable {
    var requests: Int
    var clients: Int
    var window: Int
    var seconds: Double
    var requestsPerSecond: Double
    /// The event path, as `bench bus`'s delivery figure drives it: requests of `eventsPerRequest` `set_alpha`
    /// commands, each publishing an event, read by one subscriber on a thread of this process.
    var events: LoopEvents
}

struct LoopEvents: Codable, Sendable {
    var requests: Int
    var eventsPerRequest: Int
    /// Events the subscriber received outside `runtime/`, of the `requests × eventsPerRequest` published.
    var received: Int
    var gaps: Int
    /// The subscriber's rate, first to last event.
    var perSecond: Double
}

extension BenchRunner {
    /// For each path, a warm-up run of a tenth (the journal's first mebibyte reserved, the code paged in), then the
    /// one measured, each through a new supervisor, each request accepted: `--requests` ÷ 2 requests of one
    /// `set_alpha`, then an eighth of `--requests` requests of `--events-per-request`.
    func loop() throws -> LoopFigure {
        let requests = max(1, settings.requests / 2)
        _ = try loop(requests: max(1, requests / 10))
        let figure = try loop(requests: requests)
        let eventRequests = max(1, settings.requests / 8)
        _ = try loopEvents(requests: max(1, eventRequests / 10))
        return LoopFigure(
            requests: requests,
            clients: settings.clients,
            window: settings.window,
            seconds: figure.seconds,
            requestsPerSecond: figure.perSecond,
            events: try loopEvents(requests: eventRequests)
        )
    }

    private func loop(requests: Int) throws -> Pipeline.Result {
        let supervisor = try InProcessSupervisor(directory: directory)
        defer { supervisor.stop() }
        let host = try standInHost(supervisor)
        defer { host.close() }
        return try drive(supervisor, requests: requests, request: BenchMessages.request)
    }

    private func loopEvents(requests: Int) throws -> LoopEvents {
        let supervisor = try InProcessSupervisor(directory: directory)
        defer { supervisor.stop() }
        let host = try standInHost(supervisor)
        defer { host.close() }
        let size = settings.eventsPerRequest
        let subscriber = try SubscriberThread(
            endpoint: supervisor.eventEndpoint,
            base: "\(directory)/loop-sub-\(requests)",
            count: requests * size
        )
        // A destroy of nobody is rejected and publishes a ruleViolation (under runtime/): the warm-up.
        let client = try CommandClient(context: context, endpoint: supervisor.endpoint, timeout: .seconds(30))
        try subscriber.waitUntilReady { _ = try? client.submit([.system(.destroy(ControllerID("bench-nobody")))]) }
        let tails = (0..<settings.clients).map { BenchMessages.batchTail(client: $0, size: size) }
        _ = try drive(supervisor, requests: requests) { client, sequence in
            BenchMessages.withField1(UInt64(sequence + 1), tails[client])
        }
        let report = try subscriber.report()
        return LoopEvents(
            requests: requests,
            eventsPerRequest: size,
            received: report.measured,
            gaps: report.gaps,
            perSecond: report.rate
        )
    }

    /// A stand-in host, registered (welcomed), on which the clients' controllers are then created; it never reads
    /// their callbacks.
    private func standInHost(_ supervisor: InProcessSupervisor) throws -> Socket {
        let host = try context.socket(.dealer)
        try host.set(.receiveTimeout, to: .seconds(30))
        try host.connect(supervisor.endpoint)
        try host.send(HostOutbound.hello(requestID: 1, host: "h0", pid: 1, lastSeq: 0, kinds: []).bytes)
        guard try host.receive() != nil else {
            host.close()
            throw LoadError("the stand-in host was not welcomed")
        }
        try prepareClients(endpoint: supervisor.endpoint)
        return host
    }

    private func drive(
        _ supervisor: InProcessSupervisor,
        requests: Int,
        request: (_ client: Int, _ sequence: Int) -> [UInt8]
    ) throws -> Pipeline.Result {
        let result = try Pipeline(endpoint: supervisor.endpoint, clients: settings.clients, window: settings.window)
            .run(context: context, .requests(requests, warmup: 0), request: request, accepted: BenchMessages.isAccepted)
        // A refusal would measure something else (an unknown controller, a host not registered).
        guard result.refused == 0, result.accepted == requests else {
            throw LoadError("bench loop: \(result.refused) of \(requests) requests were refused")
        }
        return result
    }
}

/// `bench-peer subscribe` (``BenchPeers/subscribe``) on a thread of this process rather than in a process of its
/// own: valgrind counts `bench loop` whole.
final class SubscriberThread: Sendable {
    private let readyFile: String
    private let reportFile: String
    private let ended = DispatchSemaphore(value: 0)

    init(endpoint: String, base: String, count: Int) throws {
        readyFile = base + ".ready"
        reportFile = base + ".json"
        let (readyFile, reportFile, ended) = (readyFile, reportFile, ended)
        Thread {
            nameCurrentThread("subscriber")
            do {
                try BenchPeers.subscribe(
                    endpoint: endpoint,
                    readyFile: readyFile,
                    reportFile: reportFile,
                    count: count,
                    idleMs: 1_000,
                    maxWaitMs: 60_000,
                    highWaterMark: 0
                )
            } catch {
                FileHandle.standardError.write(Data("bench loop's subscriber: \(error)\n".utf8))
            }
            ended.signal()
        }.start()
    }

    /// Calls `warm` (which publishes something under `runtime/`) until the subscriber has received a message.
    func waitUntilReady(warm: () throws -> Void) throws {
        let clock = ContinuousClock()
        let deadline = clock.now + .seconds(30)
        while !FileManager.default.fileExists(atPath: readyFile) {
            guard clock.now < deadline else { throw LoadError("the subscriber received nothing in 30 s") }
            try warm()
            Thread.sleep(forTimeInterval: 0.002)
        }
    }

    /// Waits for the subscriber to have every event (or to give up), and reads what it saw.
    func report() throws -> SubscriberReport {
        ended.wait()
        guard let data = FileManager.default.contents(atPath: reportFile) else {
            throw LoadError("bench loop's subscriber wrote no report")
        }
        return try JSONDecoder().decode(SubscriberReport.self, from: data)
    }
}
