import Foundation
import ContainmentEtcd
import ContainmentConfig
import ContainmentRuntime
import Testing

/// The etcd client against a real cluster (one member; three for a member killed under it): keys, transactions whose
/// comparisons fail, leases that lapse, watches.
@Suite(.serialized) struct EtcdClientTests {
    @Test func putsRangesAndDeletesKeys() async throws {
        try await EtcdFixture.onThread(members: 1) { cluster in
            let etcd = try cluster.client()
            let first = try etcd.put("/t/a", Array("one".utf8))
            let second = try etcd.put("/t/b", [0, 255, 7])
            #expect(second > first)
            let read = try etcd.range("/t/", end: "/t0")
            #expect(read.kvs.map(\.key) == ["/t/a", "/t/b"])
            #expect(read.kvs.map(\.value) == [Array("one".utf8), [0, 255, 7]])
            #expect(read.revision == second)
            let limited = try etcd.range("/t/", end: "/t0", limit: 1)
            #expect(limited.kvs.map(\.key) == ["/t/a"] && limited.more)
            try etcd.delete("/t/", end: "/t0")
            #expect(try etcd.range("/t/", end: "/t0").kvs.isEmpty)
            #expect(try etcd.range("/t/a").kvs.isEmpty)
        }
    }

    @Test func aTransactionRunsItsSuccessOnlyWhenItsComparisonsHold() async throws {
        try await EtcdFixture.onThread(members: 1) { cluster in
            let etcd = try cluster.client()
            // Created only if absent: the first wins, the second reads who did.
            let won = try etcd.txn(
                [EtcdCompare(key: "/t/leader", target: .createRevision(0))],
                success: [.put(key: "/t/leader", value: Array("a".utf8), lease: 0)],
                failure: [.range(key: "/t/leader")]
            )
            #expect(won.succeeded && won.read.isEmpty)
            let lost = try etcd.txn(
                [EtcdCompare(key: "/t/leader", target: .createRevision(0))],
                success: [.put(key: "/t/leader", value: Array("b".utf8), lease: 0)],
                failure: [.range(key: "/t/leader")]
            )
            #expect(!lost.succeeded)
            #expect(lost.read.map(\.value) == [Array("a".utf8)])
            #expect(lost.read.first?.createRevision == won.revision)
            // Fenced on the creation's revision: a stale one writes nothing.
            let stale = try etcd.txn(
                [EtcdCompare(key: "/t/leader", target: .createRevision(won.revision - 1))],
                success: [.put(key: "/t/journal", value: [1], lease: 0)]
            )
            #expect(!stale.succeeded)
            #expect(try etcd.range("/t/journal").kvs.isEmpty)
        }
    }

    @Test func aLeaseKeptAliveHoldsItsKeyAndOneLeftLapsesWithIt() async throws {
        try await EtcdFixture.onThread(members: 1) { cluster in
            let etcd = try cluster.client()
            let lease = try etcd.grantLease(seconds: 2)
            #expect(lease.seconds >= 2)
            try etcd.put("/t/held", [1], lease: lease.id)
            #expect(try etcd.range("/t/held").kvs.first?.lease == lease.id)
            #expect(try etcd.keepAlive(lease.id) >= 2)
            try etcd.revoke(lease.id)
            #expect(try etcd.range("/t/held").kvs.isEmpty)
            #expect(try etcd.keepAlive(lease.id) == 0)
            // A request etcd refuses names its code: attaching a key to a lease that is gone.
            #expect(throws: EtcdError.self) { try etcd.put("/t/orphan", [1], lease: lease.id) }
        }
    }

    @Test func aWatchSeesWritesAndDeletesFromItsRevisionOn() async throws {
        try await EtcdFixture.onThread(members: 1) { cluster in
            let etcd = try cluster.client()
            let before = try etcd.put("/t/w/1", [1])
            try etcd.put("/t/other", [9])
            let watch = try etcd.watch("/t/w/", end: "/t/w0", from: before)
            defer { watch.cancel() }
            try etcd.put("/t/w/2", [2])
            try etcd.delete("/t/w/1")
            var seen: [EtcdChange] = []
            let deadline = ContinuousClock.now + .seconds(10)
            while seen.count < 3, ContinuousClock.now < deadline { seen += try watch.next(timeout: .milliseconds(200)) }
            #expect(seen.map { $0.put?.key ?? "-" + ($0.deleted ?? "") } == ["/t/w/1", "/t/w/2", "-/t/w/1"])
            #expect(seen.first?.revision == before)
            #expect(try watch.next(timeout: .milliseconds(100)).isEmpty)
        }
    }

    @Test func aRequestGoesOnToAnotherMemberWhenOneIsKilled() async throws {
        try await EtcdFixture.onThread(members: 3) { cluster in
            let etcd = try cluster.client(requestTimeout: .seconds(1))
            try etcd.put("/t/before", [1])
            try cluster.signal(SIGKILL, member: 1)
            // Member 1 (the first endpoint) is gone; when it led the cluster, the others elect a leader first (about a
            // second), and a request until then is unreachable on every member.
            var attempts = 0
            var written: Int64?
            let deadline = ContinuousClock.now + .seconds(60)
            while written == nil, ContinuousClock.now < deadline {
                attempts += 1
                written = try? etcd.put("/t/after", [2])
            }
            #expect(written != nil, "no member took the write in 60 s (\(attempts) attempts)")
            #expect(try etcd.range("/t/", end: "/t0").kvs.map(\.key) == ["/t/after", "/t/before"])
        }
    }

    @Test func noMemberAnsweringIsUnreachable() async throws {
        var settings = EtcdSettings(endpoints: ["http://127.0.0.1:1"])
        settings.requestTimeout = .milliseconds(500)
        let settingsGiven = settings
        let error = try await runOnThread(named: "etcd-test") { () -> EtcdError? in
            do {
                _ = try GRPCEtcdStore(settings: settingsGiven).range("/t/a")
                return nil
            } catch let error as EtcdError {
                return error
            }
        }
        #expect(error?.kind == .unreachable)
    }
}
