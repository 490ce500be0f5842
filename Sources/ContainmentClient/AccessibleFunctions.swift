import Foundation

/// The distributed methods compiled into this process: the mangled names of the Swift runtime's accessible functions
/// (the `swift5_accessible_functions` section, one record per `distributed func`'s thunk), read from the running
/// executable's ELF file. Swift has no reflection for methods, and the runtime looks these records up by name but
/// does not list them; this reads them as its linker laid them out, so that a host can name each method of its kinds
/// by its declared name (``MethodCatalog``) without the app listing them.
///
/// Linux (ELF64, little-endian), as this runtime's processes are; an app's modules are linked into its executable, so
/// the executable holds them all. Anything unexpected (no such section, a truncated file) gives no names.
enum AccessibleFunctions {
    /// Every accessible function's mangled name in the executable at `path`, in the section's order.
    static func names(inExecutable path: String = "/proc/self/exe") -> [String] {
        guard let file = FileHandle(forReadingAtPath: path) else { return [] }
        defer { try? file.close() }
        return (try? ELFFile(file).accessibleFunctionNames()) ?? []
    }
}

/// The few parts of an ELF64 file the names need: its section headers, its loaded segments, bytes at an address.
private struct ELFFile {
    private let file: FileHandle
    private var sections: [(name: String, address: UInt64, offset: UInt64, size: UInt64)] = []
    private var segments: [(address: UInt64, offset: UInt64, size: UInt64)] = []

    private struct Malformed: Error {}

    init(_ file: FileHandle) throws {
        self.file = file
        let header = try read(at: 0, count: 64)
        // "\x7fELF", 64-bit (2), little-endian (1).
        guard header.count == 64, header.prefix(4) == [0x7F, 0x45, 0x4C, 0x46], header[4] == 2, header[5] == 1 else {
            throw Malformed()
        }
        let programOffset = Self.u64(header, 0x20)
        let sectionOffset = Self.u64(header, 0x28)
        let programSize = Int(Self.u16(header, 0x36))
        let programCount = Int(Self.u16(header, 0x38))
        let sectionSize = Int(Self.u16(header, 0x3A))
        let sectionCount = Int(Self.u16(header, 0x3C))
        let namesIndex = Int(Self.u16(header, 0x3E))
        guard programSize >= 56, sectionSize >= 64, namesIndex < sectionCount else { throw Malformed() }

        let programs = try read(at: programOffset, count: programSize * programCount)
        for index in 0..<programCount {
            let base = index * programSize
            guard Self.u32(programs, base) == 1 else { continue }  // PT_LOAD
            segments.append(
                (Self.u64(programs, base + 0x10), Self.u64(programs, base + 0x08), Self.u64(programs, base + 0x20))
            )
        }
        let headers = try read(at: sectionOffset, count: sectionSize * sectionCount)
        let namesBase = namesIndex * sectionSize
        let names = try read(at: Self.u64(headers, namesBase + 0x18), count: Int(Self.u64(headers, namesBase + 0x20)))
        for index in 0..<sectionCount {
            let base = index * sectionSize
            let nameStart = Int(Self.u32(headers, base))
            guard nameStart < names.count else { continue }
            let name = String(decoding: names[nameStart...].prefix { $0 != 0 }, as: UTF8.self)
            sections.append(
                (name, Self.u64(headers, base + 0x10), Self.u64(headers, base + 0x18), Self.u64(headers, base + 0x20))
            )
        }
    }

    /// Each record (five 32-bit fields, the first a relative pointer to the name) gives a NUL-terminated name.
    func accessibleFunctionNames() throws -> [String] {
        guard let section = sections.first(where: { $0.name == "swift5_accessible_functions" }) else { return [] }
        let records = try read(at: section.offset, count: Int(section.size))
        let recordSize = 20
        var names: [String] = []
        for index in 0..<(records.count / recordSize) {
            let fieldAddress = section.address + UInt64(index * recordSize)
            let relative = Int64(Int32(bitPattern: Self.u32(records, index * recordSize)))
            let address = UInt64(bitPattern: Int64(bitPattern: fieldAddress) + relative)
            guard let offset = fileOffset(of: address) else { continue }
            let bytes = try read(at: offset, count: 1_024)
            guard let end = bytes.firstIndex(of: 0) else { continue }
            names.append(String(decoding: bytes[..<end], as: UTF8.self))
        }
        return names
    }

    /// Where the byte loaded at `address` lies in the file.
    private func fileOffset(of address: UInt64) -> UInt64? {
        segments.first { address >= $0.address && address < $0.address + $0.size }.map {
            address - $0.address + $0.offset
        }
    }

    private func read(at offset: UInt64, count: Int) throws -> [UInt8] {
        try file.seek(toOffset: offset)
        return [UInt8](try file.read(upToCount: count) ?? Data())
    }

    private static func u16(_ bytes: [UInt8], _ at: Int) -> UInt16 { UInt16(truncatingIfNeeded: value(bytes, at, 2)) }
    private static func u32(_ bytes: [UInt8], _ at: Int) -> UInt32 { UInt32(truncatingIfNeeded: value(bytes, at, 4)) }
    private static func u64(_ bytes: [UInt8], _ at: Int) -> UInt64 { value(bytes, at, 8) }

    /// A little-endian number of `width` bytes at `at`; 0 past the end.
    private static func value(_ bytes: [UInt8], _ at: Int, _ width: Int) -> UInt64 {
        guard at >= 0, at + width <= bytes.count else { return 0 }
        var result: UInt64 = 0
        for index in (0..<width).reversed() { result = result << 8 | UInt64(bytes[at + index]) }
        return result
    }
}
