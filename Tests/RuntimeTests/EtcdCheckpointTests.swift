import Foundation
import Testing

@testable import ContainmentConfig
@testable import ContainmentRuntime

/// Checkpoints of a replicated runtime (`journal: etcd`), with real processes: the leader writes them to etcd and
/// keeps `journalRetain` of them with the journal batches they need, so a standby that starts late, or falls behind
/// the retention, recovers from a checkpoint; a checkpoint that does not read back is passed over for the one before.
@Suite(.serialized) struct EtcdCheckpointTests {
    /// A checkpoint every 4 records, two kept.
    static let settings = "checkpointEvery: 4\njournalRetain: 2\n"

    @Test func aLateStandbyRecoversFromACheckpointAndPassesOverOneThatIsDamaged() async throws {
        try await ReplicatedRuntime.with(settings: Self.settings) { runtime in
            try await runtime.startSupervisor("a")
            #expect(try await Poll.until { runtime.leads("a") }, "a did not lead:\n\(runtime.log("a"))")
            _ = try runtime.start("host", "main")
            #expect(try await runtime.containment(via: "a", "wait", "--hosts", "main", "--timeout", "20").status == 0)
            try await Self.create(24, from: 0, via: "a", runtime)
            let before = try await runtime.containment(via: "a", "tree", "--json")
            #expect(try FailoverTests.controllers(before.stdout).count == 24)

            // Two checkpoints kept; no journal batch before the older one.
            let kept = try await Poll.value(within: .seconds(20), every: .milliseconds(100)) { () -> [Int]? in
                let (checkpoints, earlier) = try await Self.retention(runtime)
                return checkpoints.count == 2 && earlier == 0 ? checkpoints : nil
            }
            let retention = try await Self.retention(runtime)
            let checkpoints = try #require(kept, "\(retention)\n\(runtime.log("a"))")
            #expect(checkpoints[0] > 1)

            // The latest checkpoint's first part overwritten: it no longer reads back.
            let (keys, cluster) = (runtime.keys, runtime.cluster)
            try await runOnThread(named: "etcd-test") {
                let etcd = try cluster.client()
                defer { etcd.close() }
                let damaged = try etcd.txn(
                    [],
                    success: [.put(key: keys.checkpointPart(checkpoints[1], 0), value: [1, 2, 3], lease: 0)]
                )
                #expect(damaged.succeeded)
            }

            // b starts after the batches before the older checkpoint were removed: it recovers from that checkpoint
            // (passing over the damaged one) and the batches after it.
            try await runtime.startSupervisor("b")
            #expect(
                try await Poll.until { runtime.log("b").contains("supervisor standing by") },
                "\(runtime.log("b"))"
            )
            #expect(
                runtime.log("b").contains("does not read back; recovering from an older one"),
                "\(runtime.log("b"))"
            )
            #expect(runtime.log("b").contains("journal.checkpoint=\(checkpoints[0])"), "\(runtime.log("b"))")

            runtime.kill("a", SIGKILL)
            let after = try await Self.tree(via: "b", runtime)
            #expect(runtime.leads("b"), "\(runtime.log("b"))")
            #expect(try FailoverTests.controllers(after) == FailoverTests.controllers(before.stdout))
        }
    }

    /// A standby frozen while the leader checkpoints past the batches it had applied finds them removed, reloads from
    /// the latest checkpoint, and takes over with the tree unchanged.
    @Test func aStandbyLeftBehindByTheRetentionReloadsFromTheLatestCheckpoint() async throws {
        try await ReplicatedRuntime.with(settings: Self.settings) { runtime in
            try await runtime.startSupervisor("a")
            #expect(try await Poll.until { runtime.leads("a") }, "a did not lead:\n\(runtime.log("a"))")
            try await runtime.startSupervisor("b")
            #expect(try await Poll.until { runtime.log("b").contains("supervisor standing by") })
            _ = try runtime.start("host", "main")
            #expect(try await runtime.containment(via: "a", "wait", "--hosts", "main", "--timeout", "20").status == 0)
            try await Self.create(2, from: 0, via: "a", runtime)

            runtime.kill("b", SIGSTOP)
            try await Self.create(24, from: 2, via: "a", runtime)
            let before = try await runtime.containment(via: "a", "tree", "--json")
            #expect(try FailoverTests.controllers(before.stdout).count == 26)
            #expect(
                try await Poll.until(within: .seconds(20), every: .milliseconds(100)) {
                    let (checkpoints, earlier) = try await Self.retention(runtime)
                    return checkpoints.count == 2 && earlier == 0
                }
            )
            runtime.kill("b", SIGCONT)
            #expect(
                try await Poll.until(within: .seconds(20)) {
                    runtime.log("b").contains("standby: batches it had yet to apply were removed")
                },
                "\(runtime.log("b"))"
            )

            runtime.kill("a", SIGKILL)
            let after = try await Self.tree(via: "b", runtime)
            #expect(runtime.leads("b"), "\(runtime.log("b"))")
            #expect(try FailoverTests.controllers(after) == FailoverTests.controllers(before.stdout))
        }
    }

    /// Creates controllers `c<from>`… (`count` of them), each a command of its own through supervisor `via`.
    static func create(_ count: Int, from first: Int, via name: String, _ runtime: ReplicatedRuntime) async throws {
        for index in first..<(first + count) {
            let created = try await runtime.containment(via: name, "ctl", "create", "c\(index)", "--kind", "content")
            #expect(created.status == 0, "c\(index): \(created.stderr)")
        }
    }

    /// The checkpoints in etcd (by the batch each replays from), and how many journal batches come before the oldest.
    static func retention(_ runtime: ReplicatedRuntime) async throws -> (checkpoints: [Int], earlier: Int) {
        let (keys, cluster) = (runtime.keys, runtime.cluster)
        return try await runOnThread(named: "etcd-test") {
            let etcd = try cluster.client()
            defer { etcd.close() }
            let manifests = try etcd.range(keys.checkpointPrefix, end: EtcdKeys.end(of: keys.checkpointPrefix)).kvs
            let checkpoints = manifests.compactMap { EtcdKeys.number(of: $0.key, under: keys.checkpointPrefix) }
            let earlier = try checkpoints.first.map { try etcd.count(keys.journal(0), end: keys.journal($0)) } ?? 0
            return (checkpoints, earlier)
        }
    }

    /// `tree --json` through supervisor `via` once it answers (it takes over).
    static func tree(via name: String, _ runtime: ReplicatedRuntime) async throws -> String? {
        try await Poll.value(within: .seconds(20), every: .milliseconds(100)) { () -> String? in
            let tree = try await runtime.containment(via: name, "tree", "--json")
            return tree.status == 0 ? tree.stdout : nil
        }
    }
}
