import Testing

@testable import ContainmentConfig
@testable import ContainmentRuntime

/// The journal's checksum: RFC 3720's CRC-32C test vectors, and every length and offset of a slice against the
/// definition, a bit at a time (the eight-bytes-at-a-time loop and its tail must agree with it everywhere).
@Suite struct CRC32CTests {
    /// CRC-32C by its definition: the reflected polynomial, one bit at a time.
    static func bitwise(_ bytes: ArraySlice<UInt8>) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0x82F6_3B78 : crc >> 1 }
        }
        return crc ^ 0xFFFF_FFFF
    }

    @Test func rfc3720Vectors() {
        #expect(CRC32C.checksum(Array("123456789".utf8)) == 0xE306_9283)
        #expect(CRC32C.checksum([UInt8](repeating: 0, count: 32)) == 0x8A91_36AA)
        #expect(CRC32C.checksum([UInt8](repeating: 0xFF, count: 32)) == 0x62A8_AB43)
        #expect(CRC32C.checksum((0..<32).map { UInt8($0) }) == 0x46DD_794E)
        #expect(CRC32C.checksum((0..<32).map { UInt8(31 - $0) }) == 0x113F_DB5C)
        #expect(CRC32C.checksum([]) == 0)
    }

    @Test func everyLengthAndOffsetAgreesWithTheDefinition() {
        let bytes = (0..<64).map { UInt8(truncatingIfNeeded: $0 &* 151 &+ 7) }
        for start in 0..<9 {
            for end in start...bytes.count {
                #expect(CRC32C.checksum(bytes[start..<end]) == Self.bitwise(bytes[start..<end]), "\(start)..<\(end)")
            }
        }
    }
}
