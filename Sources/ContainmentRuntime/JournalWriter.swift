import ContainmentBus
import Foundation
import SwiftProtobuf

/// The supervisor's journal of accepted commands: length-delimited `JournalRecord`s. ``append(_:)`` buffers a record;
/// ``flush()`` hands every buffered record to the kernel in one write, and the supervisor calls it before it sends
/// the events and replies of those records.
final class JournalWriter {
    private let handle: FileHandle
    let path: String

    /// Starts a new journal at `path` (a new supervisor starts from an empty tree, so from an empty journal).
    init(path: String) throws {
        self.path = path
        guard FileManager.default.createFile(atPath: path, contents: nil) else {
            throw ConfigError("Cannot create the journal \(path).")
        }
        guard let handle = FileHandle(forWritingAtPath: path) else {
            throw ConfigError("Cannot open the journal \(path) for writing.")
        }
        self.handle = handle
    }

    /// Records not yet written: length-delimited, in order.
    private var buffer: [UInt8] = []

    /// Buffers one serialized `JournalRecord` (see `PreEncoded.journalRecord`); it reaches the file at the next
    /// ``flush()``, or now when the buffer passes 1 MiB.
    func append(serialized body: [UInt8]) throws {
        var length = UInt64(body.count)
        repeat {
            var byte = UInt8(length & 0x7F)
            length >>= 7
            if length != 0 { byte |= 0x80 }
            buffer.append(byte)
        } while length != 0
        buffer.append(contentsOf: body)
        if buffer.count > 1 << 20 { try flush() }
    }

    /// Writes every buffered record to the file (one `write`), so they have reached the kernel when it returns.
    /// On failure the records are dropped (and the error thrown): a journal never holds a record twice.
    func flush() throws {
        guard !buffer.isEmpty else { return }
        defer { buffer.removeAll(keepingCapacity: buffer.capacity <= 1 << 20) }
        try handle.write(contentsOf: buffer)
    }

    deinit {
        try? flush()
        try? handle.close()
    }

    /// Reads a journal back: every record in order.
    static func read(path: String) throws -> [Containment_V1_JournalRecord] {
        let data = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        var records: [Containment_V1_JournalRecord] = []
        var offset = 0
        while offset < data.count {
            var length = 0
            var shift = 0
            while true {
                guard offset < data.count, shift < 64 else {
                    throw ConfigError("\(path): a record's length is cut short")
                }
                let byte = data[offset]
                offset += 1
                length |= Int(byte & 0x7F) << shift
                shift += 7
                if byte & 0x80 == 0 { break }
            }
            guard offset + length <= data.count else { throw ConfigError("\(path): the last record is cut short") }
            records.append(try Containment_V1_JournalRecord(serializedBytes: Array(data[offset..<offset + length])))
            offset += length
        }
        return records
    }
}
