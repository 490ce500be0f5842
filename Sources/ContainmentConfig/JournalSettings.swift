/// The journal's settings that runtime.yaml and topologies are checked against; the journal itself is the supervisor's
/// (ContainmentRuntime's `JournalWriter`, `JournalFormat`).
/// When the journal's writes are made durable (runtime.yaml `journalSync`).
public enum JournalSync: String, Sendable, Equatable, CaseIterable {
    /// Each drained batch durable before anything it produced goes out (written `O_DSYNC`: the write returns once
    /// the data is on the disk, as `write` then `fdatasync`): an acknowledged command survives a power loss.
    case batch
    /// Written before anything goes out (a `kill -9` loses nothing acknowledged), synced at most every
    /// `journalSyncIntervalMs`: a power loss may lose that long.
    case interval
    /// Written before anything goes out, synced when the kernel likes.
    case none
}

/// The journal's largest record: a longer one is damage, not a record (a batch, and so a request or a topology applied
/// as one transaction, is limited far below it).
package enum JournalLimits {
    package static let maxRecord = 256 << 20
}
