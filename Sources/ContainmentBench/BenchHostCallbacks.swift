import ContainmentBus
import ContainmentLoad
import ContainmentModel
import Foundation
import ZeroMQ

/// Callbacks through one host: how fast its actors take the callbacks the supervisor sends, with one actor taking
/// them all and with 1,000 taking a share each, for trivial controller code (`content`) and for code that computes
/// for about 50 µs in each callback (`busy`, ``BusyBehavior``).
struct HostCallbackFigure: Codable, Sendable {
    var kind: String
    var actors: Int
    /// Callbacks the host's actors handled (counted by their digests), all the measured commands' callbacks.
    var callbacks: Int
    /// From the first command sent to the last actor having handled its last callback.
    var seconds: Double
    var perSecond: Double
}

extension BenchRunner {
    /// Each configuration on its own controllers of one host, created and laid out untimed first.
    func hostCallbacks() throws -> [HostCallbackFigure] {
        progress("Containment: starting a supervisor and one host for the callback figures")
        let runtime = try LocalRuntime(
            hosts: 1,
            settings: "requestTimeoutMs: 60000\nheartbeatTimeoutMs: 30000\n",
            timeout: .seconds(60)
        )
        defer { runtime.stop() }
        var figures: [HostCallbackFigure] = []
        for kind in ["content", "busy"] {
            for actors in [1, 1_000] {
                // Busy code takes 50 µs a callback: a quarter as many keeps the run's length alike.
                let callbacks = kind == "busy" ? settings.hostCallbacks / 4 : settings.hostCallbacks
                progress("Containment: \(callbacks) callbacks to \(actors) \(kind) actor(s) of one host")
                figures.append(
                    try hostCallbacks(runtime: runtime, kind: kind, actors: actors, callbacks: max(2, callbacks))
                )
            }
        }
        return figures
    }

    private func hostCallbacks(
        runtime: LocalRuntime,
        kind: String,
        actors: Int,
        callbacks: Int
    ) throws
        -> HostCallbackFigure
    {
        let endpoint = runtime.config.commandEndpoint
        guard let host = runtime.hostNames.first else { throw LoadError("the runtime has no host") }
        let ids = (0..<actors).map { ControllerID("\(kind)\(actors)-\($0)") }
        let client = try CommandClient(context: context, endpoint: endpoint, timeout: .seconds(90))
        // Created on the host, their views loaded and given a frame (by the system: they have no parent).
        let small = Rect(x: 0, y: 0, width: 100, height: 100)
        let large = Rect(x: 0, y: 0, width: 101, height: 100)
        for start in stride(from: 0, to: actors, by: 100) {
            let created = ids[start..<min(actors, start + 100)]
            let commands = created.flatMap { id in
                [
                    .system(.create(id, kind: Kind(kind))),
                    Request(.loadView(id), by: .natural),
                    Request(.setFrame(.root(id), small), by: .natural),
                ]
            }
            do {
                _ = try client.submit(commands, hosts: Dictionary(uniqueKeysWithValues: created.map { ($0, host) }))
            } catch {
                throw LoadError("creating the \(kind) controllers: \(error)")
            }
        }
        let before = try handledCallbacks(ids, endpoint: endpoint)
        // Each command changes one controller's root view size (100 ↔ 101 wide): viewWillLayoutSubviews and
        // viewDidLayoutSubviews, its two callbacks; the controllers in turn, 50 commands a request.
        let commands = callbacks / 2
        let perRequest = 50
        let requests = (commands + perRequest - 1) / perRequest
        var nextCommand = 0
        var wide = [Bool](repeating: false, count: actors)
        let clock = ContinuousClock()
        let start = clock.now
        let sent = try Pipeline(endpoint: endpoint, clients: 2, window: 4).run(
            context: context,
            .requests(requests, warmup: 0),
            request: { _, sequence in
                let count = min(perRequest, commands - nextCommand)
                let batch = (0..<count).map { offset in
                    let index = (nextCommand + offset) % actors
                    wide[index].toggle()
                    return Request(.setFrame(.root(ids[index]), wide[index] ? large : small), by: .natural)
                }
                nextCommand += count
                return ClientRequest.commands(batch, requestID: UInt64(sequence + 1))
            },
            accepted: BenchMessages.isAccepted
        )
        guard sent.accepted == requests else {
            throw LoadError("\(requests - sent.accepted) of \(requests) requests of \(kind) frames were refused")
        }
        // An actor answers an inspect once it has handled every callback sent before it: the last answer is the end.
        let after = try handledCallbacks(ids, endpoint: endpoint)
        let seconds = (clock.now - start).seconds
        let handled = after - before
        guard handled == commands * 2 else {
            throw LoadError("the host's \(kind) actors handled \(handled) callbacks; \(commands * 2) were sent")
        }
        return HostCallbackFigure(
            kind: kind,
            actors: actors,
            callbacks: handled,
            seconds: seconds,
            perSecond: Double(handled) / seconds
        )
    }

    /// The callbacks the actors of `ids` handled so far, by their digests' counts: inspects, pipelined.
    private func handledCallbacks(_ ids: [ControllerID], endpoint: String) throws -> Int {
        var total = 0
        var next = 0
        var failure: String?
        _ = try Pipeline(endpoint: endpoint, clients: 1, window: 32).run(
            context: context,
            .requests(ids.count, warmup: 0),
            request: { _, sequence in
                defer { next += 1 }
                return ClientRequest.inspect(ids[next], requestID: UInt64(sequence + 1))
            },
            accepted: { frame in
                guard case .reply(let reply)? = try? HostInbound(decoding: frame), let inspected = reply.report else {
                    failure = failure ?? "an inspect was not answered with the actor's report"
                    return false
                }
                total += Int(inspected.receivedCount)
                return true
            }
        )
        if let failure { throw LoadError(failure) }
        return total
    }
}
