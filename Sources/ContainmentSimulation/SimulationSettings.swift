/// What a simulated run is made of: its seed, how long it runs in simulated time, the size of the world, and which
/// faults it may inject (`containment simulate`'s options).
package struct SimulationSettings: Sendable {
    package var seed: UInt64 = 1
    /// Simulated time the clients send commands for (faults are injected meanwhile); then every fault heals and the
    /// world settles before the checks.
    package var duration: Duration = .seconds(10)
    package var hosts = 3
    package var clients = 4
    /// Controllers in all, spread over the clients' pools.
    package var controllers = 60
    /// Subscribers besides the reference one (which keeps every event for the checks).
    package var subscribers = 1
    /// How long a client pauses, on average, between an answer and its next command (drawn between none and twice
    /// this): the load. 2.5 ms keeps a client busy (~100 commands a simulated second); a long run with `--think 250ms`
    /// spends its time on faults, timers and recoveries rather than on commands.
    package var think: Duration = .microseconds(2_500)
    /// Every client draws over one shared pool, so their commands race on the same controllers (`stress
    /// --contended`); a client's replica cannot see the others', so its replies are judged by the journal's replay.
    package var contended = false
    /// The content controllers are forms whose code answers their loads and layouts (`stress --answering`): each host
    /// answers the supervisor's questions after a delay the seed draws, now and then past `answerTimeout`.
    package var answering = false
    /// Whether a client's replica cannot foresee its replies, so that the journal's replay judges them.
    package var judgedByReplay: Bool { contended || answering }
    /// Of the clients' commands, how many are invalid on purpose.
    package var invalidRatio = 0.1
    /// The faults it may inject; each kind is drawn in turn at random times.
    package var faults: Set<FaultKind> = Set(FaultKind.allCases)
    /// How often a fault is injected on average, in simulated time.
    package var faultEvery: Duration = .seconds(1)
    /// The supervisor writes a checkpoint after this many records (0: never); a restarted one recovers from the latest
    /// and replays only the records after it, as on a real disk.
    package var checkpointEvery = 500
    /// Keep a line per thing that happened (`--trace`).
    package var trace = false
    /// A defect planted on purpose, to show that the checks find it (the simulator's own tests).
    package var sabotage: Sabotage?

    package init() {}
}

/// A defect the world can be made to have, so a test sees the checks fail.
package enum Sabotage: Sendable {
    /// A host drops one callback instead of handing it to its actor.
    case dropCallback
    /// The disk loses a synced record of an accepted command (a lying disk).
    case loseAcknowledgedRecord
}

/// A fault the world can inject.
package enum FaultKind: String, CaseIterable, Sendable, Comparable {
    /// The supervisor killed with SIGKILL between two steps, and started again.
    case supervisorCrash
    /// The supervisor killed while writing a step's records: a prefix of them reached the disk, no reply went out.
    case tornWrite
    /// The disk full (ENOSPC) at a write: the supervisor stops (fail-stop) and is started again.
    case diskFull
    /// A sync that fails (EIO): the supervisor stops; what it wrote may or may not be on the disk.
    case syncError
    /// A host process killed with SIGKILL, and started again (a new pid).
    case hostCrash
    /// A host stopped (SIGSTOP) for a while, then continued.
    case hostPause
    /// A host cut off from the supervisor for a while, its messages held both ways until the cut heals.
    case partition
    /// A host's connection dropped (the process lives): what the ROUTER queued for it is lost; ZeroMQ connects again,
    /// and the supervisor, seeing a new connection, has it greet again.
    case hostDisconnect
    /// A client's connection dropped: what the ROUTER queued for it is lost; it connects again.
    case clientDisconnect
    /// The network slow for a while: every message delayed much longer.
    case delay

    package static func < (a: FaultKind, b: FaultKind) -> Bool { a.rawValue < b.rawValue }
}
