import ContainmentConfig
/// Where the supervisor's loop writes its journal: a directory of segments (``JournalWriter``) or etcd
/// (``EtcdJournal``). Records are appended to a buffer and made durable by ``flush()``, before anything they stand for
/// is answered or published; a failure is thrown, and the supervisor stops acknowledging.
protocol JournalAppender: AnyObject {
    /// Records appended since it began.
    var appended: Int { get }
    /// The segment (or etcd batch) the next record goes into: a checkpoint taken now replays from it.
    var segment: Int { get }
    func append(serialized payload: [UInt8]) throws(JournalFailure)
    func flush() throws(JournalFailure)
    /// Syncs what is written when its interval passed (`journalSync: interval`).
    func syncIfDue() throws(JournalFailure)
    /// Makes the next record begin a segment (a checkpoint's boundary). Call it with nothing buffered.
    func beginSegment() throws(JournalFailure)
    /// A clean stop: what is buffered written, the segment closed.
    func finish()
}

extension JournalWriter: JournalAppender {}

/// What writes checkpoints off the supervisor's thread: to the journal's directory (``Checkpointer``) or to etcd
/// (``EtcdCheckpointer``).
protocol CheckpointWriting: Sendable {
    var isBusy: Bool { get }
    /// Starts writing `checkpoint` (the caller checked ``isBusy``).
    func write(_ checkpoint: Checkpoint)
    /// Waits for the checkpoint being written, if any.
    func wait()
}

extension Checkpointer: CheckpointWriting {}
