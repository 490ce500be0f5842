import ContainmentBus
import ContainmentConfig
import ContainmentModel
import Foundation
import Logging
import Synchronization
import ZeroMQ

/// `bench loop`: the supervisor's whole loop — ``SupervisorLoop`` with its sockets, its journal (synced per
/// `journalSync: batch`) and its driver — in this process, on a thread of its own, driven over ipc by pipelined
/// clients on the calling thread. Where `bench core` leaves out the sockets, the journal, the driver and the metrics,
/// this leaves out only the other processes; synchronous, so valgrind can count its loop thread's instructions
/// (`scripts/callgrind-loop.sh`: everything inside `SupervisorLoop.run`).
package enum SupervisorLoopBenchmark {
    package struct Figure: Codable, Sendable {
        package var requests: Int
        package var clients: Int
        package var window: Int
        package var seconds: Double
        package var requestsPerSecond: Double
    }

    /// Serves from a fresh run directory in `directory` (removed afterwards): a stand-in host `h0` says hello, one
    /// controller per client is created on it with its view loaded, then `clients` DEALERs keep `window` requests
    /// each outstanding (one `set_alpha` of its own controller's root view, as `bench bus` sends) until `requests`
    /// are answered. Times those requests, from the first sent to the last answered.
    package static func run(directory: String, requests: Int, clients: Int, window: Int) throws -> Figure {
        let runDirectory = directory + "/loop-\(getpid())-\(UInt32.random(in: 0..<UInt32.max))"
        try FileManager.default.createDirectory(atPath: runDirectory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: runDirectory) }
        let config = {
            var config = RuntimeConfig(runDirectory: runDirectory)
            // The stand-in host is in no topology.
            config.acceptUnknownHosts = true
            return config
        }()
        let context = try Context()
        let (ready, ended) = (DispatchSemaphore(value: 0), DispatchSemaphore(value: 0))
        let failure = Mutex<String?>(nil)
        Thread {
            nameCurrentThread("supervisor")
            var logger = Logger(label: "containment.bench-loop")
            logger.logLevel = .error
            do {
                let loop = try SupervisorLoop(context: context, config: config, logger: logger)
                ready.signal()
                loop.run()
            } catch {
                failure.withLock { $0 = "\(error)" }
                ready.signal()
            }
            ended.signal()
        }.start()
        ready.wait()
        defer {
            context.shutdown()
            ended.wait()
            context.terminate()
        }
        if let failure = failure.withLock({ $0 }) { throw LoopBenchError(failure) }
        let endpoint = config.commandEndpoint
        let host = try context.socket(.dealer)
        try host.connect(endpoint)
        try host.send(HostOutbound.hello(requestID: 1, host: "h0", pid: 1, lastSeq: 0, kinds: []).bytes)
        // Registered once welcomed (the controllers are created on it next).
        try host.set(.receiveTimeout, to: .seconds(30))
        guard try host.receive() != nil else { throw LoopBenchError("the stand-in host was not welcomed") }
        let setup = try context.socket(.dealer)
        try setup.set(.receiveTimeout, to: .seconds(30))
        try setup.connect(endpoint)
        let ids = (0..<clients).map { ControllerID("b\($0)") }
        for (index, id) in ids.enumerated() {
            let commands: [Request] = [.system(.create(id, kind: .content)), Request(.loadView(id), by: .natural)]
            try setup.send(
                PreEncoded.withField1(UInt64(index + 1), ClientRequest.commands(commands, hosts: [id: "h0"]))
            )
            guard let reply = try setup.receive() else { throw LoopBenchError("no answer to the setup's request") }
            do {
                _ = try ServerReply.accepted(reply.last ?? [])
            } catch {
                throw LoopBenchError("the setup's request was refused: \(error)")
            }
        }
        let clock = ContinuousClock()
        let start = clock.now
        try pipeline(context: context, endpoint: endpoint, ids: ids, requests: requests, window: window)
        let elapsed = (clock.now - start).components
        let seconds = Double(elapsed.seconds) + Double(elapsed.attoseconds) * 1e-18
        return Figure(
            requests: requests,
            clients: clients,
            window: window,
            seconds: seconds,
            requestsPerSecond: Double(requests) / seconds
        )
    }

    /// Each client keeps `window` requests outstanding, sending the next as each answer comes, until `requests` are
    /// answered.
    private static func pipeline(
        context: Context,
        endpoint: String,
        ids: [ControllerID],
        requests: Int,
        window: Int
    ) throws {
        let tails = ids.map { id in
            [0.25, 0.75].map { ClientRequest.commands([Request(.setAlpha(.root(id), $0), by: .natural)]) }
        }
        var sockets: [Socket] = []
        var poller = Poller()
        for _ in ids {
            let dealer = try context.socket(.dealer)
            try dealer.connect(endpoint)
            poller.register(dealer)
            sockets.append(dealer)
        }
        var (sent, answered) = (0, 0)
        var sequences = [Int](repeating: 0, count: ids.count)
        func send(_ client: Int) throws {
            // Request ids from 1000: clear of the setup's.
            let sequence = sequences[client]
            try sockets[client].send(PreEncoded.withField1(UInt64(1_000 + sequence), tails[client][sequence & 1]))
            sequences[client] += 1
            sent += 1
        }
        for client in ids.indices {
            for _ in 0..<window where sent < requests { try send(client) }
        }
        while answered < requests {
            let ready = try poller.poll(timeout: .seconds(30))
            if ready.isEmpty { throw LoopBenchError("no answer for 30 s") }
            for item in ready {
                while let reply = try sockets[item.index].receive(dontWait: true) {
                    // Every request is accepted (the alpha alternates): a refusal would measure something else.
                    do {
                        _ = try ServerReply.accepted(reply.last ?? [])
                    } catch {
                        throw LoopBenchError("a request was refused: \(error)")
                    }
                    answered += 1
                    if sent < requests { try send(item.index) }
                }
            }
        }
    }

    struct LoopBenchError: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }
}
