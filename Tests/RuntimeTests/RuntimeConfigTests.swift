import ContainmentRuntime
import Foundation
import Testing

/// `Config/runtime.yaml`: every key read, every value out of range refused with the key named.
@Suite struct RuntimeConfigTests {
    static func load(_ yaml: String) throws -> RuntimeConfig {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent(
            "runtime-\(UUID().uuidString.prefix(8)).yaml"
        ).path
        try yaml.write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        return try RuntimeConfig.load(from: path, environment: ["CONTAINMENT_RUN_DIR": "/tmp/run-config-test"])
    }

    @Test func theDurabilityKeysAreRead() throws {
        let config = try Self.load(
            "journal: \"{run}/j\"\njournalSync: interval\njournalSyncIntervalMs: 20\njournalSegmentBytes: 8192\n"
                + "checkpointEvery: 0\njournalRetain: 5\ndedupWindow: 3\ndedupClients: 9\n"
        )
        #expect(config.journalPath == "/tmp/run-config-test/j")
        #expect(config.journalSync == .interval && config.journalSyncInterval == .milliseconds(20))
        #expect(config.journalSegmentBytes == 8192 && config.checkpointEvery == 0 && config.journalRetain == 5)
        #expect(config.dedupWindow == 3 && config.dedupClients == 9)
    }

    @Test(arguments: [
        ("heartbeatIntervalMs: 0", "heartbeatIntervalMs must be 1 or more, not 0."),
        ("requestTimeoutMs: -5", "requestTimeoutMs must be 1 or more, not -5."),
        ("checkpointEvery: -1", "checkpointEvery must be 0 (never) or more, not -1."),
        ("journalSegmentBytes: 100", "journalSegmentBytes must be 4096 or more, not 100."),
        ("journalSync: always", "journalSync must be batch, interval or none, not always."),
    ])
    func aValueOutOfRangeIsRefusedNamingItsKey(yaml: String, message: String) {
        #expect {
            try Self.load(yaml + "\n")
        } throws: { error in
            "\(error)".hasSuffix(message)
        }
    }
}
