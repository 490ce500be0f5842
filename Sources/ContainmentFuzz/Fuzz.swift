import ContainmentBus
import ContainmentModel
import ContainmentConfig
import ContainmentRuntime
import Foundation

/// What a fuzz run feeds (`CONTAINMENT_FUZZ_TARGET`; scripts/fuzz.sh runs each): command-socket messages, journal
/// segments (as they are, and as framed records), and configuration text.
enum FuzzTarget: String, CaseIterable {
    case command
    case journal
    case config

    static let current = FuzzTarget(rawValue: ProcessInfo.processInfo.environment["CONTAINMENT_FUZZ_TARGET"] ?? "")

    /// A scratch directory of this process, for the inputs read from files.
    static let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("containment-fuzz-\(getpid())")
        .path

    func feed(_ bytes: [UInt8]) {
        switch self {
        case .command:
            UntrustedInput.commandMessage(bytes)
        case .journal:
            // The first byte chooses: the bytes as a segment, or cut into framed records.
            UntrustedInput.journal(Array(bytes.dropFirst()), framed: (bytes.first ?? 0) & 1 == 1, in: Self.scratch)
        case .config:
            UntrustedInput.configuration(String(decoding: bytes, as: UTF8.self), scratch: Self.scratch + ".yaml")
        }
    }
}

#if FUZZING
/// libFuzzer's entry point (scripts/fuzz.sh builds with `-sanitize=fuzzer,address`): its C signature is
/// libFuzzer's ABI, the one C pointer outside the ZeroMQ wrapper; the bytes are copied out at once.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    (FuzzTarget.current ?? .command).feed(bytes)
    return 0
}
#else
/// Without the fuzzer: `ContainmentFuzz DIR...` replays corpus files (each directory named after its target)
/// through the same entry points; `ContainmentFuzz --write-seeds DIR` writes the seed corpus from real encodings.
@main
struct Replay {
    static func main() throws {
        let arguments = Array(CommandLine.arguments.dropFirst())
        if arguments.first == "--write-seeds", arguments.count == 2 {
            try Seeds.write(to: arguments[1])
            return
        }
        var replayed = 0
        for directory in arguments {
            let name = (directory as NSString).lastPathComponent
            guard let target = FuzzTarget(rawValue: name) else {
                FileHandle.standardError.write(Data("not a target's corpus: \(directory)\n".utf8))
                exit(2)
            }
            for file in try FileManager.default.contentsOfDirectory(atPath: directory).sorted() {
                let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: directory + "/" + file)))
                target.feed(bytes)
                replayed += 1
            }
        }
        print("replayed \(replayed) inputs")
    }
}
#endif
