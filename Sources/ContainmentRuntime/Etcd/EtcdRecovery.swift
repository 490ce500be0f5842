import ContainmentConfig
import ContainmentBus
import Foundation
import Logging

/// A checkpoint's manifest in etcd (``EtcdKeys/checkpoint(_:)``): written after its parts, so a checkpoint is read
/// only when whole.
struct CheckpointManifest: Codable, Sendable, Equatable {
    var parts: Int
    var bytes: Int
    var crc32c: UInt32
    var records: UInt64
}

/// Recovery from a replicated journal (docs/DURABILITY.md, "Replicated"): the latest checkpoint in etcd that reads
/// back, then every journal batch after it — the same records, checked and replayed as a directory's.
extension Recovery {
    package static func load(
        from store: any EtcdStore,
        keys: EtcdKeys,
        config: RuntimeConfig,
        logger: Logger
    ) throws -> Recovery {
        var start: Checkpoint?
        let manifests = try store.range(keys.checkpointPrefix, end: EtcdKeys.end(of: keys.checkpointPrefix)).kvs
        for entry in manifests.reversed() {
            do {
                start = try readCheckpoint(entry, store: store, keys: keys, config: config)
                break
            } catch {
                logger.warning(
                    "journal: a checkpoint in etcd does not read back; recovering from an older one",
                    metadata: ["checkpoint.key": "\(entry.key)", "error.message": "\(error)"]
                )
            }
        }
        var recovery = Recovery(from: start, config: config)
        recovery.segment = start?.nextSegment ?? 1
        try recovery.catchUp(from: store, keys: keys)
        return recovery
    }

    /// Reads one checkpoint: its manifest, then its parts, checked against it.
    private static func readCheckpoint(
        _ entry: EtcdKeyValue,
        store: any EtcdStore,
        keys: EtcdKeys,
        config: RuntimeConfig
    ) throws -> Checkpoint {
        let place = "etcd:" + entry.key
        guard let number = EtcdKeys.number(of: entry.key, under: keys.checkpointPrefix),
            let manifest = try? JSONDecoder().decode(CheckpointManifest.self, from: Data(entry.value))
        else {
            throw JournalDamage(path: place, offset: 0, reason: "its manifest does not read")
        }
        let prefix = keys.checkpointParts(number)
        let parts = try store.range(prefix, end: EtcdKeys.end(of: prefix)).kvs
        let bytes = parts.flatMap(\.value)
        guard parts.count == manifest.parts, bytes.count == manifest.bytes, CRC32C.checksum(bytes) == manifest.crc32c
        else {
            throw JournalDamage(
                path: place,
                offset: 0,
                reason: "its parts (\(parts.count), \(bytes.count) bytes) are not the \(manifest.parts) it names"
            )
        }
        let checkpoint = try CheckpointFile.decode(bytes, path: place, answers: ClientReplies.Limits(config))
        guard checkpoint.nextSegment == number else {
            throw JournalDamage(path: place, offset: 0, reason: "it replays from batch \(checkpoint.nextSegment)")
        }
        return checkpoint
    }

    /// Replays the journal's batches from ``segment`` on, as far as etcd holds them; how many records. Throws
    /// ``JournalDamage`` when a batch is missing (removed after a checkpoint this recovery did not start from) or
    /// does not read back.
    @discardableResult
    package mutating func catchUp(from store: any EtcdStore, keys: EtcdKeys) throws -> Int {
        let end = EtcdKeys.end(of: keys.journalPrefix)
        var replayed = 0
        while true {
            let page = try store.range(keys.journal(segment), end: end, limit: 64)
            for entry in page.kvs {
                let place = "etcd:" + entry.key
                guard EtcdKeys.number(of: entry.key, under: keys.journalPrefix) == segment else {
                    throw JournalDamage(
                        path: place,
                        offset: 0,
                        reason: "batch \(segment) \(JournalDamage.missingBatch) (removed after a checkpoint?)"
                    )
                }
                var scan = JournalScan()
                try scan.readSegment(entry.value, path: place, number: segment, isLast: false)
                for located in scan.records { try apply(located, at: place) }
                replayed += scan.records.count
                segment += 1
            }
            if !page.more { break }
        }
        records += replayed
        return replayed
    }
}

extension Recovery {
    /// Follows the journal as a standby does: catches up (``catchUp(from:keys:)``), and when the leader removed batches
    /// this recovery had yet to apply (a checkpoint's retention, written while it lagged) recovers again from the latest
    /// checkpoint. Whether it had to. ``ReplicatedSupervisor``'s standbys and a simulated world's follow this way.
    @discardableResult
    package mutating func follow(
        from store: any EtcdStore,
        keys: EtcdKeys,
        config: RuntimeConfig,
        logger: Logger
    ) throws -> Bool {
        do {
            try catchUp(from: store, keys: keys)
            return false
        } catch let damage as JournalDamage where damage.reason.contains(JournalDamage.missingBatch) {
            self = try Recovery.load(from: store, keys: keys, config: config, logger: logger)
            logger.notice(
                "standby: batches it had yet to apply were removed after a checkpoint; recovered from it again",
                metadata: [
                    "journal.checkpoint": "\(checkpoint.map(String.init) ?? "none")",
                    "journal.batch": "\(segment - 1)", "error.message": "\(damage)",
                ]
            )
            return true
        }
    }
}

extension JournalDamage {
    /// What ``Recovery/catchUp(from:keys:)`` says of a batch it cannot find before the next one.
    static let missingBatch = "is missing before it"
}

extension JournalEntry {
    /// Every record of the journal batches given (etcd's values under ``EtcdKeys/journalPrefix``), in order: the checks
    /// of a simulated replicated world read every batch ever appended, those a checkpoint's retention removed since
    /// included.
    package static func all(inBatches batches: [EtcdKeyValue]) throws -> [JournalEntry] {
        var entries: [JournalEntry] = []
        for (index, batch) in batches.enumerated() {
            var scan = JournalScan()
            try scan.readSegment(batch.value, path: "etcd:" + batch.key, number: index + 1, isLast: false)
            entries += scan.records.map { JournalEntry($0.record) }
        }
        return entries
    }
}
