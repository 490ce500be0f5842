import ContainmentConfig
/// CRC-32C (Castagnoli, reflected polynomial 0x82F63B78), the checksum of every journal record: the one iSCSI, ext4
/// and LevelDB's log use, and the one Python's `crc32c` package computes. Table-driven, eight bytes at a time
/// ("slicing-by-8": 3.6× the byte-at-a-time loop on 300-byte records), the tail a byte at a time.
enum CRC32C {
    /// Eight tables of 256 entries, one after the other: table 0 is the byte-at-a-time table, and table k gives the
    /// effect of a byte followed by k zero bytes.
    private static let tables: [UInt32] = {
        var tables = [UInt32](repeating: 0, count: 8 * 256)
        for index in 0..<256 {
            var crc = UInt32(index)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0x82F6_3B78 : crc >> 1 }
            tables[index] = crc
        }
        for table in 1..<8 {
            for index in 0..<256 {
                let previous = tables[(table - 1) * 256 + index]
                tables[table * 256 + index] = (previous >> 8) ^ tables[Int(previous & 0xFF)]
            }
        }
        return tables
    }()

    static func checksum(_ bytes: ArraySlice<UInt8>) -> UInt32 {
        let tables = Self.tables
        var crc: UInt32 = 0xFFFF_FFFF
        var index = bytes.startIndex
        while bytes.endIndex - index >= 8 {
            let low =
                crc
                ^ (UInt32(bytes[index]) | UInt32(bytes[index + 1]) << 8 | UInt32(bytes[index + 2]) << 16
                    | UInt32(bytes[index + 3]) << 24)
            crc =
                tables[7 * 256 + Int(low & 0xFF)] ^ tables[6 * 256 + Int((low >> 8) & 0xFF)]
                ^ tables[5 * 256 + Int((low >> 16) & 0xFF)] ^ tables[4 * 256 + Int(low >> 24)]
                ^ tables[3 * 256 + Int(bytes[index + 4])] ^ tables[2 * 256 + Int(bytes[index + 5])]
                ^ tables[256 + Int(bytes[index + 6])] ^ tables[Int(bytes[index + 7])]
            index += 8
        }
        while index < bytes.endIndex {
            crc = tables[Int((crc ^ UInt32(bytes[index])) & 0xFF)] ^ (crc >> 8)
            index += 1
        }
        return crc ^ 0xFFFF_FFFF
    }

    static func checksum(_ bytes: [UInt8]) -> UInt32 { checksum(bytes[...]) }
}
