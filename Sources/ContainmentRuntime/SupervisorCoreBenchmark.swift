import ContainmentConfig
import ContainmentBus
import ContainmentModel
import Foundation

/// `containment bench core`: the supervisor's own work per request, on one thread, without sockets or disk —
/// what its loop thread does between receiving a request and handing the step to libzmq and the journal: decoding,
/// the checks, the model, encoding the events, the reply and the journal record. The figure to profile the
/// supervisor under, repeatable where the figures over the bus are not (they share two cores with their clients).
public enum SupervisorCoreBenchmark {
    /// One pass: requests handed to the core, the events they published, and how long it took.
    public struct Figure: Codable, Sendable {
        public var requests: Int
        public var commandsPerRequest: Int
        public var events: Int
        public var seconds: Double
        public var requestsPerSecond: Double
        public var eventsPerSecond: Double
    }

    /// Times `requests` requests of `commandsPerRequest` `set_alpha` commands each (alternating 0.25 and 0.75, so
    /// every one is accepted and publishes one event), from 4 clients each acting on its own controller on host h0,
    /// as `bench`'s pipelined clients and event-delivery clients send them. The step is taken every 128 requests
    /// (the loop's batch). Three passes after an untimed one; the median.
    public static func measure(requests: Int, commandsPerRequest: Int) -> Figure {
        var passes: [Figure] = []
        for pass in 0..<4 {
            let figure = run(requests: requests, commandsPerRequest: commandsPerRequest)
            if pass > 0 { passes.append(figure) }
        }
        passes.sort { $0.seconds < $1.seconds }
        return passes[passes.count / 2]
    }

    static func run(requests: Int, commandsPerRequest: Int) -> Figure {
        var config = RuntimeConfig(runDirectory: "/nonexistent")
        config.maxBatch = max(config.maxBatch, commandsPerRequest)
        var core = SupervisorCore.quiet(
            config: config,
            clients: ClientReplies(ClientReplies.Limits(config))
        )
        let clients = 4
        let ids = (0..<clients).map { ControllerID("b\($0)") }
        let setup = ids.flatMap { id in [.system(.create(id, kind: .content)), Request(.loadView(id), by: .natural)] }
        let time = SystemClock().time
        _ = core.handle(
            .message([
                [9], ClientRequest.commands(setup, hosts: Dictionary(uniqueKeysWithValues: ids.map { ($0, "h0") })),
            ]),
            at: time
        )
        // Each client's requests without their request id (field 1, prepended per request, as a client numbers
        // them): one beginning from alpha 0.25, one from 0.75, so that every command changes the alpha.
        let tails: [[[UInt8]]] = ids.map { id in
            [0, 1].map { first in
                let commands = (0..<commandsPerRequest).map { index in
                    let alpha = (index + first).isMultiple(of: 2) ? 0.25 : 0.75
                    return Request(.setAlpha(.root(id), alpha), by: .natural)
                }
                return ClientRequest.commands(commands)
            }
        }
        let peers: [[UInt8]] = (0..<clients).map { [0, 0, 1, UInt8($0)] }
        let messages: [[UInt8]] = (0..<requests).map { index in
            let sequence = index / clients
            // An even count ends where the next begins from: each request begins from 0.25.
            let tail = tails[index % clients][commandsPerRequest.isMultiple(of: 2) ? 0 : sequence & 1]
            return PreEncoded.withField1(UInt64(sequence + 1), tail)
        }
        let firstSeq = core.seq
        let clock = ContinuousClock()
        let start = clock.now
        handleAll(messages, from: peers, in: &core, at: time)
        let elapsed = (clock.now - start).components
        let seconds = Double(elapsed.seconds) + Double(elapsed.attoseconds) * 1e-18
        let events = Int(core.seq - firstSeq)
        return Figure(
            requests: requests,
            commandsPerRequest: commandsPerRequest,
            events: events,
            seconds: seconds,
            requestsPerSecond: Double(requests) / seconds,
            eventsPerSecond: Double(events) / seconds
        )
    }
}

extension SupervisorCoreBenchmark {
    /// The timed part: each message handed to `core` from its client in turn, each step encoded as the loop encodes
    /// it (the core returns values; the bytes are the loop's work). Never inlined, so that
    /// scripts/callgrind-core.sh counts its instructions alone.
    @inline(never)
    static func handleAll(
        _ messages: [[UInt8]],
        from peers: [[UInt8]],
        in core: inout SupervisorCore,
        at time: SupervisorTime
    ) {
        var step = SupervisorStep()
        for (index, message) in messages.enumerated() {
            core.handle(.message([peers[index % peers.count], message]), at: time, into: &step)
            if index % SupervisorLoop.batchLimit == SupervisorLoop.batchLimit - 1 {
                _ = step.encodeAll()
                core.stepTaken()
                step.removeAll()
            }
        }
        _ = step.encodeAll()
    }
}

extension SupervisorStep {
    /// Encodes every record and message it holds, as the loop does before writing and sending them: what `bench core`
    /// and the fuzz target pay for without sockets. Returns the bytes in all.
    func encodeAll() -> Int {
        var total = records.reduce(0) { $0 + $1.encoded().count }
        var events = EventBytes()
        forEachMessage(events: &events, metricsText: []) { message, _ in
            switch message {
            case .publish(_, let body): total += body.count
            case .heartbeat(let body), .send(_, let body, _): total += body.count
            }
        }
        return total
    }
}
