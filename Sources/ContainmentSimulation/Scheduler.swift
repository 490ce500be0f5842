import ContainmentWorkload
import HeapModule

/// The simulated world's one thread of time: what happens next, in order. Each thing is scheduled at a simulated
/// time; two at the same time happen in the order they were scheduled, so a run is a function of its seed alone.
/// Nothing waits on a real clock.
final class Scheduler {
    /// Simulated time since the run began.
    private(set) var now: Duration = .zero {
        didSet { clock.set(now) }
    }
    /// The same time, for what reads it from a `Sendable` (etcd's leases, a leader's own clock).
    let clock = SimClock()
    /// The run's one source of randomness: every choice of the world and of its faults is drawn from it.
    var random: SplitMix64
    private var queue = Heap<Pending>()
    private var actions: [UInt64: (label: String, run: () -> Void)] = [:]
    private var scheduled: UInt64 = 0
    /// Things that happened, in order, when a trace is kept (`simulate --trace`).
    private(set) var trace: [String]?
    /// How many things happened.
    private(set) var steps = 0
    /// Called after each thing that happened (a replicated world's etcd wakes the watches that saw a change).
    var afterEach: (() -> Void)?

    private struct Pending: Comparable {
        var time: Duration
        var order: UInt64
        static func < (a: Pending, b: Pending) -> Bool { (a.time, a.order) < (b.time, b.order) }
    }

    init(seed: UInt64, tracing: Bool) {
        random = SplitMix64(seed: seed)
        trace = tracing ? [] : nil
    }

    /// Runs `action` `delay` from now (never before now).
    func after(_ delay: Duration, _ label: @autoclosure () -> String, _ action: @escaping () -> Void) {
        at(now + max(.zero, delay), label(), action)
    }

    func at(_ time: Duration, _ label: @autoclosure () -> String, _ action: @escaping () -> Void) {
        scheduled += 1
        queue.insert(Pending(time: max(time, now), order: scheduled))
        actions[scheduled] = (trace == nil ? "" : label(), action)
    }

    /// Runs what is scheduled, in order, until `end` or until nothing is left; returns whether anything is left.
    @discardableResult
    func run(until end: Duration) -> Bool {
        while let next = queue.min, next.time <= end {
            _ = queue.popMin()
            now = next.time
            guard let (label, action) = actions.removeValue(forKey: next.order) else { continue }
            steps += 1
            if trace != nil { trace?.append("\(Self.format(now)) \(label)") }
            action()
            afterEach?()
        }
        if now < end { now = end }
        return !queue.isEmpty
    }

    /// A line in the trace, at the time now, inside the step that runs (kept only when a trace is).
    func note(_ line: @autoclosure () -> String) {
        if trace != nil { trace?.append("\(Self.format(now))   \(line())") }
    }

    /// A duration drawn uniformly between two bounds.
    func duration(_ low: Duration, _ high: Duration) -> Duration {
        let span = (high - low).nanos
        guard span > 0 else { return low }
        return low + .nanoseconds(Int64.random(in: 0...span, using: &random))
    }

    /// True with probability `p`.
    func chance(_ p: Double) -> Bool { Double.random(in: 0..<1, using: &random) < p }

    /// `12.345678 s`: simulated time as a trace and a report print it.
    static func format(_ time: Duration) -> String {
        let micros = time.nanos / 1_000
        let seconds = micros / 1_000_000
        let fraction = String(micros % 1_000_000)
        return "\(seconds).\(String(repeating: "0", count: 6 - fraction.count))\(fraction) s"
    }
}

extension Duration {
    /// Whole nanoseconds.
    var nanos: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    }
}
