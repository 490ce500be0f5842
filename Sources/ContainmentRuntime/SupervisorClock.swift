import Foundation

/// The supervisor core's time, injected so the core runs without a real clock in tests: `now` for deadlines
/// (heartbeats, transitions, inspects), `unixNanos` for the time stamped on events and records.
protocol SupervisorClock: AnyObject {
    var now: ContinuousClock.Instant { get }
    var unixNanos: Int64 { get }
}

/// The machine's clocks.
final class SystemClock: SupervisorClock {
    private let clock = ContinuousClock()

    var now: ContinuousClock.Instant { clock.now }

    var unixNanos: Int64 {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        return Int64(spec.tv_sec) * 1_000_000_000 + Int64(spec.tv_nsec)
    }
}
