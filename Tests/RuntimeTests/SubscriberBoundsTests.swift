import ContainmentBus
import ContainmentModel
import ContainmentConfig
import ContainmentRuntime
import Foundation
import Testing
import ZeroMQ

/// Subscribers cost the supervisor a bounded amount, whoever they are (real daemons, real sockets): one that never
/// reads holds at most `subscriberQueue` events of it, at most `maxSubscribers` connect, and what stalled subscribers
/// held is given back when they leave — while a subscriber that keeps up sees every event.
@Suite(.serialized) struct SubscriberBoundsTests {
    static let topology = """
        window: {name: main, width: 800, height: 600, root: b0}
        controllers:
          - {id: b0, kind: content, host: h0}
        """

    /// A process's resident size, in KiB.
    static func residentKiB(_ pid: Int32) throws -> Int {
        let status = try String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)
        let line = try #require(status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") })
        return try #require(Int(line.split(separator: " ", omittingEmptySubsequences: true)[1]))
    }

    static func supervisorPID(_ runtime: RuntimeFixture) throws -> Int32 {
        let text = try String(contentsOfFile: runtime.runDirectory + "/supervisor.pid", encoding: .utf8)
        return try #require(Int32(text.trimmingCharacters(in: .whitespacesAndNewlines)))
    }

    /// A subscriber of the test's own, with a monitor of its handshakes.
    final class Subscriber {
        let socket: Socket
        let monitor: Socket

        init(context: Context, endpoint: String, index: Int) throws {
            socket = try context.socket(.sub)
            // It never reads: its own queue takes one event, then the supervisor's queue for it fills.
            try socket.set(.receiveHighWaterMark, to: 1)
            try socket.subscribe("")
            let address = "inproc://subscriber-monitor-\(index)-\(UUID().uuidString.prefix(8))"
            try socket.monitor(address, events: [.handshakeSucceeded, .handshakeFailedAuth])
            monitor = try context.socket(.pair)
            try monitor.set(.receiveTimeout, to: .seconds(10))
            try monitor.connect(address)
            try socket.connect(endpoint)
        }

        /// The first handshake outcome: admitted (true) or refused by the supervisor's ZAP handler (false); `nil`
        /// when none came within 10 s.
        func handshake() throws -> Bool? {
            guard let frames = try monitor.receive(), let event = SocketEvent(frames: frames) else { return nil }
            return event.kind == .handshakeSucceeded
        }

        func close() {
            monitor.close()
            socket.close()
        }
    }

    /// Twenty subscribers that never read, under a load of 32,000 events: the supervisor's resident size grows by at
    /// most their queues' bound (20 × `subscriberQueue` events at ~200 bytes each in libzmq's queues, with 16 MiB for
    /// the rest of its work), not by every event for every one of them; a `watch` that reads sees all 32,000 events
    /// with no gap; and once the twenty leave, the memory is given back.
    /// How many lines the file at `path` holds so far.
    static func lines(in path: String) -> Int {
        guard let data = FileManager.default.contents(atPath: path) else { return 0 }
        var count = 0
        for byte in data where byte == UInt8(ascii: "\n") { count += 1 }
        return count
    }

    /// Polls until the file at `path` holds `count` lines (at most two minutes: a bound on a failure, not a wait).
    static func waitUntil(_ path: String, holds count: Int) async throws {
        let reached = try await Poll.until(within: .seconds(120), every: .milliseconds(50)) {
            lines(in: path) >= count
        }
        #expect(reached, "the watch printed \(lines(in: path)) lines, not \(count)")
    }

    /// Sends the batch `commands` `times` times on a client of its own (its socket closed when it returns).
    static func submit(_ commands: [WireCommand], times: Int, to endpoint: String, in context: Context) throws {
        let client = try CommandClient(context: context, endpoint: endpoint, timeout: .seconds(30))
        for _ in 0..<times { _ = try client.submit(commands) }
    }

    @Test func stalledSubscribersCostABoundedAmountAndAWatchSeesEveryEvent() async throws {
        // The defaults (runtime.yaml's subscriberQueue).
        let queue = RuntimeConfig(runDirectory: "/nonexistent").subscriberQueue
        try await RuntimeFixture.with(topology: Self.topology) { runtime in
            let pid = try Self.supervisorPID(runtime)
            let requests = 2_000
            let perRequest = 16
            // Its events to a file, as a person's watch writes to a terminal (a pipe to this test would hold it back).
            // Its idle timeout ends it only when events stop coming: a bound on a failure (lost events), not a wait.
            let printed = runtime.runDirectory + "/watch.json"
            let ready = runtime.runDirectory + "/watch.ready"
            let watch = Task {
                try await runtime.run(
                    "/bin/bash",
                    [
                        "-c",
                        "exec \"$CONTAINMENT_BIN\" watch --ready-file '\(ready)' --json --count \(requests * perRequest) "
                            + "--idle-timeout 60 >'\(printed)'",
                    ]
                )
            }
            #expect(try await Poll.until { FileManager.default.fileExists(atPath: ready) }, "watch never subscribed")
            let config = RuntimeConfig(runDirectory: runtime.runDirectory)
            let context = try Context()
            let stalled = try (0..<20).map {
                try Subscriber(context: context, endpoint: config.eventEndpoint, index: $0)
            }
            for subscriber in stalled { #expect(try subscriber.handshake() == true) }
            let before = try Self.residentKiB(pid)

            let commands = (0..<perRequest).map { index in
                let alpha = index.isMultiple(of: 2) ? 0.25 : 0.75
                return WireCommand(Request(.setAlpha(.root(ControllerID("b0")), alpha), by: .natural))
            }
            // The watch is a subscriber like the stalled ones: one that falls `subscriberQueue` events behind loses
            // events, by design. So the load goes in steps of 4,000 events, each once the watch has printed all but
            // the last 5,000 sent: however slowly a loaded machine runs the watch, it is never that far behind, while
            // the stalled twenty, which read nothing, fill their queues.
            let step = 250
            for first in stride(from: 0, to: requests, by: step) {
                if first > 0 { try await Self.waitUntil(printed, holds: first * perRequest - 5_000) }
                try Self.submit(commands, times: step, to: config.commandEndpoint, in: context)
            }
            let peak = try Self.residentKiB(pid)

            let events = try await watch.value
            let lines = try String(contentsOfFile: printed, encoding: .utf8)
            let alphas = lines.split(separator: "\n").filter { $0.contains("\"event\":\"alphaChanged\"") }.count
            #expect(alphas == requests * perRequest, "watch saw \(alphas) of \(requests * perRequest)")
            #expect(!events.stderr.contains("lost") && !events.stderr.contains("GAP"), "\(events.stderr.prefix(2000))")

            for subscriber in stalled { subscriber.close() }
            // The memory their queues held is given back a little after they leave (polled for at most 15 s).
            var after = try Self.residentKiB(pid)
            try await Poll.until(within: .seconds(15), every: .milliseconds(100)) {
                after = try Self.residentKiB(pid)
                return after <= before + 8 * 1024
            }
            context.terminate()
            print("supervisor RSS: \(before) KiB before, \(peak) KiB with 20 stalled subscribers, \(after) KiB after")
            let bound = 20 * queue * 200 / 1024 + 16 * 1024
            #expect(peak - before <= bound, "grew \(peak - before) KiB; bound \(bound) KiB")
            #expect(after <= before + 8 * 1024, "\(after) KiB after the subscribers left; \(before) KiB before")
        }
    }

    /// At most `maxSubscribers` connect: one more is refused at its handshake (ZAP), and admitted once one leaves.
    @Test func subscribersPastTheLimitAreRefusedAtTheirHandshake() async throws {
        try await RuntimeFixture.with(topology: Self.topology, settings: "maxSubscribers: 3\n") { runtime in
            let config = RuntimeConfig(runDirectory: runtime.runDirectory)
            let context = try Context()
            let admitted = try (0..<3).map {
                try Subscriber(context: context, endpoint: config.eventEndpoint, index: $0)
            }
            for subscriber in admitted { #expect(try subscriber.handshake() == true) }
            let extra = try Subscriber(context: context, endpoint: config.eventEndpoint, index: 3)
            #expect(try extra.handshake() == false, "a fourth subscriber is refused")
            // Refused, libzmq does not try again; once one leaves, a new one is admitted.
            admitted[0].close()
            var next = try Subscriber(context: context, endpoint: config.eventEndpoint, index: 4)
            var attempt = 4
            // Refused while the supervisor had not yet seen the first one leave: a moment later, again.
            let admittedNext = try await Poll.until {
                if try next.handshake() == true { return true }
                next.close()
                attempt += 1
                next = try Subscriber(context: context, endpoint: config.eventEndpoint, index: attempt)
                return false
            }
            #expect(admittedNext, "admitted once one of the three left")
            for subscriber in admitted.dropFirst() + [extra, next] { subscriber.close() }
            context.terminate()
            #expect(runtime.logs().contains("refused a subscriber: maxSubscribers are connected"))
        }
    }
}
