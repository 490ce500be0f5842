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

    /// Without CURVE, a peer that says `Hello` under made-up names registers none of them by default: each is refused
    /// `unauthorized`, nothing is journaled or published, the tree's hosts stay the topology's; and a create without
    /// `--host` goes only to a host that is up (h1, killed and not restarted, gets none).
    @Test func madeUpHostsAreRefusedAndCreatesGoOnlyToHostsThatAreUp() async throws {
        let runtime = try await RuntimeFixture(
            topology: """
                hosts: [h0, {name: h1, restart: temporary}]
                controllers:
                  - {id: box, kind: content, host: h0}
                  - {id: late, kind: content, host: h1}
                """
        )
        let before = try runtime.snapshot()
        let (context, dealer) = try runtime.rawDealer()
        for index in 0..<200 {
            let answer = try #require(try dealer.exchange(.hello("rogue-\(index)", requestID: UInt64(index + 1))))
            #expect(answer.error.code == "unauthorized", "\(answer)")
        }
        dealer.close()
        context.terminate()
        let after = try runtime.snapshot()
        #expect(after.seq == before.seq, "no host event was published or journaled")
        #expect(Set(after.hosts.map(\.name)) == ["h0", "h1"])
        #expect(try await runtime.containment("ctl", "create", "stray", "--host", "rogue-1").status != 0)

        // h1 is killed and, temporary, not started again: what is created without a host goes to h0.
        let h1 = try #require(
            Int32(
                try String(contentsOfFile: runtime.runDirectory + "/host-h1.pid", encoding: .utf8)
                    .trimmingCharacters(in: .whitespacesAndNewlines)
            )
        )
        kill(h1, SIGKILL)
        for _ in 0..<200 where try runtime.snapshot().hosts.first(where: { $0.name == "h1" })?.up != false {
            try await Task.sleep(for: .milliseconds(25))
        }
        for id in ["c1", "c2", "c3"] {
            #expect(try await runtime.containment("ctl", "create", id, "--quiet").status == 0)
        }
        let placed = try runtime.snapshot()
        let hostOf = Dictionary(uniqueKeysWithValues: placed.controllers.map { ($0.id, $0.host) })
        #expect(["c1", "c2", "c3"].map { hostOf[$0] } == ["h0", "h0", "h0"], "\(hostOf)")
        // (down.sh says h1's pid file was stale: it was killed and, temporary, left down.)
        _ = try await runtime.stop()
    }
}
