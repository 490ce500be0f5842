import ContainmentBus
import Foundation
import Testing

@testable import ContainmentConfig
@testable import ContainmentRuntime

/// The journal's segments without processes: the writer reserves space ahead of its records while a segment is open
/// and cuts it back when it closes one, and the reader takes the reserved space (zeros) as the end of the journal — after a `kill -9`
/// too — while a record torn before it is a torn tail and zeros anywhere else are damage.
@Suite struct JournalSegmentTests {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
        "segments-\(UUID().uuidString.prefix(8))"
    ).path

    func writer(segment: Int = 1, size: Int = 0, segmentBytes: Int = 1 << 20) throws -> JournalWriter {
        try JournalWriter(
            directory: directory,
            segment: segment,
            size: size,
            sync: .batch,
            syncInterval: .seconds(1),
            segmentBytes: segmentBytes
        )
    }

    static func record(_ commandID: UInt64) throws -> [UInt8] {
        var record = Containment_V1_JournalRecord()
        record.commandID = commandID
        record.clientID = "client-\(commandID)"
        return try record.serializedBytes()
    }

    func fileSize(_ segment: Int) throws -> Int {
        let path = directory + "/" + JournalFormat.segmentName(segment)
        return try #require(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
    }

    func write(_ bytes: [UInt8], at offset: Int, in segment: Int) throws {
        let handle = try FileHandle(
            forWritingTo: URL(fileURLWithPath: directory + "/" + JournalFormat.segmentName(segment))
        )
        try handle.seek(toOffset: UInt64(offset))
        try handle.write(contentsOf: bytes)
        try handle.close()
    }

    /// The open flags of this process's descriptors for `path` (from `/proc/self/fdinfo`).
    static func openFlags(of path: String) throws -> [Int32] {
        let manager = FileManager.default
        return try manager.contentsOfDirectory(atPath: "/proc/self/fd").compactMap { fd -> Int32? in
            guard (try? manager.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(fd)")) == path else { return nil }
            let info = try String(contentsOfFile: "/proc/self/fdinfo/\(fd)", encoding: .utf8)
            let line = info.split(separator: "\n").first { $0.hasPrefix("flags:") }
            return line.flatMap { Int32($0.dropFirst("flags:".count).trimmingCharacters(in: .whitespaces), radix: 8) }
        }
    }

    /// With `batch` no `fdatasync` follows a write: the segment must be open `O_DSYNC`, or an acknowledged command
    /// would not survive a power loss (a `kill -9` test cannot tell). The other modes sync by themselves.
    @Test func aBatchSyncedSegmentIsWrittenThroughAndOnlyThatOne() throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        func writtenThrough(_ segment: Int) throws -> [Bool] {
            try Self.openFlags(of: directory + "/" + JournalFormat.segmentName(segment)).map { $0 & O_DSYNC != 0 }
        }
        for sync in JournalSync.allCases {
            try? FileManager.default.removeItem(atPath: directory)
            func writer(segment: Int, size: Int) throws -> JournalWriter {
                try JournalWriter(
                    directory: directory,
                    segment: segment,
                    size: size,
                    sync: sync,
                    syncInterval: .seconds(1),
                    segmentBytes: 16
                )
            }
            var journal: JournalWriter? = try writer(segment: 1, size: 0)
            #expect(try writtenThrough(1) == [sync == .batch], "\(sync): begun")
            // Past segmentBytes: the next segment is begun the same way.
            try journal?.append(serialized: Self.record(1))
            try journal?.flush()
            #expect(try writtenThrough(1).isEmpty && writtenThrough(2) == [sync == .batch], "\(sync): rotated")
            let size = try #require(journal?.size)
            journal = nil
            // Reopened where a supervisor left off.
            journal = try writer(segment: 2, size: size)
            #expect(try writtenThrough(2) == [sync == .batch], "\(sync): reopened")
            journal = nil
        }
    }

    @Test func theOpenSegmentIsReservedItsZerosEndTheJournalAndClosingCutsThemOff() throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let journal = try writer()
        for id in 1...3 as ClosedRange<UInt64> { try journal.append(serialized: Self.record(id)) }
        try journal.flush()
        #expect(try fileSize(1) == journal.size + JournalWriter.reserveAhead, "space is reserved past the records")

        // What a `kill -9` leaves: the records, then zeros.
        let killed = try JournalScan.read(directory: directory)
        #expect(killed.records.map(\.record.commandID) == [1, 2, 3])
        #expect(killed.tornTail == nil, "the reserved space is the end, not a torn record")
        #expect(killed.endOffset == journal.size)
        #expect(killed.bytes == journal.size)

        // Reopened where the records end: the space is reserved again and the next record follows them.
        let reopened = try writer(size: killed.endOffset)
        #expect(try fileSize(1) == killed.endOffset, "cut back to the records")
        try reopened.append(serialized: Self.record(4))
        try reopened.flush()
        #expect(try fileSize(1) == reopened.size + JournalWriter.reserveAhead)
        reopened.finish()
        #expect(try fileSize(1) == reopened.size, "a closed segment ends at its last record")
        let stopped = try JournalScan.read(directory: directory)
        #expect(stopped.records.map(\.record.commandID) == [1, 2, 3, 4])
        #expect(stopped.tornTail == nil && stopped.endOffset == reopened.size)
    }

    @Test func aRecordTornBeforeTheReservedSpaceIsATornTailAndIsWrittenOver() throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let journal = try writer()
        try journal.append(serialized: Self.record(1))
        try journal.flush()
        let end = journal.size
        // A header promising 100 bytes, 10 of them written, then the reserved zeros.
        try write([100, 0, 0, 0, 1, 2, 3, 4] + [UInt8](repeating: 7, count: 10), at: end, in: 1)

        let scan = try JournalScan.read(directory: directory)
        #expect(scan.records.map(\.record.commandID) == [1])
        let torn = try #require(scan.tornTail)
        #expect(torn.offset == end && torn.bytes == 108)
        #expect(scan.endOffset == end)

        let reopened = try writer(size: scan.endOffset)
        try reopened.append(serialized: Self.record(2))
        try reopened.flush()
        let again = try JournalScan.read(directory: directory)
        #expect(again.records.map(\.record.commandID) == [1, 2])
        #expect(again.tornTail == nil)
    }

    @Test func zerosBeforeALaterSegmentAreDamage() throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let journal = try writer()
        try journal.append(serialized: Self.record(1))
        try journal.flush()
        let end = journal.size
        // A second segment while the first still ends in zeros: records it should hold may be lost.
        _ = FileManager.default.createFile(
            atPath: directory + "/" + JournalFormat.segmentName(2),
            contents: Data(JournalFormat.magic)
        )
        #expect {
            try JournalScan.read(directory: directory)
        } throws: { error in
            (error as? JournalDamage)?.offset == end
        }
    }

    @Test(arguments: [0, 4])
    func aSegmentBegunAsTheProcessDiedIsATornHeader(written: Int) throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let journal = try writer()
        try journal.append(serialized: Self.record(1))
        journal.finish()
        // Segment 2 created and its space reserved, its header (partly) lost.
        _ = FileManager.default.createFile(
            atPath: directory + "/" + JournalFormat.segmentName(2),
            contents: Data(JournalFormat.magic.prefix(written) + [UInt8](repeating: 0, count: 64 << 10))
        )
        let scan = try JournalScan.read(directory: directory)
        #expect(scan.records.map(\.record.commandID) == [1])
        let torn = try #require(scan.tornTail)
        #expect(torn.offset == 0 && torn.path.hasSuffix(JournalFormat.segmentName(2)))

        // The writer begins that segment again.
        let reopened = try writer(segment: 2, size: scan.endOffset)
        try reopened.append(serialized: Self.record(2))
        reopened.finish()
        #expect(try JournalScan.read(directory: directory).records.map(\.record.commandID) == [1, 2])
    }

    @Test func everyClosedSegmentEndsAtItsLastRecord() throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let journal = try writer(segmentBytes: 4_096)
        for id in 1...600 as ClosedRange<UInt64> {
            try journal.append(serialized: Self.record(id))
            try journal.flush()
        }
        #expect(journal.segment > 2)
        var offsetsEnd: [Int: Int] = [:]
        let scan = try JournalScan.read(directory: directory)
        #expect(scan.records.map(\.record.commandID) == Array(1...600))
        for located in scan.records {
            let length = try Self.record(located.record.commandID).count
            offsetsEnd[located.segment] = max(offsetsEnd[located.segment] ?? 0, located.offset + 8 + length)
        }
        for segment in 1..<journal.segment { #expect(try fileSize(segment) == offsetsEnd[segment]) }
        #expect(try fileSize(journal.segment) > journal.size, "the open one has space reserved")
    }
}
