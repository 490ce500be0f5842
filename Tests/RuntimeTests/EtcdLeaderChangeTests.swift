import Foundation
import Testing

@testable import ContainmentConfig
@testable import ContainmentRuntime

/// Issue 42: etcd electing a new raft leader — its leader member killed, a majority kept — is ridden out by the
/// supervisor that leads: its lease, renewed every sixth of it, outlasts the election (etcd extends every lease when
/// a new leader takes office), and its journal writes wait for the election instead of failing. No failover.
@Suite(.serialized) struct EtcdLeaderChangeTests {
    /// (One kill: starting the member again under a whole test run's load can take longer than etcd.sh waits.)
    @Test func killingEtcdsLeaderMemberCostsNoFailover() async throws {
        // A 4 s lease: under a whole test run's load an election took over 1.7 s, past what a 2 s lease renewed every
        // sixth of it covers (seen in the fresh-clone CI). The 2 s default's before and after, unloaded, is measured
        // by scripts/measure-etcd-leader-change.sh (5 of 5 kills cost a failover before, 0 of 10 now).
        try await ReplicatedRuntime.with(leaseSeconds: 4) { runtime in
            try await runtime.startLeaderStandbyAndHost()
            #expect(try await runtime.containment(via: "a", "ctl", "create", "before", "--kind", "content").status == 0)

            let member = try await runtime.cluster.raftLeader()
            try runtime.cluster.signal(SIGKILL, member: member)
            // Answered once etcd has a leader again (the client waits and resends meanwhile), by the same leader.
            let created = try await runtime.containment(via: "a", "ctl", "create", "after", "--kind", "content")
            #expect(created.status == 0, "\(created.stderr)")
            // Time under test: a lease that did not outlast the election lapses within one lease of the kill.
            try await Task.sleep(for: .seconds(4))
            let log = runtime.log("a")
            #expect(!log.contains("no longer leads") && !log.contains("lease lapsed"), "\(log)")
            #expect(log.components(separatedBy: "supervisor leads").count == 2, "a led once, from the start")
            #expect(!runtime.log("b").contains("supervisor leads"), "\(runtime.log("b"))")
            let tree = try await runtime.containment(via: "a", "tree", "--json")
            #expect(tree.stdout.contains("\"after\"") && tree.stdout.contains("\"before\""), "\(tree.stdout)")
        }
    }
}
