import ContainmentLoad
import Foundation
import Histogram

/// What one `fdatasync` of the journal costs on the disk the bench runs on (the same file system as the runtimes'
/// journals, under `$TMPDIR`): `count` records of a journal record's size, each written and synced, appended to a
/// growing file, and again over space reserved beforehand with `posix_fallocate`, as the journal's segments are (no
/// size to update). With `journalSync: batch` a round trip waits for one (docs/BENCH.md, "What bounds the figures").
struct DiskSyncFigure: Codable, Sendable {
    var appending: Latency
    var reserved: Latency

    static func measure(directory: String, count: Int, recordBytes: Int = 300) throws -> DiskSyncFigure {
        DiskSyncFigure(
            appending: try syncs(directory: directory, count: count, recordBytes: recordBytes, reserved: false),
            reserved: try syncs(directory: directory, count: count, recordBytes: recordBytes, reserved: true)
        )
    }

    private static func syncs(directory: String, count: Int, recordBytes: Int, reserved: Bool) throws -> Latency {
        let path = directory + "/disk-sync-\(reserved ? "reserved" : "appending")"
        guard FileManager.default.createFile(atPath: path, contents: nil),
            let handle = FileHandle(forWritingAtPath: path)
        else { throw LoadError("cannot create \(path)") }
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
            guard fdatasync(handle.fileDescriptor) == 0 else { throw LoadError("cannot sync \(path)") }
            histogram.record((clock.now - start).nanoseconds)
        }
        return Latency(histogram)
    }
}
