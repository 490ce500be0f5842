import ContainmentConfig
import Dispatch
import Logging
import Synchronization

/// Writes checkpoints off the supervisor's thread: the supervisor hands over a copy of its state (a value: copying it
/// costs a few reference counts, whatever its size) and goes on serving while this encodes, writes and syncs it, then
/// applies the retention setting. One checkpoint at a time; a failed one is logged and changes nothing (the journal
/// still holds every record, so recovery only takes longer).
final class Checkpointer: Sendable {
    private let directory: String
    private let retain: Int
    private let logger: Logger
    private let queue = DispatchQueue(label: "containment.checkpoint")
    private let busy = Mutex(false)

    init(directory: String, retain: Int, logger: Logger) {
        self.directory = directory
        self.retain = retain
        self.logger = logger
    }

    /// Whether a checkpoint is being written.
    var isBusy: Bool { busy.withLock { $0 } }

    /// Starts writing `checkpoint` (the caller checked ``isBusy``).
    func write(_ checkpoint: Checkpoint) {
        busy.withLock { $0 = true }
        queue.async { [self] in
            defer { busy.withLock { $0 = false } }
            let clock = ContinuousClock()
            let started = clock.now
            do {
                let path = try CheckpointFile.write(checkpoint, directory: directory)
                let removed = CheckpointFile.applyRetention(directory: directory, retain: retain)
                logger.info(
                    "journal: checkpoint written",
                    metadata: [
                        "checkpoint.path": "\(path)", "journal.records": "\(checkpoint.records)",
                        "controller.count": "\(checkpoint.state.controllers.count)",
                        "checkpoint.duration": "\(clock.now - started)", "checkpoint.removed_count": "\(removed.count)",
                    ]
                )
            } catch {
                logger.error(
                    "journal: the checkpoint could not be written; recovery replays from the previous one",
                    metadata: ["error.message": "\(error)"]
                )
            }
        }
    }

    /// Waits for the checkpoint being written, if any (a clean stop).
    func wait() { queue.sync {} }
}
