import Foundation
import Testing

@testable import ContainmentRuntime

/// A replicated runtime (`journal: etcd`, docs/DURABILITY.md "Replicated") with real processes: three etcd members,
/// supervisors `a` and `b`, a host. The leader's `kill -9` is survived: the standby takes over with the tree as it
/// was, its host registers with it and a client of the dead one fails over to it; a supervisor that comes back stands
/// by and answers `notLeader`, naming the leader.
@Suite(.serialized) struct FailoverTests {
    @Test func theStandbyTakesOverAfterTheLeadersKillWithTheTreeUnchanged() async throws {
        try await ReplicatedRuntime.with { runtime in
            try await runtime.startSupervisor("a")
            #expect(try await Poll.until { runtime.leads("a") }, "a did not lead:\n\(runtime.log("a"))")
            try await runtime.startSupervisor("b")
            #expect(!runtime.leads("b"))
            _ = try runtime.start("host", "main")
            #expect(try await runtime.containment(via: "a", "wait", "--hosts", "main", "--timeout", "20").status == 0)
            for command in [["create", "root", "--kind", "content"], ["create", "child", "--kind", "content"]] {
                let created = try await runtime.containment(
                    via: "a",
                    "ctl",
                    command[0],
                    command[1],
                    command[2],
                    command[3]
                )
                #expect(created.status == 0, "\(created.stderr)")
            }
            #expect(try await runtime.containment(via: "a", "ctl", "add-child", "root", "child").status == 0)
            let before = try await runtime.containment(via: "a", "tree", "--json")
            #expect(before.status == 0)

            // The standby answers, but does not serve: a client that knows only it is told where the leader is.
            let refused = try await runtime.containment(via: "b-alone", "ctl", "create", "other", "--kind", "content")
            #expect(refused.status != 0)
            #expect(refused.stderr.contains("notLeader") && refused.stderr.contains("a leads at"), "\(refused.stderr)")

            runtime.kill("a", SIGKILL)
            let after = try await Poll.value(within: .seconds(20), every: .milliseconds(100)) {
                () -> RuntimeFixture.Output? in
                let tree = try await runtime.containment(via: "b", "tree", "--json")
                return tree.status == 0 ? tree : nil
            }
            #expect(runtime.leads("b"), "\(runtime.log("b"))")
            #expect(try Self.controllers(after?.stdout) == Self.controllers(before.stdout))
            #expect(try Self.controllers(after?.stdout).count == 2)

            // The host registers with the new leader, and a client that knew a first fails over to b: the command is
            // applied once.
            let waited = try await runtime.containment(via: "b", "wait", "--hosts", "main", "--timeout", "20")
            #expect(waited.status == 0, "\(waited.stderr)\n\(runtime.log("main"))")
            let created = try await runtime.containment(via: "a", "ctl", "create", "third", "--kind", "content")
            #expect(created.status == 0, "\(created.stderr)")
            let tree = try await runtime.containment(via: "b", "tree", "--json")
            #expect(try Self.controllers(tree.stdout).count == 3)

            // a, back, stands by behind b.
            try await runtime.startSupervisor("a")
            let standby = try await runtime.containment(via: "a-alone", "ctl", "create", "late", "--kind", "content")
            #expect(standby.stderr.contains("notLeader") && standby.stderr.contains("b leads at"), "\(standby.stderr)")
            #expect(!runtime.leads("a") || runtime.log("a").contains("no longer leads"))
        }
    }

    /// The controllers of `tree --json`, as JSON objects compared by their text.
    static func controllers(_ json: String?) throws -> [String] {
        let data = Data((json ?? "").utf8)
        let tree = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let controllers = try #require(tree["controllers"] as? [[String: Any]])
        return try controllers.map {
            String(decoding: try JSONSerialization.data(withJSONObject: $0, options: .sortedKeys), as: UTF8.self)
        }
    }
}
