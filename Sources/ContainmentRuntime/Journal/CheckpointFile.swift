import ContainmentConfig
import ContainmentBus
import Foundation

/// A checkpoint on disk (docs/PROTOCOL.md, "The journal"): `checkpoint-NNNNNNNN.ckpt` beside the segments, NNNNNNNN
/// being the segment recovery replays from; the magic `CNTCKPT1`, the payload's length (u64, little-endian) and
/// CRC-32C (u32, little-endian), then the payload (a `Checkpoint`). Written to a temporary file, synced, then renamed,
/// so a checkpoint is whole or absent.
enum CheckpointFile {
    static let magic: [UInt8] = Array("CNTCKPT1".utf8)

    static func name(_ nextSegment: Int) -> String {
        "checkpoint-" + String(JournalFormat.segmentName(nextSegment).dropFirst("segment-".count).dropLast(4))
            + ".ckpt"
    }

    /// The checkpoints in `directory`, by the segment each replays from, in order.
    static func numbers(in directory: String) -> [Int] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        return names.compactMap { JournalFormat.number(of: $0, prefix: "checkpoint", suffix: ".ckpt") }.sorted()
    }

    /// A checkpoint's bytes: the magic, the payload's length and checksum, the payload.
    static func encode(_ checkpoint: Checkpoint) throws(JournalFailure) -> [UInt8] {
        let payload: [UInt8]
        do {
            payload = try checkpoint.message.serializedBytes()
        } catch {
            throw JournalFailure(description: "Cannot encode the checkpoint: \(error)")
        }
        var bytes = magic
        bytes.reserveCapacity(magic.count + 12 + payload.count)
        let length = UInt64(payload.count)
        JournalFormat.appendUInt32(UInt32(truncatingIfNeeded: length), to: &bytes)
        JournalFormat.appendUInt32(UInt32(truncatingIfNeeded: length >> 32), to: &bytes)
        JournalFormat.appendUInt32(CRC32C.checksum(payload), to: &bytes)
        bytes.append(contentsOf: payload)
        return bytes
    }

    /// Writes `checkpoint` atomically into `directory`; returns its path.
    static func write(_ checkpoint: Checkpoint, directory: String) throws(JournalFailure) -> String {
        let path = directory + "/" + name(checkpoint.nextSegment)
        let temporary = path + ".tmp"
        let bytes = try encode(checkpoint)
        guard FileManager.default.createFile(atPath: temporary, contents: nil),
            let handle = FileHandle(forWritingAtPath: temporary)
        else {
            throw JournalFailure(description: "Cannot create the checkpoint \(temporary).")
        }
        do {
            defer { try? handle.close() }
            try handle.write(contentsOf: bytes)
            try handle.synchronize()
        } catch {
            try? FileManager.default.removeItem(atPath: temporary)
            throw JournalFailure(description: "Cannot write the checkpoint \(temporary): \(error.localizedDescription)")
        }
        guard rename(temporary, path) == 0 else {
            try? FileManager.default.removeItem(atPath: temporary)
            throw JournalFailure(description: "Cannot rename the checkpoint \(temporary) to \(path).")
        }
        JournalWriter.syncDirectory(directory)
        return path
    }

    /// Reads and checks the checkpoint at `path`.
    static func read(
        _ path: String,
        answers: ClientReplies.Limits
    ) throws(JournalDamage) -> Checkpoint {
        try decode(JournalScan.contents(of: path), path: path, answers: answers)
    }

    /// Checks and reads a checkpoint's bytes (`path`: where they are, for the damage's report).
    static func decode(
        _ data: [UInt8],
        path: String,
        answers: ClientReplies.Limits
    ) throws(JournalDamage) -> Checkpoint {
        let header = magic.count + 12
        guard data.count >= header, Array(data[0..<magic.count]) == magic else {
            throw JournalDamage(path: path, offset: 0, reason: "it does not start with the checkpoint's magic")
        }
        let length =
            UInt64(JournalFormat.uint32(data, at: magic.count))
            | UInt64(JournalFormat.uint32(data, at: magic.count + 4)) << 32
        guard length == UInt64(data.count - header) else {
            throw JournalDamage(
                path: path,
                offset: magic.count,
                reason: "it announces \(length) bytes and holds \(data.count - header)"
            )
        }
        guard CRC32C.checksum(data[header...]) == JournalFormat.uint32(data, at: magic.count + 8) else {
            throw JournalDamage(path: path, offset: header, reason: "it fails its checksum")
        }
        let message: Containment_V1_Checkpoint
        do {
            message = try Containment_V1_Checkpoint(serializedBytes: Array(data[header...]))
        } catch {
            throw JournalDamage(path: path, offset: header, reason: "it passes its checksum but does not decode")
        }
        do {
            return try Checkpoint(message, answers: answers)
        } catch {
            throw JournalDamage(path: path, offset: header, reason: "it does not restore a state: \(error)")
        }
    }

    /// Removes the checkpoints older than the `retain` latest, and the segments only they needed (those below the
    /// oldest checkpoint kept). `retain` 0 keeps everything. Returns the files removed.
    @discardableResult
    static func applyRetention(directory: String, retain: Int) -> [String] {
        guard retain > 0 else { return [] }
        let checkpoints = numbers(in: directory)
        guard checkpoints.count > retain else { return [] }
        let oldestKept = checkpoints[checkpoints.count - retain]
        var removed: [String] = []
        for number in checkpoints where number < oldestKept {
            let path = directory + "/" + name(number)
            if (try? FileManager.default.removeItem(atPath: path)) != nil { removed.append(path) }
        }
        for number in JournalFormat.segments(in: directory) where number < oldestKept {
            let path = directory + "/" + JournalFormat.segmentName(number)
            if (try? FileManager.default.removeItem(atPath: path)) != nil { removed.append(path) }
        }
        JournalWriter.syncDirectory(directory)
        return removed
    }
}
