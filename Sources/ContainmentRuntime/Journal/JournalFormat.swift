import ContainmentConfig
import ContainmentBus
import Foundation

/// The journal on disk (docs/PROTOCOL.md, "The journal"): a directory of numbered segments,
/// `segment-00000001.log`, `segment-00000002.log`, …, each an 8-byte magic (`CNTJRNL1`) followed by records framed
/// as `length` (u32, little-endian) · `crc32c(payload)` (u32, little-endian) · `payload` (a `JournalRecord`).
public enum JournalFormat {
    static let magic: [UInt8] = Array("CNTJRNL1".utf8)
    /// A record longer than this is damage, not a record (a batch is limited far below it).
    static let maxRecord = JournalLimits.maxRecord

    static func segmentName(_ number: Int) -> String { "segment-" + padded(number) + ".log" }

    private static func padded(_ number: Int) -> String {
        let digits = String(number)
        return String(repeating: "0", count: max(0, 8 - digits.count)) + digits
    }

    /// The number in a file name of the form `PREFIX-NNNNNNNN.EXT`.
    static func number(of name: String, prefix: String, suffix: String) -> Int? {
        guard name.hasPrefix(prefix + "-"), name.hasSuffix(suffix) else { return nil }
        return Int(name.dropFirst(prefix.count + 1).dropLast(suffix.count))
    }

    /// The segment numbers in `directory`, in order (none when it does not exist).
    static func segments(in directory: String) -> [Int] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        return names.compactMap { number(of: $0, prefix: "segment", suffix: ".log") }.sorted()
    }

    /// One framed record: length, checksum, payload.
    static func frame(_ payload: [UInt8], into buffer: inout [UInt8]) {
        appendUInt32(UInt32(payload.count), to: &buffer)
        appendUInt32(CRC32C.checksum(payload), to: &buffer)
        buffer.append(contentsOf: payload)
    }

    static func appendUInt32(_ value: UInt32, to buffer: inout [UInt8]) {
        buffer.append(UInt8(truncatingIfNeeded: value))
        buffer.append(UInt8(truncatingIfNeeded: value >> 8))
        buffer.append(UInt8(truncatingIfNeeded: value >> 16))
        buffer.append(UInt8(truncatingIfNeeded: value >> 24))
    }

    static func uint32(_ bytes: [UInt8], at offset: Int) -> UInt32 {
        UInt32(bytes[offset]) | UInt32(bytes[offset + 1]) << 8 | UInt32(bytes[offset + 2]) << 16
            | UInt32(bytes[offset + 3]) << 24
    }
}

/// Damage before the journal's tail: the supervisor refuses to start on it; `containment journal verify` reports it
/// and `containment journal repair --force` cuts the journal there (keeping a backup).
public struct JournalDamage: Error, CustomStringConvertible, Sendable {
    public let path: String
    public let offset: Int
    public let reason: String

    public var description: String {
        "The journal is damaged in \(path) at byte \(offset): \(reason). Nothing after it can be trusted, so the "
            + "supervisor does not start; `containment journal verify` shows the damage and "
            + "`containment journal repair --force` cuts the journal there, keeping a backup."
    }
}

/// A journal read back: its records in order, and where a torn last record (a write the process died in) begins.
public struct JournalScan: Sendable {
    /// A record and where it is.
    public struct Located: Sendable {
        public var record: Containment_V1_JournalRecord
        public var segment: Int
        public var offset: Int
    }

    /// A record cut short at the very end of the journal: an append the writer died in, never acknowledged.
    public struct TornTail: Sendable, CustomStringConvertible {
        public var path: String
        public var offset: Int
        public var bytes: Int
        public var reason: String
        public var description: String {
            "\(path): the last record, at byte \(offset) (\(bytes) bytes), is torn: \(reason)"
        }
    }

    public var records: [Located] = []
    /// When set, records are handed to it in chunks as they are read instead of kept in ``records`` (see
    /// ``JournalStream``).
    var sink: (@Sendable ([Located]) -> Void)?
    static let chunk = 4_096
    public var segments: [Int] = []
    /// Bytes of the last segment up to the end of its last whole record.
    public var endOffset = 0
    public var tornTail: TornTail?
    /// Bytes of records read, torn tails included (not the segments' reserved space).
    public var bytes = 0

    /// Reads every segment of `directory` from segment `first` on. A record that fails its checksum, or is cut short,
    /// is a torn tail when nothing but it follows in the last segment, and damage (thrown) anywhere else.
    public static func read(directory: String, from first: Int = 0) throws(JournalDamage) -> JournalScan {
        try read(directory: directory, from: first, sink: nil)
    }

    static func read(
        directory: String,
        from first: Int,
        sink: (@Sendable ([Located]) -> Void)?
    ) throws(JournalDamage) -> JournalScan {
        var scan = JournalScan()
        scan.sink = sink
        defer {
            if let sink, !scan.records.isEmpty {
                sink(scan.records)
                scan.records.removeAll()
            }
        }
        let numbers = JournalFormat.segments(in: directory).filter { $0 >= first }
        scan.segments = numbers
        for (position, number) in numbers.enumerated() {
            let path = directory + "/" + JournalFormat.segmentName(number)
            let expected = position == 0 ? max(first, 1) : numbers[position - 1] + 1
            guard number == expected else {
                throw JournalDamage(
                    path: path,
                    offset: 0,
                    reason: "segment \(expected) is missing before it (the records it held are lost)"
                )
            }
            try scan.readSegment(path: path, number: number, isLast: position == numbers.count - 1)
        }
        return scan
    }

    private mutating func readSegment(path: String, number: Int, isLast: Bool) throws(JournalDamage) {
        try readSegment(Self.contents(of: path), path: path, number: number, isLast: isLast)
    }

    static func contents(of path: String) throws(JournalDamage) -> [UInt8] {
        do {
            return try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        } catch {
            throw JournalDamage(path: path, offset: 0, reason: "it cannot be read (\(error.localizedDescription))")
        }
    }

    /// Whether every byte of `data` from `offset` on is zero (a segment's reserved space).
    static func isZero(_ data: [UInt8], from offset: Int) -> Bool {
        var bits: UInt8 = 0
        for index in offset..<data.count { bits |= data[index] }
        return bits == 0
    }

    /// Reads one segment's bytes (`isLast`: a torn tail is allowed at its end, and the segment's reserved space,
    /// zeros, ends it).
    mutating func readSegment(_ data: [UInt8], path: String, number: Int, isLast: Bool) throws(JournalDamage) {
        bytes += data.count
        func problem(at offset: Int, _ reason: String, recordEnd: Int) throws(JournalDamage) {
            // Torn: in the last segment, and nothing whole follows (the record runs to or past the end, or only the
            // segment's reserved space, zeros, follows it).
            guard isLast, recordEnd >= data.count || Self.isZero(data, from: recordEnd) else {
                throw JournalDamage(path: path, offset: offset, reason: reason)
            }
            tornTail = TornTail(path: path, offset: offset, bytes: min(recordEnd, data.count) - offset, reason: reason)
            endOffset = offset
            bytes -= data.count - min(recordEnd, data.count)
        }
        let magic = JournalFormat.magic
        guard data.count >= magic.count, Array(data[0..<magic.count]) == magic else {
            // Part of the header, then nothing or the reserved space: a segment begun as the process died.
            let written = zip(data, magic).prefix { $0 == $1 }.count
            if written < magic.count, Self.isZero(data, from: written) {
                try problem(at: 0, "the segment's header is cut short", recordEnd: data.count)
                return
            }
            throw JournalDamage(path: path, offset: 0, reason: "it does not start with the journal's magic")
        }
        var offset = magic.count
        while offset < data.count {
            guard data.count - offset >= 8 else {
                try problem(at: offset, "a record's header is cut short", recordEnd: data.count)
                return
            }
            let length = Int(JournalFormat.uint32(data, at: offset))
            let checksum = JournalFormat.uint32(data, at: offset + 4)
            let end = offset + 8 + length
            if length == 0, isLast, Self.isZero(data, from: offset) {
                // The segment's reserved space, never written: the end of the journal (JournalWriter).
                endOffset = offset
                bytes -= data.count - offset
                return
            }
            if length == 0 || length > JournalFormat.maxRecord {
                try problem(at: offset, "a record's length (\(length)) is not valid", recordEnd: end)
                return
            }
            guard end <= data.count else {
                try problem(
                    at: offset,
                    "the record needs \(length) bytes, \(data.count - offset - 8) remain",
                    recordEnd: end
                )
                return
            }
            guard CRC32C.checksum(data[(offset + 8)..<end]) == checksum else {
                try problem(at: offset, "the record fails its checksum", recordEnd: end)
                return
            }
            let record: Containment_V1_JournalRecord
            do {
                record = try Containment_V1_JournalRecord(serializedBytes: Array(data[(offset + 8)..<end]))
            } catch {
                throw JournalDamage(
                    path: path,
                    offset: offset,
                    reason: "the record passes its checksum but does not decode"
                )
            }
            records.append(Located(record: record, segment: number, offset: offset))
            if let sink, records.count >= Self.chunk {
                sink(records)
                records.removeAll(keepingCapacity: true)
            }
            offset = end
        }
        endOffset = data.count
    }
}
