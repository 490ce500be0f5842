import Foundation
import Testing

/// The fuzz seed corpus (Fuzz/corpus), replayed through the same entry points as scripts/fuzz.sh's fuzzer, by the
/// ContainmentFuzz replayer built beside the tests: every input is handled, none crashes.
@Suite struct FuzzCorpusTests {
    @Test func theSeedCorpusReplaysCleanly() async throws {
        let replayer = URL(fileURLWithPath: RuntimeFixture.binary).deletingLastPathComponent()
            .appendingPathComponent("ContainmentFuzz").path
        let corpus = RuntimeFixture.repository.appendingPathComponent("Fuzz/corpus").path
        let directories = ["command", "journal", "config"].map { corpus + "/" + $0 }
        let count = try directories.reduce(0) { $0 + (try FileManager.default.contentsOfDirectory(atPath: $1).count) }
        #expect(count >= 11)
        let output = try await RuntimeFixture.run(replayer, directories)
        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.stdout == "replayed \(count) inputs\n")
    }
}
