import ContainmentBus
import ContainmentLoad

/// A subscriber of the simulated world: every topic of the supervisor's PUB, connected again to each supervisor
/// that serves. It records each event's seq as `stress`'s subscribers do (the reference one keeps every event's bytes for
/// the replay to compare); a PUB's high-water mark drops what it has not taken past `subscriberQueue`.
final class SimSubscriber {
    unowned let sim: Simulation
    let index: Int
    let keepsPayloads: Bool
    private(set) var seen = EventCollector.Seen()
    /// The supervisor process it listens to, and what it has not taken yet of what that one published.
    private var incarnation: Int?
    private var queued = 0
    private var lastArrival: Duration = .zero
    /// Events the PUB dropped for it (its queue full).
    private(set) var dropped = 0
    private(set) var undecodable = 0

    init(sim: Simulation, index: Int, keepsPayloads: Bool) {
        self.sim = sim
        self.index = index
        self.keepsPayloads = keepsPayloads
    }

    /// Subscribes to the supervisor process running now (a SUB that connects late misses what went before).
    func connect(to incarnation: Int) {
        self.incarnation = incarnation
        queued = 0
    }

    /// The supervisor on socket `incarnation` stopped: if it listened there, it hears nothing more of it.
    func disconnect(from incarnation: Int) {
        if self.incarnation == incarnation { self.incarnation = nil }
    }

    /// A publication of supervisor process `incarnation`: on its way to this subscriber, or dropped when it has more
    /// than the PUB queues for one subscriber.
    func publish(_ frames: [[UInt8]], from incarnation: Int) {
        guard self.incarnation == incarnation else { return }
        guard queued < sim.config.subscriberQueue else {
            dropped += 1
            return
        }
        queued += 1
        let arrival = max(sim.scheduler.now + sim.latency(), lastArrival + .nanoseconds(1))
        lastArrival = arrival
        sim.scheduler.at(arrival, "→ subscriber \(index)") { [unowned self] in
            guard self.incarnation == incarnation else { return }
            queued -= 1
            take(frames)
        }
    }

    private func take(_ frames: [[UInt8]]) {
        guard frames.count == 2, frames[0] != Publication.heartbeatFrame else { return }
        guard let seq = ProtobufScan.field1(of: frames[1]) else {
            seen.undecodable += 1
            return
        }
        seen.record(seq, payload: frames[1], keepingPayloads: keepsPayloads)
    }
}
