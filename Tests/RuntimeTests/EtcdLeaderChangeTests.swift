import Foundation
import Testing

@testable import ContainmentRuntime

/// Issue 42: etcd electing a new raft leader — its leader member killed, a majority kept — is ridden out by the
/// supervisor that leads: its lease, renewed every sixth of it, outlasts the election (etcd extends every lease when
/// a new leader takes office), and its journal writes wait for the election instead of failing. No failover.
@Suite(.serialized) struct EtcdLeaderChangeTests {
    /// (One kill: starting the member again under a whole test run's load can take longer than etcd.sh waits.)
    @Test func killingEtcdsLeaderMemberCostsNoFailover() async throws {
        // The default lease (2 s), as runtime-replicated.yaml has it: the one an election outlasted before.
        try await ReplicatedRuntime.with(leaseSeconds: 2) { runtime in
            try await runtime.startLeaderStandbyAndHost()
            #expect(try await runtime.containment(via: "a", "ctl", "create", "before", "--kind", "content").status == 0)

            let member = try await runtime.cluster.raftLeader()
            try runtime.cluster.signal(SIGKILL, member: member)
            // Answered once etcd has a leader again (the client waits and resends meanwhile), by the same leader.
            let created = try await runtime.containment(via: "a", "ctl", "create", "after", "--kind", "content")
            #expect(created.status == 0, "\(created.stderr)")
            // Time under test: a lease that did not outlast the election lapses within one lease of the kill.
            try await Task.sleep(for: .seconds(3))
            let log = runtime.log("a")
            #expect(!log.contains("no longer leads") && !log.contains("lease lapsed"), "\(log)")
            #expect(log.components(separatedBy: "supervisor leads").count == 2, "a led once, from the start")
            #expect(!runtime.log("b").contains("supervisor leads"), "\(runtime.log("b"))")
            let tree = try await runtime.containment(via: "a", "tree", "--json")
            #expect(tree.stdout.contains("\"after\"") && tree.stdout.contains("\"before\""), "\(tree.stdout)")
        }
    }
}
