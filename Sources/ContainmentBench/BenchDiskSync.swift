import ContainmentLoad
import Foundation
import Histogram

/// What making a journal record durable costs on the disk the bench runs on (the same file system as the runtimes'
/// journals, under `$TMPDIR`): `count` records of a journal record's size, each written and synced, appended to a
/// growing file with `fdatasync`, over space reserved beforehand with `posix_fallocate` (no size to update) with
/// `fdatasync`, and over reserved space in a file opened `O_DSYNC`, as the journal's segments are written with
/// `journalSync: batch`. A round trip waits for one (docs/BENCH.md, "What bounds the figures").
struct DiskSyncFigure: Codable, Sendable {
    var appending: Latency
    var reserved: Latency
    var reservedWritingThrough: Latency

    enum Way: String { case appending, reserved, reservedWritingThrough }

    static func measure(directory: String, count: Int, recordBytes: Int = 300) throws -> DiskSyncFigure {
        DiskSyncFigure(
            appending: try syncs(directory: directory, count: count, recordBytes: recordBytes, way: .appending),
            reserved: try syncs(directory: directory, count: count, recordBytes: recordBytes, way: .reserved),
            reservedWritingThrough: try syncs(
                directory: directory,
                count: count,
                recordBytes: recordBytes,
                way: .reservedWritingThrough
            )
        )
    }

    private static func syncs(directory: String, count: Int, recordBytes: Int, way: Way) throws -> Latency {
        let path = directory + "/disk-sync-\(way.rawValue)"
        let writingThrough = way == .reservedWritingThrough
        let descriptor =
            FileManager.default.createFile(atPath: path, contents: nil)
            ? open(path, O_WRONLY | O_CLOEXEC | (writingThrough ? O_DSYNC : 0)) : -1
        guard descriptor >= 0 else { throw LoadError("cannot create \(path)") }
        let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        let reserved = way != .appending
        defer {
            try? handle.close()
            try? FileManager.default.removeItem(atPath: path)
        }
        if reserved {
            guard posix_fallocate(handle.fileDescriptor, 0, off_t(count * recordBytes)) == 0,
                fsync(handle.fileDescriptor) == 0
            else { throw LoadError("cannot reserve \(count * recordBytes) bytes for \(path)") }
        }
        var histogram = Histogram<UInt64>(highestTrackableValue: 60_000_000_000, numberOfSignificantValueDigits: .three)
        let record = [UInt8](repeating: 0x5A, count: recordBytes)
        let clock = ContinuousClock()
        for _ in 0..<count {
            let start = clock.now
            try handle.write(contentsOf: record)
            if !writingThrough, fdatasync(handle.fileDescriptor) != 0 { throw LoadError("cannot sync \(path)") }
            histogram.record((clock.now - start).nanoseconds)
        }
        return Latency(histogram)
    }
}
