import ContainmentConfig
import ContainmentBus
import ContainmentModel
import Foundation
import Logging

/// Everything that reads bytes from outside, as one entry point per kind of input: what `Sources/ContainmentFuzz`
/// (scripts/fuzz.sh) feeds arbitrary bytes, and its seed corpus replays in the tests. Each must only ever answer or
/// throw — never crash, hang or grow without bound.
public enum UntrustedInput {
    private static let quiet = Logger(label: "untrusted") { _ in SwiftLogNoOpLogHandler() }

    /// A message on the supervisor's command socket, handled by a core over a small tree (two hosts, a window, a
    /// parent and a child, one host registered), and then the passing of time: every reply and journal record made.
    /// First, the batch's hand-written reader must read it as SwiftProtobuf does (it traps otherwise).
    public static func commandMessage(_ bytes: [UInt8]) {
        ReceivedBatch.checkAgainstSwiftProtobuf(bytes)
        var config = RuntimeConfig(runDirectory: "/nonexistent")
        config.maxBatch = 64
        var core = SupervisorCore.quiet(config: config, clients: ClientReplies(window: 8, clients: 8))
        let host = SupervisorCore.quietHostPeer
        let setup = ClientRequest.commands(
            [
                .system(.create("a", kind: .content)),
                .system(.create("b", kind: .content)),
                .system(.attachWindow("w", root: "a", size: Size(width: 100, height: 100))),
                Request(.addChild("b", to: "a"), by: .natural),
            ],
            hosts: ["a": "h0", "b": "h1"]
        )
        let time = SystemClock().time
        var step = SupervisorStep()
        step.add(core.handle(.message([[9], setup]), at: time))
        // The bytes, from a client and from the registered host; then time passes. Everything is encoded, as the loop
        // would send it.
        step.add(core.handle(.message([[7], bytes]), at: time))
        step.add(core.handle(.message([host, bytes]), at: time))
        step.add(core.tick(at: time))
        _ = step.encodeAll()
    }

    /// A journal segment, read as recovery reads it: the bytes as they are when `framed` is false, else the bytes cut
    /// into records (each a length byte, then that many bytes) framed with the right lengths and checksums, so that
    /// what decodes them and the replay through the model are reached. `directory` is a scratch directory.
    public static func journal(_ bytes: [UInt8], framed: Bool, in directory: String) {
        let manager = FileManager.default
        try? manager.removeItem(atPath: directory)
        try? manager.createDirectory(atPath: directory + "/journal", withIntermediateDirectories: true)
        var segment = JournalFormat.magic
        if framed {
            var index = 0
            while index < bytes.count {
                let length = Int(bytes[index])
                let payload = Array(bytes[(index + 1)..<min(bytes.count, index + 1 + length)])
                JournalFormat.frame(payload, into: &segment)
                index += 1 + length
            }
        } else {
            segment += bytes
        }
        let path = directory + "/journal/" + JournalFormat.segmentName(0)
        guard manager.createFile(atPath: path, contents: Data(segment)) else { return }
        var config = RuntimeConfig(runDirectory: directory)
        config.journalPath = directory + "/journal"
        _ = try? Recovery.run(config: config, logger: quiet)
    }

    /// runtime.yaml and a topology, read from text.
    public static func configuration(_ text: String, scratch path: String) {
        _ = try? Topology.parse(text).requests()
        guard (try? text.write(toFile: path, atomically: false, encoding: .utf8)) != nil else { return }
        _ = try? RuntimeConfig.load(from: path, environment: ["CONTAINMENT_RUN_DIR": "/nonexistent"])
    }
}

extension SupervisorCore {
    /// The peer of host h0 in a ``quiet(config:clients:)`` core.
    static let quietHostPeer: [UInt8] = [0, 0, 0, 1]

    /// A core over an empty journal that logs nothing, on the system clock, with host h0 registered from
    /// ``quietHostPeer``: what the fuzzing entry points and `bench core` drive.
    static func quiet(config: RuntimeConfig, clients: ClientReplies) -> SupervisorCore {
        let time = SystemClock().time
        var core = SupervisorCore(recovery: Recovery(clients: clients), config: config, at: time)
        core.expect(hosts: ["h0"])
        let hello = HostOutbound.hello(requestID: 1, host: "h0", pid: 1, lastSeq: 0, kinds: [])
        _ = core.handle(.message([quietHostPeer, hello.bytes]), at: time)
        return core
    }
}
