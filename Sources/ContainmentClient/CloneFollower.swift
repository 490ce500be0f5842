import ContainmentBus

/// The ZeroMQ guide's Clone pattern, client side, without I/O: what a subscriber does with each event and heartbeat
/// it receives so that what it shows is the supervisor's state, nothing missed or doubled.
///
/// With `fromStart`: the state first (a snapshot, taken after subscribing), then only the events after its seq; a gap
/// in the seqs (events dropped for a slow reader, or a heartbeat's seq ahead of the last event seen) or another epoch
/// (the supervisor restarted) is caught up by a new snapshot. Without it: the live events, each gap and restart said
/// in a notice. Its outputs are taken in order with ``take()``. `watch` and ``RuntimeSubscriber`` follow a runtime
/// through it.
package struct CloneFollower {
    package enum Output {
        /// The whole state to go on from (only with `fromStart`).
        case snapshot(BusSnapshot)
        /// An event after the state (or a live one).
        case event(BusEvent)
        /// The events up to this seq are skipped for good: a gap said in a notice (without `fromStart`).
        case skipped(through: UInt64)
        /// A sentence for the reader: a gap caught up, the supervisor restarted.
        case notice(String)
    }

    package let fromStart: Bool
    /// Whether a gap in the seqs is looked for (not when only some topics are subscribed).
    package let checkGaps: Bool
    private let takeSnapshot: () throws -> BusSnapshot
    package private(set) var epoch: UInt64?
    package private(set) var lastSeq: UInt64?
    private var outputs: [Output] = []
    /// How long ``join(heard:now:)`` waits for the subscription to be seen working before it begins anyway.
    private let joinWait: Duration
    /// Until when it waits, from its first call; whether it has begun.
    private var joinDeadline: ContinuousClock.Instant?
    private var joined = false

    package init(
        fromStart: Bool,
        checkGaps: Bool,
        joinWait: Duration = .zero,
        snapshot: @escaping () throws -> BusSnapshot
    ) {
        self.fromStart = fromStart
        self.checkGaps = checkGaps
        self.joinWait = joinWait
        takeSnapshot = snapshot
    }

    /// The slow joiner (the ZeroMQ guide): begins (``start()``) once the subscription is seen to work — `heard`: the
    /// first heartbeat or event came through it — or `joinWait` after the first call from a silent supervisor, so that
    /// no event published after the state is missed for a subscription still being set up. Call it with each message
    /// received (or none) before handing the message on; returns whether it has begun.
    package mutating func join(heard: Bool, now: ContinuousClock.Instant) throws -> Bool {
        guard !joined else { return true }
        let deadline = joinDeadline ?? now + joinWait
        joinDeadline = deadline
        guard heard || now >= deadline else { return false }
        joined = true
        try start()
        return true
    }

    /// The outputs since the last call, in order.
    package mutating func take() -> [Output] {
        defer { outputs.removeAll(keepingCapacity: true) }
        return outputs
    }

    /// Begins from a snapshot (with `fromStart`); ``join(heard:now:)`` calls it once the subscription works.
    private mutating func start() throws {
        if fromStart { try resnapshot(reason: nil) }
    }

    private mutating func resnapshot(reason: String?) throws {
        let snapshot = try takeSnapshot()
        if let reason {
            outputs.append(
                .notice("\(reason); caught up by a snapshot at seq \(snapshot.seq) (epoch \(snapshot.epoch))")
            )
        }
        epoch = snapshot.epoch
        lastSeq = snapshot.seq
        outputs.append(.snapshot(snapshot))
    }

    package mutating func heartbeat(_ beat: BusHeartbeat) throws {
        if let epoch, beat.epoch != epoch {
            try restarted(epoch, beat.epoch)
        } else if let lastSeq, beat.seq > lastSeq, checkGaps {
            if fromStart {
                try resnapshot(reason: "events \(lastSeq + 1)…\(beat.seq) were lost (a slow reader?)")
            } else {
                outputs.append(
                    .notice(
                        "events \(lastSeq + 1)…\(beat.seq) were lost (a slow reader?); going on from seq \(beat.seq + 1)"
                    )
                )
                self.lastSeq = beat.seq
                outputs.append(.skipped(through: beat.seq))
            }
        } else if epoch == nil {
            epoch = beat.epoch
            if lastSeq == nil {
                lastSeq = beat.seq
                outputs.append(.skipped(through: beat.seq))
            }
        }
    }

    /// Another epoch: the supervisor restarted. With `fromStart` the state is taken again.
    private mutating func restarted(_ old: UInt64, _ new: UInt64) throws {
        if fromStart {
            try resnapshot(reason: "the supervisor restarted (epoch \(old) → \(new))")
        } else {
            outputs.append(
                .notice("the supervisor restarted (epoch \(old) → \(new)); its events go on after seq \(lastSeq ?? 0)")
            )
            epoch = new
        }
    }

    package mutating func receive(_ event: BusEvent) throws {
        if let epoch, event.epoch != epoch {
            try restarted(epoch, event.epoch)
            if fromStart, event.seq <= lastSeq ?? 0 { return }
        }
        if epoch == nil { epoch = event.epoch }
        if fromStart {
            guard let last = lastSeq, event.seq > last else { return }  // already in the snapshot
            if checkGaps, event.seq > last + 1 {
                try resnapshot(reason: "events \(last + 1)…\(event.seq - 1) were lost (a slow reader?)")
                guard event.seq > lastSeq ?? 0 else { return }
            }
        }
        lastSeq = max(lastSeq ?? 0, event.seq)
        outputs.append(.event(event))
    }
}
