import ContainmentBus
import Foundation
import SwiftProtobuf

/// The supervisor's journal of accepted commands: length-delimited `JournalRecord`s, appended before each reply.
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

    func append(_ record: Containment_V1_JournalRecord) throws {
        let body = record.bytes
        var bytes: [UInt8] = []
        bytes.reserveCapacity(body.count + 5)
        var length = UInt64(body.count)
        repeat {
            var byte = UInt8(length & 0x7F)
            length >>= 7
            if length != 0 { byte |= 0x80 }
            bytes.append(byte)
        } while length != 0
        bytes.append(contentsOf: body)
        try handle.write(contentsOf: bytes)
    }

    deinit {
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
