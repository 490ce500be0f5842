import ContainmentConfig
import ContainmentBus
import Foundation

/// A failed write or sync of the journal: the supervisor stops (fail-stop, docs/DURABILITY.md).
public struct JournalFailure: Error, CustomStringConvertible, Sendable {
    public let description: String

    package init(description: String) { self.description = description }
}

/// The supervisor's journal writer: ``append(serialized:)`` frames a record into a buffer; ``flush()`` writes every
/// buffered record with one `write` and syncs per ``JournalSync``; the supervisor flushes before it sends the events
/// and replies of those records. A segment is closed and the next begun when it passes `segmentBytes` after a flush.
/// A failed write is cut back off the file (when the file allows) and thrown: the caller must stop accepting.
///
/// The space records are written to is reserved ahead of them (`posix_fallocate`, a mebibyte at a time), so a record
/// goes over reserved space and its sync has no file size to update (docs/BENCH.md: ~170 → ~115 µs a sync on the
/// bench's disk). The reserved space reads as zeros, which the reader takes as the segment's end; a segment is cut
/// back to its records when it is closed, so only the open segment (or one the supervisor died in) ends in zeros,
/// at most a mebibyte of them.
final class JournalWriter {
    let directory: String
    private let sync: JournalSync
    /// `batch`: the segment is opened `O_DSYNC`, so the write of a batch returns once it is durable — one system
    /// call where `write` and `fdatasync` were two (docs/BENCH.md, "The journal's sync").
    private var writesThrough: Bool { sync == .batch }
    private let syncInterval: Duration
    private let segmentBytes: Int
    private var handle: FileHandle
    /// Where the space reserved for records ends; `nil`: the file system cannot reserve (a full disk), so the
    /// segment is appended to.
    private var reservedEnd: Int?
    /// Whether `handle` is open: a closed descriptor's number may belong to another file by now.
    private var isOpen = true
    private(set) var segment: Int
    /// Bytes in the current segment, all written.
    private(set) var size: Int
    private var buffer: [UInt8] = []
    /// Records appended since the writer began.
    private(set) var appended = 0
    private var unsynced = false
    private let clock = ContinuousClock()
    private var lastSync: ContinuousClock.Instant

    var currentPath: String { directory + "/" + JournalFormat.segmentName(segment) }

    /// Appends to segment `segment` from byte `size` (cutting anything after it: a torn tail), or begins it when it
    /// does not exist.
    init(
        directory: String,
        segment: Int,
        size: Int,
        sync: JournalSync,
        syncInterval: Duration,
        segmentBytes: Int
    )
        throws(JournalFailure)
    {
        self.directory = directory
        self.sync = sync
        self.syncInterval = syncInterval
        self.segmentBytes = segmentBytes
        self.segment = segment
        lastSync = clock.now
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            throw JournalFailure(
                description: "Cannot create the journal directory \(directory): \(error.localizedDescription)"
            )
        }
        let path = directory + "/" + JournalFormat.segmentName(segment)
        if size >= JournalFormat.magic.count, FileManager.default.fileExists(atPath: path) {
            guard let handle = Self.openSegment(path, writingThrough: sync == .batch) else {
                throw JournalFailure(description: "Cannot open the journal segment \(path) for writing.")
            }
            do {
                try handle.truncate(atOffset: UInt64(size))
                try handle.seekToEnd()
            } catch {
                throw JournalFailure(
                    description: "Cannot position the journal segment \(path): \(error.localizedDescription)"
                )
            }
            self.handle = handle
            self.size = size
            reservedEnd = self.size
        } else {
            handle = try Self.begin(path: path, directory: directory, writingThrough: sync == .batch)
            self.size = JournalFormat.magic.count
            reservedEnd = self.size
        }
    }

    /// The segment at `path` opened for writing, `O_DSYNC` when `writingThrough`.
    private static func openSegment(_ path: String, writingThrough: Bool) -> FileHandle? {
        let descriptor = open(path, O_WRONLY | O_CLOEXEC | (writingThrough ? O_DSYNC : 0))
        guard descriptor >= 0 else { return nil }
        return FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
    }

    /// A new segment: its header written and synced, and the directory entry synced.
    private static func begin(
        path: String,
        directory: String,
        writingThrough: Bool
    ) throws(JournalFailure)
        -> FileHandle
    {
        guard FileManager.default.createFile(atPath: path, contents: nil),
            let handle = openSegment(path, writingThrough: writingThrough)
        else {
            throw JournalFailure(description: "Cannot create the journal segment \(path).")
        }
        do {
            try handle.write(contentsOf: JournalFormat.magic)
            try handle.synchronize()
        } catch {
            try? handle.close()
            try? FileManager.default.removeItem(atPath: path)
            throw JournalFailure(description: "Cannot write the journal segment \(path): \(error.localizedDescription)")
        }
        syncDirectory(directory)
        return handle
    }

    /// How much space is reserved past what is about to be written.
    static let reserveAhead = 1 << 20

    /// Reserves space for `bytes` more and ``reserveAhead`` past them, when what is reserved does not hold them,
    /// leaving the file's offset where it is. When the file system cannot (a full disk), the segment is appended to,
    /// as it was before: whatever was reserved is cut back, and no more is asked for in this segment.
    private func reserve(_ bytes: Int) {
        guard let reserved = reservedEnd, size + bytes > reserved else { return }
        let end = size + bytes + Self.reserveAhead
        if posix_fallocate(handle.fileDescriptor, off_t(size), off_t(end - size)) == 0 {
            reservedEnd = end
        } else {
            _ = ftruncate(handle.fileDescriptor, off_t(size))
            reservedEnd = nil
        }
    }

    /// Cuts the segment's reserved space off after its last record and makes that durable (the size is metadata,
    /// so `fsync`), then closes it: a closed segment ends at its last record. Closes it even when that fails.
    private func closeSegment() throws(JournalFailure) {
        guard isOpen else { return }
        isOpen = false
        let descriptor = handle.fileDescriptor
        var failure: Int32?
        if ftruncate(descriptor, off_t(size)) != 0 { failure = errno }
        if fsync(descriptor) != 0 { failure = failure ?? errno }
        try? handle.close()
        unsynced = false
        if let failure {
            throw JournalFailure(
                description: "Cannot close the journal segment \(currentPath): \(Self.describe(errno: failure))"
            )
        }
    }

    static func describe(errno code: Int32) -> String {
        POSIXErrorCode(rawValue: code).map { POSIXError($0).localizedDescription } ?? "errno \(code)"
    }

    /// Makes a directory's entries (a new or renamed file) durable.
    static func syncDirectory(_ directory: String) {
        let descriptor = open(directory, O_RDONLY)
        guard descriptor >= 0 else { return }
        _ = fsync(descriptor)
        close(descriptor)
    }

    /// Buffers one serialized `JournalRecord`; it reaches the file at the next ``flush()`` (or now, when the buffer
    /// passes 1 MiB).
    func append(serialized payload: [UInt8]) throws(JournalFailure) {
        JournalFormat.frame(payload, into: &buffer)
        appended += 1
        if buffer.count > 1 << 20 { try flush() }
    }

    /// Writes every buffered record (one `write`) and syncs per the setting, so they are in the journal when it
    /// returns. On failure the bytes written are cut off again (if the file lets us) and the failure thrown.
    func flush() throws(JournalFailure) {
        if !buffer.isEmpty {
            defer { buffer.removeAll(keepingCapacity: buffer.capacity <= 1 << 20) }
            reserve(buffer.count)
            do {
                try handle.write(contentsOf: buffer)
            } catch {
                try? handle.truncate(atOffset: UInt64(size))
                throw JournalFailure(
                    description:
                        "Cannot write \(buffer.count) bytes to the journal \(currentPath): \(error.localizedDescription)"
                )
            }
            size += buffer.count
            if writesThrough {
                lastSync = clock.now
            } else {
                unsynced = true
            }
        }
        switch sync {
        case .batch: try syncNow()
        case .interval: if clock.now - lastSync >= syncInterval { try syncNow() }
        case .none: break
        }
        if size >= segmentBytes { try rotate() }
    }

    /// Syncs what is written, for `interval` (called by the loop when it wakes).
    func syncIfDue() throws(JournalFailure) {
        guard sync == .interval, unsynced, clock.now - lastSync >= syncInterval else { return }
        try syncNow()
    }

    private func syncNow() throws(JournalFailure) {
        guard unsynced else { return }
        if fdatasync(handle.fileDescriptor) != 0 {
            let code = errno
            throw JournalFailure(description: "Cannot sync the journal \(currentPath): \(Self.describe(errno: code))")
        }
        unsynced = false
        lastSync = clock.now
    }

    /// Closes the segment (cut back to its records, synced) and begins the next.
    func rotate() throws(JournalFailure) {
        try closeSegment()
        segment += 1
        reservedEnd = JournalFormat.magic.count
        handle = try Self.begin(path: currentPath, directory: directory, writingThrough: writesThrough)
        isOpen = true
        size = JournalFormat.magic.count
    }

    /// Makes sure the next record begins a new segment (a checkpoint's boundary); nothing to do when the current
    /// segment holds no record yet. Call it with nothing buffered.
    func beginSegment() throws(JournalFailure) {
        if size > JournalFormat.magic.count { try rotate() }
    }

    /// Writes what is buffered, cuts the reserved space off, syncs and closes (a clean stop).
    func finish() {
        try? flush()
        try? closeSegment()
    }
}
