import ContainmentBus
import ContainmentClient
import ContainmentHost
import ContainmentLoad
import ContainmentModel
import Foundation
import Histogram
import Synchronization
import ZeroMQ

/// A typed method call beside an `invoke`, one at a time on one `counter` controller of one host: `invoke` of its
/// string verb `add` is answered once the supervisor journaled it (the host runs it later); `add(_:)`, its typed
/// method, once the host ran it and sent its result back — one more hop each way, through the supervisor.
///
/// Beside them (SPEC §15), a resize of a `form`'s root view, whose code the supervisor asks for its layout and waits
/// for before it answers, and the same resize of a content controller's, which asks nobody.
///
/// And one way, from a caller's send to the method running in the controller's actor (client → supervisor → host →
/// actor, a typed call timed against the machine's monotonic clock), beside a raw two-hop ZeroMQ relay (client →
/// relay process → a process that stamps its arrival): what the runtime adds to a command's way to its callback.
struct CallFigures: Codable, Sendable {
    var invoke: Latency
    var call: Latency
    var unasked: Latency?
    var answered: Latency?
    var toActor: Latency?
    var relay: Latency?
    /// The same relay making each message durable before passing it on (``SyncedLog``): the floor of a call that is
    /// journaled on its way.
    var syncedRelay: Latency?
}

extension BenchRunner {
    func calls() throws -> CallFigures {
        progress("Containment: starting a supervisor and one host for the call figures")
        let runtime = try LocalRuntime(
            hosts: 1,
            settings: "requestTimeoutMs: 60000\nheartbeatTimeoutMs: 30000\n",
            timeout: .seconds(60)
        )
        defer { runtime.stop() }
        guard let host = runtime.hostNames.first else { throw LoadError("the runtime has no host") }
        let client = try CommandClient(
            context: context,
            endpoint: runtime.config.commandEndpoint,
            timeout: .seconds(60)
        )
        let id: ControllerID = "tally"
        _ = try client.submit([.system(.create(id, kind: "counter"))], hosts: [id: host])
        let count = settings.roundTrips
        progress("Containment: \(count) invokes of a counter's verb, one at a time")
        let invoke = [Request(.invoke(id, verb: "add", arguments: ["1"]), by: .system)]
        var invokes = Histogram<UInt64>(highestTrackableValue: 60_000_000_000, numberOfSignificantValueDigits: .three)
        let clock = ContinuousClock()
        for round in 0..<(count + count / 10) {
            let start = clock.now
            _ = try client.submit(invoke)
            // The first tenth warms up.
            if round >= count / 10 { _ = invokes.record((clock.now - start).nanoseconds) }
        }
        progress("Containment: \(count) typed calls of the counter's add(_:), one at a time")
        let system = try ContainmentActorSystem(environment: runtime.environment)
        let calls = try Self.blocking {
            let counter = try CounterController.resolve(id: id, using: system)
            var histogram = Histogram<UInt64>(
                highestTrackableValue: 60_000_000_000,
                numberOfSignificantValueDigits: .three
            )
            for round in 0..<(count + count / 10) {
                let start = clock.now
                _ = try await counter.add(1)
                if round >= count / 10 { _ = histogram.record((clock.now - start).nanoseconds) }
            }
            return Latency(histogram)
        }
        progress("Containment: \(count) calls timed to their method, alternating with two raw relays (one syncing)")
        let (toActor, relay, syncedRelay) = try oneWay(to: id, system: system, count: count)
        progress("Containment: \(count) resizes of a content controller, then of a form whose code lays it out")
        let unasked = try resizes(of: "plain", kind: .content, host: host, client: client, count: count)
        let answered = try resizes(of: "form", kind: "form", host: host, client: client, count: count)
        return CallFigures(
            invoke: Latency(invokes),
            call: calls,
            unasked: unasked,
            answered: answered,
            toActor: toActor,
            relay: relay,
            syncedRelay: syncedRelay
        )
    }

    /// From a send to the arrival, one way: a typed call to `id`'s `runsAt()` (its method running in the actor), and
    /// a message through a raw relay process to a stamping one — alternating, so a burst of load elsewhere on the
    /// machine weighs on both alike; and through a second relay that journals each message first, the floor.
    private func oneWay(
        to id: ControllerID,
        system: ContainmentActorSystem,
        count: Int
    ) throws -> (toActor: Latency, relay: Latency, syncedRelay: Latency) {
        let stampEndpoint = "ipc://\(directory)/stamp.sock"
        let relayEndpoint = "ipc://\(directory)/relay.sock"
        let stamp = try BenchProcess(
            ["bench-peer", "stamp", "--endpoint", stampEndpoint, "--ready-file", directory + "/stamp.ready"],
            log: directory + "/stamp.log"
        )
        defer { stamp.stop() }
        let relay = try BenchProcess(
            [
                "bench-peer", "relay", "--frontend", relayEndpoint, "--backend", stampEndpoint, "--ready-file",
                directory + "/relay.ready",
            ],
            log: directory + "/relay.log"
        )
        defer { relay.stop() }
        let syncedEndpoint = "ipc://\(directory)/synced-relay.sock"
        let syncFile = directory + "/synced-relay.journal"
        let synced = try BenchProcess(
            [
                "bench-peer", "relay", "--frontend", syncedEndpoint, "--backend", stampEndpoint, "--sync-file",
                syncFile,
                "--ready-file", directory + "/synced-relay.ready",
            ],
            log: directory + "/synced-relay.log"
        )
        defer { synced.stop() }
        let clock = ContinuousClock()
        let deadline = clock.now + .seconds(10)
        for (process, ready) in [(stamp, "stamp"), (relay, "relay"), (synced, "synced-relay")] {
            while !FileManager.default.fileExists(atPath: "\(directory)/\(ready).ready") {
                guard clock.now < deadline, process.process.isRunning else {
                    throw LoadError("the \(ready) peer did not start")
                }
                Thread.sleep(forTimeInterval: 0.01)
            }
        }
        return try Self.blocking {
            let context = try Context()
            let client = try context.socket(.dealer)
            try client.set(.receiveTimeout, to: .seconds(10))
            try client.connect(relayEndpoint)
            defer { client.close() }
            let syncedClient = try context.socket(.dealer)
            try syncedClient.set(.receiveTimeout, to: .seconds(10))
            try syncedClient.connect(syncedEndpoint)
            defer { syncedClient.close() }
            let counter = try CounterController.resolve(id: id, using: system)
            var toActor = Histogram<UInt64>(
                highestTrackableValue: 60_000_000_000,
                numberOfSignificantValueDigits: .three
            )
            var relayed = [Histogram<UInt64>](
                repeating: Histogram(highestTrackableValue: 60_000_000_000, numberOfSignificantValueDigits: .three),
                count: 2
            )
            for round in 0..<(count + count / 10) {
                let sent = DispatchTime.now().uptimeNanoseconds
                let ran = try await counter.runsAt()
                // The first tenth warms up.
                let recording = round >= count / 10
                if recording { _ = toActor.record(ran >= sent ? ran - sent : 0) }
                for (index, socket) in [client, syncedClient].enumerated() {
                    let relaySent = DispatchTime.now().uptimeNanoseconds
                    try socket.send([[0]])
                    guard let reply = try socket.receive(), let frame = reply.last, frame.count == 8 else {
                        throw LoadError("a relay did not answer")
                    }
                    let arrived = frame.withUnsafeBytes { UInt64(littleEndian: $0.loadUnaligned(as: UInt64.self)) }
                    if recording { _ = relayed[index].record(arrived >= relaySent ? arrived - relaySent : 0) }
                }
            }
            return (Latency(toActor), Latency(relayed[0]), Latency(relayed[1]))
        }
    }

    /// `count` resizes of the root view of a new `kind` controller, one at a time, each answered once applied — for a
    /// form, once its code answered its `viewWillLayoutSubviews`.
    private func resizes(
        of id: ControllerID,
        kind: Kind,
        host: String,
        client: CommandClient,
        count: Int
    ) throws -> Latency {
        _ = try client.submit([.system(.create(id, kind: kind))], hosts: [id: host])
        var histogram = Histogram<UInt64>(highestTrackableValue: 60_000_000_000, numberOfSignificantValueDigits: .three)
        let clock = ContinuousClock()
        for round in 0..<(count + count / 10) {
            let frame = Rect(x: 0, y: 0, width: round % 2 == 0 ? 320 : 640, height: 480)
            let resize = [Request.system(.setFrame(.root(id), frame))]
            let start = clock.now
            _ = try client.submit(resize)
            if round >= count / 10 { _ = histogram.record((clock.now - start).nanoseconds) }
        }
        return Latency(histogram)
    }

    /// Runs `body` in a task and waits for it on this (non-pool) thread.
    private static func blocking<Value: Sendable>(
        _ body: @escaping @Sendable () async throws -> Value
    ) throws -> Value {
        let outcome = Mutex<Result<Value, any Error>?>(nil)
        let done = DispatchSemaphore(value: 0)
        Task {
            let result: Result<Value, any Error>
            do {
                result = .success(try await body())
            } catch {
                result = .failure(error)
            }
            outcome.withLock { $0 = result }
            done.signal()
        }
        done.wait()
        // Set before the signal.
        guard let result = outcome.withLock({ $0 }) else { throw LoadError("the calls gave no outcome") }
        return try result.get()
    }
}

extension BenchReport {
    static func callRows(_ calls: CallFigures) -> [[String]] {
        [
            ["invoke round trip p50 (journaled)", micros(calls.invoke.p50), "", ""],
            ["invoke round trip p99", micros(calls.invoke.p99), "", ""],
            [
                "typed call round trip p50 (run by the host)", micros(calls.call.p50), micros(calls.invoke.p50),
                times(calls.call.p50 / calls.invoke.p50),
            ],
            [
                "typed call round trip p99", micros(calls.call.p99), micros(calls.invoke.p99),
                times(calls.call.p99 / calls.invoke.p99),
            ],
        ] + answerRows(calls) + oneWayRows(calls)
    }

    /// A command's way to its callback in the controller's actor, beside a raw two-hop relay.
    static func oneWayRows(_ calls: CallFigures) -> [[String]] {
        guard let toActor = calls.toActor, let relay = calls.relay else { return [] }
        return [
            [
                "call to its method in the actor p50 (one way)", micros(toActor.p50), micros(relay.p50),
                times(toActor.p50 / relay.p50),
            ],
            [
                "call to its method in the actor p99", micros(toActor.p99), micros(relay.p99),
                times(toActor.p99 / relay.p99),
            ],
        ] + syncedRelayRows(calls)
    }

    /// The one-way call beside the relay that journals each message before passing it on: the floor of the way.
    static func syncedRelayRows(_ calls: CallFigures) -> [[String]] {
        guard let toActor = calls.toActor, let relay = calls.relay, let synced = calls.syncedRelay else { return [] }
        return [
            [
                "  beside a relay that syncs each message (floor) p50", micros(toActor.p50), micros(synced.p50),
                times(toActor.p50 / synced.p50),
            ],
            ["  the floor ÷ the raw relay p50", micros(synced.p50), micros(relay.p50), times(synced.p50 / relay.p50)],
        ]
    }

    /// A resize whose layout the form's code answers, beside one that asks nobody.
    static func answerRows(_ calls: CallFigures) -> [[String]] {
        guard let answered = calls.answered, let unasked = calls.unasked else { return [] }
        return [
            ["resize round trip p50 (no code asked)", micros(unasked.p50), "", ""],
            ["resize round trip p99", micros(unasked.p99), "", ""],
            [
                "resize answered by code p50 (SPEC §15)", micros(answered.p50), micros(unasked.p50),
                times(answered.p50 / unasked.p50),
            ],
            [
                "resize answered by code p99", micros(answered.p99), micros(unasked.p99),
                times(answered.p99 / unasked.p99),
            ],
        ]
    }
}
