import ContainmentConfig
import ContainmentRuntime

/// The journal's disk, in memory: the records a supervisor appended and synced, in order, surviving its crashes; its
/// latest checkpoint; and the fault armed for its next write, if any.
final class SimDisk {
    /// What is on the disk: written and synced — every record, for the checks (a retention setting would remove those
    /// before the checkpoint; recovery never reads them).
    private(set) var durable: [[UInt8]] = []
    /// The latest checkpoint's bytes (written whole, as the real one is renamed into place), and how many of the
    /// records it stands for.
    private(set) var checkpoint: (bytes: [UInt8], records: Int)?

    /// What a supervisor starting now reads: the checkpoint, and the records after it.
    var recoverable: (checkpoint: [UInt8]?, records: ArraySlice<[UInt8]>) {
        (checkpoint?.bytes, durable[(checkpoint?.records ?? 0)...])
    }

    /// Records written since the last checkpoint.
    var sinceCheckpoint: Int { durable.count - (checkpoint?.records ?? 0) }

    /// A checkpoint of the state after every record written so far.
    func writeCheckpoint(_ bytes: [UInt8]) {
        checkpoint = (bytes, durable.count)
    }
    /// A write that will fail, armed by the fault plan.
    enum Fault {
        /// ENOSPC: nothing of the write reaches the disk.
        case full
        /// EIO at the sync: some of the write may have reached the disk.
        case syncError
        /// The process dies in the write: some of it reached the disk.
        case torn
    }
    var armed: Fault?
    /// Faults that went off, by kind.
    private(set) var failures = 0

    /// Appends `records` and syncs them, or fails as the armed fault says: `kept` of them reached the disk (drawn by
    /// the caller).
    func write(_ records: [[UInt8]], keeping kept: (Int) -> Int) throws(DiskFailure) {
        guard !records.isEmpty else { return }
        guard let fault = armed else {
            durable.append(contentsOf: records)
            return
        }
        armed = nil
        failures += 1
        switch fault {
        case .full:
            throw DiskFailure(fault: fault, message: "no space left on the device (ENOSPC)")
        case .syncError:
            durable.append(contentsOf: records.prefix(kept(records.count)))
            throw DiskFailure(fault: fault, message: "the sync failed (EIO)")
        case .torn:
            durable.append(contentsOf: records.prefix(kept(records.count)))
            throw DiskFailure(fault: fault, message: "the process died in the write")
        }
    }

    /// Loses the last record of an accepted command sent by a client (a disk that lied about a sync); false when
    /// there is none.
    func loseAnAcceptedRecord() -> Bool {
        guard
            let index = durable.lastIndex(where: {
                guard let entry = try? JournalEntry(decoding: $0) else { return false }
                return entry.holdsCommands && !entry.clientID.isEmpty && entry.clientID != "sim-setup"
            })
        else { return false }
        durable.remove(at: index)
        if let kept = checkpoint, index < kept.records { checkpoint = (kept.bytes, kept.records - 1) }
        return true
    }

    struct DiskFailure: Error {
        var fault: Fault
        var message: String
    }
}
