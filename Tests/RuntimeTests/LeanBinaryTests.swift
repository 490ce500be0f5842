import Foundation
import Subprocess
import Testing

/// Issue 44: `containment` links no etcd client (gRPC, SwiftNIO, BoringSSL: `scripts/check-lean-products.sh` reads its
/// symbols), so a command of it that needs etcd exits 1 before it starts anything, naming `containment-etcd`, which
/// runs the same command.
@Suite struct LeanBinaryTests {
    static let replicated = RuntimeFixture.repository.appendingPathComponent("Config/runtime-replicated.yaml").path

    /// A scratch run directory, removed when `body` ends.
    static func inRunDirectory<Result>(_ body: (String) async throws -> Result) async throws -> Result {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("containment-lean-\(UUID().uuidString.prefix(8))").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        return try await body(directory)
    }

    @Test func aSupervisorJournalingToEtcdIsRefusedBeforeItStarts() async throws {
        try await Self.inRunDirectory { runDirectory in
            let output = try await RuntimeFixture.run(
                RuntimeFixture.binary,
                ["supervisor", "--name", "a", "--pid-file", runDirectory + "/supervisor-a.pid"],
                environment: ["CONTAINMENT_RUN_DIR": runDirectory, "CONTAINMENT_CONFIG": Self.replicated]
            )
            #expect(output.status == 1, "\(output.stderr)")
            #expect(
                output.stderr.contains(
                    "containment supervisor needs etcd's client (journal: etcd), which `containment` does not link"
                ),
                "\(output.stderr)"
            )
            // Built beside it by the test command's build: named by its path.
            #expect(output.stderr.contains(RuntimeFixture.etcdBinary), "\(output.stderr)")
            // Nothing started: no pid file, no socket.
            #expect(try FileManager.default.contentsOfDirectory(atPath: runDirectory).isEmpty)
        }
    }

    @Test func statusAndAReplicatedStressRunNameContainmentEtcd() async throws {
        try await Self.inRunDirectory { runDirectory in
            let environment: [Environment.Key: String?] = [
                "CONTAINMENT_RUN_DIR": runDirectory, "CONTAINMENT_CONFIG": Self.replicated,
            ]
            let status = try await RuntimeFixture.run(RuntimeFixture.binary, ["status"], environment: environment)
            #expect(status.status == 1, "\(status.stderr)")
            #expect(status.stderr.contains("containment status needs etcd's client"), "\(status.stderr)")
            let stress = try await RuntimeFixture.run(
                RuntimeFixture.binary,
                ["stress", "--kill-leader-every", "3", "--duration", "1", "--quiet"],
                environment: environment
            )
            #expect(stress.status == 1, "\(stress.stderr)")
            #expect(stress.stderr.contains("--kill-leader-every needs etcd's client"), "\(stress.stderr)")
        }
    }

    /// `containment-etcd` is the same command line, under its own name.
    @Test func containmentEtcdRunsTheSameCommandsUnderItsOwnName() async throws {
        let help = try await RuntimeFixture.run(RuntimeFixture.etcdBinary, ["--help"], environment: [:])
        #expect(help.status == 0, "\(help.stderr)")
        #expect(help.stdout.contains("USAGE: containment-etcd <subcommand>"), "\(help.stdout)")
        #expect(help.stdout.contains("supervisor"))
        let version = try await RuntimeFixture.run(RuntimeFixture.etcdBinary, ["--version"], environment: [:])
        #expect(version.stdout.hasPrefix("containment-etcd "), "\(version.stdout)")
    }
}
