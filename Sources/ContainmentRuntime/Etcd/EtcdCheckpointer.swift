import ContainmentConfig
import Dispatch
import Foundation
import Logging
import Synchronization

/// Writes checkpoints to etcd off the supervisor's thread, as ``Checkpointer`` does to a directory: the checkpoint's
/// bytes in parts (``EtcdJournal/batchBytes`` each), then its manifest — all conditioned on the leader's election key,
/// so a supervisor that no longer leads writes none — then the retention setting: checkpoints older than the `retain`
/// latest are removed, with the journal batches only they needed.
package final class EtcdCheckpointer: CheckpointWriting {
    private let store: any EtcdStore
    private let keys: EtcdKeys
    private let leadership: EtcdLeadership
    private let retain: Int
    private let logger: Logger
    private let queue = DispatchQueue(label: "containment.etcd-checkpoint")
    private let busy = Mutex(false)

    package init(store: any EtcdStore, keys: EtcdKeys, leadership: EtcdLeadership, retain: Int, logger: Logger) {
        self.store = store
        self.keys = keys
        self.leadership = leadership
        self.retain = retain
        self.logger = logger
    }

    var isBusy: Bool { busy.withLock { $0 } }

    func write(_ checkpoint: Checkpoint) {
        busy.withLock { $0 = true }
        queue.async { [self] in
            defer { busy.withLock { $0 = false } }
            let clock = ContinuousClock()
            let started = clock.now
            do {
                let removed = try writeNow(checkpoint)
                logger.info(
                    "journal: checkpoint written to etcd",
                    metadata: [
                        "checkpoint.key": "\(keys.checkpoint(checkpoint.nextSegment))",
                        "journal.records": "\(checkpoint.records)",
                        "controller.count": "\(checkpoint.state.controllers.count)",
                        "checkpoint.duration": "\(clock.now - started)", "checkpoint.removed_count": "\(removed)",
                    ]
                )
            } catch {
                logger.error(
                    "journal: the checkpoint could not be written to etcd; recovery replays from the previous one",
                    metadata: ["error.message": "\(error)"]
                )
            }
        }
    }

    func wait() { queue.sync {} }

    /// Writes `checkpoint` on the caller's thread, then applies the retention; how many older checkpoints were
    /// removed. Throws when etcd cannot be reached or this supervisor no longer leads (the fence refused a part).
    /// ``write(_:)`` calls it off the loop's thread; a simulated world, at a time its seed draws.
    @discardableResult
    package func writeNow(_ checkpoint: Checkpoint) throws -> Int {
        try store(checkpoint)
        return try applyRetention()
    }

    private func store(_ checkpoint: Checkpoint) throws {
        let bytes = try CheckpointFile.encode(checkpoint)
        let number = checkpoint.nextSegment
        let fence = EtcdCompare(key: keys.leader, target: .createRevision(leadership.fence))
        var parts = 0
        var offset = 0
        repeat {
            let end = min(bytes.count, offset + EtcdJournal.batchBytes)
            let written = try store.txn(
                [fence],
                success: [.put(key: keys.checkpointPart(number, parts), value: Array(bytes[offset..<end]), lease: 0)]
            )
            guard written.succeeded else { throw JournalFailure(description: "no longer the leader") }
            parts += 1
            offset = end
        } while offset < bytes.count
        let manifest = CheckpointManifest(
            parts: parts,
            bytes: bytes.count,
            crc32c: CRC32C.checksum(bytes),
            records: checkpoint.records
        )
        let value = [UInt8](try JSONEncoder().encode(manifest))
        let written = try store.txn([fence], success: [.put(key: keys.checkpoint(number), value: value, lease: 0)])
        guard written.succeeded else { throw JournalFailure(description: "no longer the leader") }
    }

    /// Removes what the `retain` latest checkpoints do not need; how many keys' ranges were removed.
    private func applyRetention() throws -> Int {
        guard retain > 0 else { return 0 }
        let manifests = try store.range(keys.checkpointPrefix, end: EtcdKeys.end(of: keys.checkpointPrefix)).kvs
        let numbers = manifests.compactMap { EtcdKeys.number(of: $0.key, under: keys.checkpointPrefix) }
        guard numbers.count > retain else { return 0 }
        let oldestKept = numbers[numbers.count - retain]
        var removed = 0
        for number in numbers where number < oldestKept {
            // The manifest first: a checkpoint without it is never read.
            try store.delete(keys.checkpoint(number))
            try store.delete(keys.checkpointParts(number), end: EtcdKeys.end(of: keys.checkpointParts(number)))
            removed += 1
        }
        try store.delete(keys.journal(0), end: keys.journal(oldestKept))
        return removed
    }
}
