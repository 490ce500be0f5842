import ContainmentLoad
import Foundation
import ZeroMQ

/// Subscribers that never read, connected while event delivery is measured (`--stalled-subscribers`): what they
/// cost the supervisor (its resident size before, at the peak, once they left) beside what the measured subscribers
/// saw (their gaps).
struct StalledFigure: Codable, Sendable {
    var subscribers: Int
    /// The supervisor's `subscriberQueue`: the events it holds at most for each.
    var queue: Int
    /// The supervisor's resident size before they connected, at the end of delivery with them connected (their
    /// queues full), and once they left and it gave the memory back.
    var beforeKiB: Int
    var peakKiB: Int
    var afterKiB: Int
    /// How much they may make it grow (docs/BENCH.md): ~200 bytes per queued event per subscriber (~125 measured),
    /// and 16 MiB for the rest of the supervisor's work meanwhile.
    var boundKiB: Int

    init(subscribers: Int, queue: Int, beforeKiB: Int, peakKiB: Int, afterKiB: Int) {
        self.subscribers = subscribers
        self.queue = queue
        self.beforeKiB = beforeKiB
        self.peakKiB = peakKiB
        self.afterKiB = afterKiB
        boundKiB = subscribers * queue * 200 / 1024 + 16 * 1024
    }
}

/// SUB sockets in the bench's own process that take one event each and then read nothing, so the supervisor's queue
/// for each fills to `subscriberQueue`.
final class StalledSubscribers {
    private var sockets: [Socket] = []

    init(count: Int, context: Context, endpoint: String) throws {
        for _ in 0..<count {
            let socket = try context.socket(.sub)
            try socket.set(.receiveHighWaterMark, to: 1)
            try socket.subscribe("")
            try socket.connect(endpoint)
            sockets.append(socket)
        }
    }

    func close() {
        sockets.forEach { $0.close() }
        sockets = []
    }

    deinit { close() }
}

extension BenchRunner {
    /// The supervisor's resident size, KiB.
    func supervisorKiB(_ runtime: LocalRuntime) -> Int {
        runtime.sample().first { $0.name == "supervisor" }?.residentKiB ?? 0
    }

    /// Runs `deliveries` with `settings.stalledSubscribers` subscribers that never read connected (none: no figure),
    /// then closes them and waits (at most 15 s) for the supervisor to give back what their queues held.
    func besideStalled<Result>(
        _ runtime: LocalRuntime,
        _ deliveries: () throws -> Result
    ) throws -> (Result, StalledFigure?) {
        guard settings.stalledSubscribers > 0 else { return (try deliveries(), nil) }
        let stalled = try StalledSubscribers(
            count: settings.stalledSubscribers,
            context: context,
            endpoint: runtime.config.eventEndpoint
        )
        Thread.sleep(forTimeInterval: 0.5)
        let before = supervisorKiB(runtime)
        let result = try deliveries()
        let peak = supervisorKiB(runtime)
        stalled.close()
        var after = supervisorKiB(runtime)
        for _ in 0..<150 where after > before + 8 * 1024 {
            Thread.sleep(forTimeInterval: 0.1)
            after = supervisorKiB(runtime)
        }
        let figure = StalledFigure(
            subscribers: settings.stalledSubscribers,
            queue: runtime.config.subscriberQueue,
            beforeKiB: before,
            peakKiB: peak,
            afterKiB: after
        )
        return (result, figure)
    }
}
