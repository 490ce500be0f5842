import ContainmentBus
import ContainmentModel
import ContainmentRuntime
import Foundation
import Testing
import ZeroMQ

/// Bounded and honest under every peer (real daemons): a supervisor held up is no evidence against its hosts, an
/// unknown host does not register, a bad topology leaves nothing behind.
@Suite(.serialized) struct PeerBoundsTests {
    static let topology = """
        window: {name: main, width: 800, height: 600, root: box}
        controllers:
          - {id: box, kind: content, host: h0}
          - {id: late, kind: content, host: h1, parent: box}
        """

    static func supervisorPID(_ runtime: RuntimeFixture) throws -> Int32 {
        let text = try String(contentsOfFile: runtime.runDirectory + "/supervisor.pid", encoding: .utf8)
        return try #require(Int32(text.trimmingCharacters(in: .whitespacesAndNewlines)))
    }

    /// A supervisor stopped (SIGSTOP) for 5 s, 2.5 times its hosts' heartbeat timeout: when it runs again it reads the
    /// heartbeats queued meanwhile before it judges any host, so no host is declared down (nor up again).
    @Test func aSupervisorStoppedForFiveSecondsDeclaresNoHostDown() async throws {
        let runtime = try await RuntimeFixture(topology: Self.topology)
        let pid = try Self.supervisorPID(runtime)
        // The first event after the stall: with the fault, the hosts' `hostDown`s come before the marker's.
        let watch = try await runtime.startWatch(["--json", "--count", "1"])
        kill(pid, SIGSTOP)
        // Time under test: the stall itself.
        try await Task.sleep(for: .seconds(5))
        kill(pid, SIGCONT)
        // Time under test: a heartbeat timeout (2 s) and more of the supervisor awake, within which a host judged on
        // its silence during the stall would be declared down.
        try await Task.sleep(for: .seconds(3))
        #expect(try await runtime.containment("ctl", "set-alpha", "box", "0.5", "--quiet").status == 0)
        let first = try await watch.value.stdout
        #expect(first.contains("\"event\":\"alphaChanged\""), "\(first)")
        #expect(!runtime.logs().contains("host down"), "\(runtime.logs())")
        #expect(try await runtime.stop().status == 0)
    }
}
