import ContainmentConfig
import ContainmentModel

/// The timed transitions the supervisor completes when they have run their duration (SPEC §13): a `transition` with
/// a duration, a standard container's animated switch.
struct TransitionTimers {
    struct Timer {
        var deadline: ContinuousClock.Instant
        var transition: RunningTransition
    }

    private(set) var timers: [Timer] = []

    /// The earliest deadline, for the loop's wake-up.
    var nextDeadline: ContinuousClock.Instant? { timers.map(\.deadline).min() }

    /// A timer for each timed transition of `running` without one, due its duration after `now`.
    mutating func schedule(_ running: [RunningTransition], now: ContinuousClock.Instant) {
        for transition in running
        where transition.duration > 0 && !timers.contains(where: { $0.transition == transition }) {
            timers.append(
                Timer(deadline: now + .milliseconds(Int64(transition.duration * 1000)), transition: transition)
            )
        }
    }

    /// The transitions due at `now`, in the order they were scheduled; their timers forgotten.
    mutating func takeDue(now: ContinuousClock.Instant) -> [RunningTransition] {
        let due = timers.filter { $0.deadline <= now }
        guard !due.isEmpty else { return [] }
        timers.removeAll { $0.deadline <= now }
        return due.map(\.transition)
    }
}
