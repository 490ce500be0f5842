import ContainmentLoad
import Foundation
import ZeroMQ

/// The journal's discipline without the rest of the supervisor, for the bench's peers: each batch of messages a peer
/// drained in one go is written in one `write` to a file opened `O_DSYNC`, over space reserved a mebibyte ahead with
/// `posix_fallocate` (as the journal's segments are written with `journalSync: batch`, docs/DURABILITY.md), before
/// the peer answers or passes any of them on. Raw ZeroMQ with this write is the floor of what any sequencer that makes
/// a command durable before its reply can reach on this transport and disk (docs/BENCH.md, "The floor").
///
/// Each message is a record: its length (4 bytes, little endian), then its bytes; the reserved zeros after the last
/// record end the log, so ``records(in:)`` counts what was written.
final class SyncedLog {
    private let handle: FileHandle
    private var offset = 0
    private var reserved = 0
    private var batch: [UInt8] = []
    private static let reserveStep = 1 << 20

    init(path: String) throws {
        let descriptor =
            FileManager.default.createFile(atPath: path, contents: nil)
            ? open(path, O_WRONLY | O_CLOEXEC | O_DSYNC) : -1
        guard descriptor >= 0 else { throw LoadError("cannot create \(path)") }
        handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
    }

    /// Adds a message to the batch the next ``write()`` makes durable.
    private func append(_ message: [UInt8]) {
        let length = UInt32(message.count)
        for shift in stride(from: 0, to: 32, by: 8) { batch.append(UInt8(truncatingIfNeeded: length >> UInt32(shift))) }
        batch.append(contentsOf: message)
    }

    /// Writes the batch in one synchronous write; returns once it is durable.
    private func write() throws {
        guard !batch.isEmpty else { return }
        while offset + batch.count > reserved {
            guard posix_fallocate(handle.fileDescriptor, off_t(reserved), off_t(Self.reserveStep)) == 0 else {
                throw LoadError("cannot reserve space for the synced log")
            }
            reserved += Self.reserveStep
        }
        // Sequential: the file's position is the log's end, and reserving space does not move it.
        try handle.write(contentsOf: batch)
        offset += batch.count
        batch.removeAll(keepingCapacity: true)
    }

    /// Takes `first` (if any) and every message waiting on `socket`, makes their last frames durable in one write, and
    /// returns them, in order, to be answered or passed on.
    func journal(_ first: [[UInt8]]?, andWaitingOn socket: Socket) throws -> [[[UInt8]]] {
        var batch: [[[UInt8]]] = []
        var next = first
        if next == nil { next = try socket.receive(dontWait: true) }
        while let frames = next {
            if let last = frames.last { append(last) }
            batch.append(frames)
            next = try socket.receive(dontWait: true)
        }
        try write()
        return batch
    }

    /// How many records the log at `path` holds: those before the first zero length (or the file's end).
    static func records(in path: String) throws -> Int {
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        var count = 0
        var position = 0
        while position + 4 <= bytes.count {
            let length = bytes[position..<position + 4].reversed().reduce(0) { $0 << 8 | Int($1) }
            guard length > 0, position + 4 + length <= bytes.count else { break }
            position += 4 + length
            count += 1
        }
        return count
    }
}
