/// What a stress run does: `containment stress`'s options.
public struct StressSettings: Sendable {
    public var controllers = 1_000
    public var clients = 8
    /// Operations in all, split evenly over the clients; `nil`: run for `duration` seconds.
    public var ops: Int?
    public var duration = 10.0
    public var seed: UInt64 = 1
    public var invalidRatio = 0.1
    public var subscribers = 2
    public var prefix = "s"
    /// Every client draws from one shared pool, so commands race on the same controllers.
    public var contended = false
    /// The pool's content controllers are `form`s, whose code answers `loadView` and `viewWillLayoutSubviews` (SPEC
    /// §15): commands wait for their hosts' answers, which the journal records and the checks replay.
    public var answering = false
    /// Kill a random host (SIGKILL) at this interval while the clients run; the supervisor starts it again.
    public var killHostEvery: Double?
    /// Stall a random host (SIGSTOP, then SIGCONT half the interval later) at this interval.
    public var stopHostEvery: Double?
    /// Kill the supervisor (SIGKILL) at this interval while the clients run, and restart it (a local runtime only);
    /// never again before every host is registered with the restarted one.
    public var killSupervisorEvery: Double?
    /// Of a replicated runtime (`journal: etcd`, two supervisors): kill the one that leads (SIGKILL) at this interval
    /// and start it again as a standby; the other takes over (a local runtime only); never again before every host is
    /// registered with the new leader.
    public var killLeaderEvery: Double?
    /// No progress line, no notes.
    public var quiet = false

    public init() {}

    /// Writes a note on standard error, unless quiet.
    public func note(_ message: String) {
        if !quiet { standardError("stress: \(message)\n") }
    }
}
