import ContainmentBus
import ContainmentLoad
import ContainmentRuntime
import Foundation

/// `bench loop`: the supervisor's whole loop in this process (``InProcessSupervisor``) — its sockets, its journal,
/// its driver — driven over ipc by `bench bus`'s pipelined clients, with no other process: what
/// `scripts/callgrind-loop.sh` counts (docs/BENCH.md, "The supervisor's whole loop").
struct LoopFigure: Codable, Sendable {
    var requests: Int
    var clients: Int
    var window: Int
    var seconds: Double
    var requestsPerSecond: Double
}

extension BenchRunner {
    /// A warm-up run of a tenth (the journal's first mebibyte reserved, the code paged in), then `--requests` ÷ 2
    /// requests through a new supervisor, each of them accepted.
    func loop() throws -> LoopFigure {
        let requests = max(1, settings.requests / 2)
        _ = try loop(requests: max(1, requests / 10))
        return try loop(requests: requests)
    }

    private func loop(requests: Int) throws -> LoopFigure {
        let supervisor = try InProcessSupervisor(directory: directory)
        defer { supervisor.stop() }
        // A stand-in host, registered (welcomed) before the clients' controllers are created on it; it never reads
        // their callbacks.
        let host = try context.socket(.dealer)
        defer { host.close() }
        try host.set(.receiveTimeout, to: .seconds(30))
        try host.connect(supervisor.endpoint)
        try host.send(HostOutbound.hello(requestID: 1, host: "h0", pid: 1, lastSeq: 0, kinds: []).bytes)
        guard try host.receive() != nil else { throw LoadError("the stand-in host was not welcomed") }
        try prepareClients(endpoint: supervisor.endpoint)
        let result = try Pipeline(endpoint: supervisor.endpoint, clients: settings.clients, window: settings.window)
            .run(
                context: context,
                .requests(requests, warmup: 0),
                request: BenchMessages.request,
                accepted: BenchMessages.isAccepted
            )
        // A refusal would measure something else (an unknown controller, a host not registered).
        guard result.refused == 0, result.accepted == requests else {
            throw LoadError("bench loop: \(result.refused) of \(requests) requests were refused")
        }
        return LoopFigure(
            requests: requests,
            clients: settings.clients,
            window: settings.window,
            seconds: result.seconds,
            requestsPerSecond: result.perSecond
        )
    }
}
