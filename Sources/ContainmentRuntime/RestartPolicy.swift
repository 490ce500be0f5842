import ContainmentConfig
/// How a host process ended.
struct HostExit: Equatable, Sendable {
    /// The exit status, or the signal that ended it; both `nil`: unknown (a process this supervisor did not start).
    var status: Int32?
    var signal: Int32?
    /// It could not be started at all (no such program, not executable): why. Counted as status 127, as a shell's.
    var launchError: String?

    var isNormal: Bool { signal == nil && status == 0 }

    var description: String {
        if let launchError { return "could not be started (\(launchError))" }
        if let signal { return "killed by signal \(signal)\(Self.names[signal].map { " (\($0))" } ?? "")" }
        if let status { return "exited with status \(status)" }
        return "ended (not started by this supervisor; its status is unknown)"
    }

    private static let names: [Int32: String] = [
        1: "SIGHUP", 2: "SIGINT", 3: "SIGQUIT", 6: "SIGABRT", 9: "SIGKILL", 11: "SIGSEGV", 13: "SIGPIPE",
        15: "SIGTERM",
    ]
}

/// One host's restart decisions: the mode, and at most `maxRestarts` restarts within any `window`.
struct RestartPolicy: Sendable {
    enum Decision: Equatable, Sendable {
        case restart
        /// Not started again: the mode says so (a normal end of a transient host, any end of a temporary one).
        case leave
        /// Restarted too often: given up on, with the reason.
        case giveUp(String)
    }

    let mode: RestartMode
    let maxRestarts: Int
    let window: Duration
    private(set) var restarts: [ContinuousClock.Instant] = []

    init(mode: RestartMode, maxRestarts: Int, window: Duration) {
        self.mode = mode
        self.maxRestarts = maxRestarts
        self.window = window
    }

    /// What to do about `exit` at `now`; a restart is counted.
    mutating func decide(_ exit: HostExit, at now: ContinuousClock.Instant) -> Decision {
        switch mode {
        case .temporary: return .leave
        case .transient where exit.isNormal: return .leave
        default: break
        }
        restarts.removeAll { now - $0 > window }
        guard restarts.count < maxRestarts else {
            return .giveUp(
                "\(exit.description); restarted \(restarts.count) times within \(window), the most allowed"
            )
        }
        restarts.append(now)
        return .restart
    }
}
