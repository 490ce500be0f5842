import ContainmentConfig
import ContainmentTracing
import Foundation

/// The time an input is handled at, as the core is told it (``SupervisorCore/handle(_:at:)``): `now` for deadlines
/// (heartbeats, transitions, inspects), `unixNanos` for the time stamped on events and records. The loop reads the
/// machine's clocks (``SystemClock``); a test or a simulated world gives its own.
package struct SupervisorTime {
    package var now: ContinuousClock.Instant
    package var unixNanos: Int64

    package init(now: ContinuousClock.Instant, unixNanos: Int64) {
        self.now = now
        self.unixNanos = unixNanos
    }
}

/// The machine's clocks.
struct SystemClock {
    private let clock = ContinuousClock()

    var now: ContinuousClock.Instant { clock.now }

    var unixNanos: Int64 { UnixClock.nanos }

    var time: SupervisorTime { SupervisorTime(now: now, unixNanos: unixNanos) }
}
