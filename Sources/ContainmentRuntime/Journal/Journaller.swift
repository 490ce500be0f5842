import Dispatch
import Foundation
import Synchronization
import ZeroMQ

/// The supervisor's journal writer, on the supervisor's thread or on a thread of its own (LMAX's journaller).
///
/// The supervisor hands over each step's records (``submit(_:)``) and sends the step's events and replies once
/// ``durable`` covers them: the journal stays first.
///
/// - **On this thread** (`journalSync` `interval`, `none`: a `write` costs less than a hand-over): ``submit(_:)``
///   writes the records, so they are durable when it returns.
/// - **On its own thread** (`batch`: an `fdatasync` costs more than many commands): ``submit(_:)`` queues them and the
///   supervisor goes on receiving and applying commands while the thread writes and syncs. The records that arrive
///   while a group is being synced make the next group (group commit): under load one `fdatasync` covers many
///   drained batches. After each group the thread wakes the supervisor's poll through an inproc PAIR socket
///   (``wakeUps``); the thread's end is made and used on that thread alone.
///
/// Records that cannot be written set ``failure`` and nothing after them is written: the supervisor stops
/// (fail-stop, docs/DURABILITY.md).
final class Journaller {
    /// What both threads see.
    private final class Shared: Sendable {
        struct Progress {
            /// Records handed over and not yet taken by the thread.
            var queued: [[UInt8]] = []
            /// Records written (and synced per the setting) since the journaller began.
            var durable = 0
            var failure: JournalFailure?
            var stopping = false
        }

        let progress = Mutex(Progress())
        /// The writer: the thread's while it writes a group; the supervisor's when nothing is under way (``idle``).
        let writer: Mutex<JournalWriter>
        /// One signal per hand-over, and one for the stop.
        let work = DispatchSemaphore(value: 0)
        let finished = DispatchSemaphore(value: 0)

        init(writer: sending JournalWriter) { self.writer = Mutex(writer) }
    }

    private let shared: Shared
    /// With a thread: the supervisor's end of the PAIR, readable after each group (register it in the poll).
    let wakeUps: Socket?
    /// Records handed over since the journaller began.
    private(set) var submitted = 0
    private var threadRunning: Bool

    /// Takes `writer` over; with `threaded`, starts the thread that writes from now on.
    init(context: Context, writer: sending JournalWriter, threaded: Bool) throws(ZMQError) {
        shared = Shared(writer: writer)
        threadRunning = threaded
        guard threaded else {
            wakeUps = nil
            return
        }
        let endpoint = "inproc://containment-journal-\(UInt64.random(in: 0...UInt64.max))"
        let wakeUps = try context.socket(.pair)
        try wakeUps.bind(endpoint)
        // A wake-up comes after each group; the timeout only bounds a wait for one lost to a context shut down.
        try wakeUps.set(.receiveTimeout, to: .milliseconds(100))
        self.wakeUps = wakeUps
        let shared = shared
        let thread = Thread {
            let socket = try? context.socket(.pair)
            try? socket?.connect(endpoint)
            Self.serve(shared, wakeUps: socket)
            socket?.close()
            shared.finished.signal()
        }
        thread.name = "journal"
        thread.start()
    }

    deinit { stop() }

    /// Records written (and synced per the setting), counted as ``submitted`` is.
    var durable: Int { shared.progress.withLock { $0.durable } }

    /// The failure that stopped the writing, if any.
    var failure: JournalFailure? { shared.progress.withLock { $0.failure } }

    /// True when every record handed over is durable (or the writing failed).
    var idle: Bool { shared.progress.withLock { $0.durable == submitted || $0.failure != nil } }

    /// Hands over records, in order. Returns the count ``durable`` must reach for them to be durable.
    @discardableResult
    func submit(_ records: [[UInt8]]) -> Int {
        guard !records.isEmpty else { return submitted }
        submitted += records.count
        if threadRunning {
            shared.progress.withLock { $0.queued.append(contentsOf: records) }
            shared.work.signal()
        } else {
            Self.write(records, shared)
        }
        return submitted
    }

    /// Reads the wake-ups that are waiting (after the poll found ``wakeUps`` readable).
    func drainWakeUps() {
        while let wakeUps, (try? wakeUps.receive(dontWait: true)) != nil {}
    }

    /// Blocks until every record handed over is durable or the writing failed.
    func waitUntilIdle() {
        while !idle { _ = try? wakeUps?.receive() }
        drainWakeUps()
    }

    /// With `interval`: syncs what is written when the interval has passed (the supervisor calls it when it wakes).
    func syncIfDue() {
        guard !threadRunning else { return }
        Self.record(shared) { writer throws(JournalFailure) in try writer.syncIfDue() }
    }

    /// Makes sure the next record begins a new segment (a checkpoint's boundary) and returns that segment. Call it
    /// when the journaller is ``idle``: the writer's lock is then free.
    func beginSegment() throws(JournalFailure) -> Int {
        let result: Result<Int, JournalFailure> = shared.writer.withLock { writer in
            do throws(JournalFailure) {
                try writer.beginSegment()
                return .success(writer.segment)
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    /// Writes what was handed over, ends the thread if there is one, and closes the journal (a clean stop).
    func finish() {
        stop()
        shared.writer.withLock { $0.finish() }
    }

    /// Writes what was handed over and ends the thread, if there is one; waits for it.
    func stop() {
        guard threadRunning else { return }
        threadRunning = false
        shared.progress.withLock { $0.stopping = true }
        shared.work.signal()
        shared.finished.wait()
    }

    /// The thread: takes every record queued, writes and syncs them as one group, reports, until stopped or failed.
    private static func serve(_ shared: Shared, wakeUps: Socket?) {
        while true {
            shared.work.wait()
            let (group, stopping) = shared.progress.withLock { progress in
                defer { progress.queued = [] }
                return (progress.queued, progress.stopping)
            }
            if !group.isEmpty {
                write(group, shared)
                _ = try? wakeUps?.send([0] as [UInt8], dontWait: true)
                if shared.progress.withLock({ $0.failure != nil }) { return }
            }
            if stopping { return }
        }
    }

    /// Writes `records` as one group (one `write`, synced per the setting) and counts them durable, or records the
    /// failure; nothing is written after a failure.
    private static func write(_ records: [[UInt8]], _ shared: Shared) {
        guard shared.progress.withLock({ $0.failure == nil }) else { return }
        let written = record(shared) { writer throws(JournalFailure) in
            for record in records { try writer.append(serialized: record) }
            try writer.flush()
        }
        if written { shared.progress.withLock { $0.durable += records.count } }
    }

    /// Runs `body` on the writer; a failure is recorded. Returns whether it succeeded.
    @discardableResult
    private static func record(
        _ shared: Shared,
        _ body: @Sendable (JournalWriter) throws(JournalFailure) -> Void
    ) -> Bool {
        let failure: JournalFailure? = shared.writer.withLock { writer in
            do throws(JournalFailure) {
                try body(writer)
                return nil
            } catch {
                return error
            }
        }
        guard let failure else { return true }
        shared.progress.withLock { $0.failure = failure }
        return false
    }
}
