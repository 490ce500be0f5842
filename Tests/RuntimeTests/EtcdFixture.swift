import Foundation
import ContainmentEtcd
import ContainmentConfig
import ContainmentRuntime
import Testing

/// A real etcd cluster for one test: `scripts/etcd.sh` starts its members (each a process on loopback ports no other
/// test was given) in a fresh directory — in memory, /dev/shm, so their syncs do not slow the tests beside them — and
/// stops them when the test ends, however it ends.
struct EtcdFixture: Sendable {
    let directory: String
    let clientPorts: [Int]
    let peerPorts: [Int]

    var endpoints: [String] { clientPorts.map { "http://127.0.0.1:\($0)" } }

    /// The runtime.yaml lines of `journal: etcd` on this cluster, under `prefix`.
    /// The lease is 3 s, not the 2 s default: under a whole test run's load a renewal may come late.
    func settings(prefix: String = "/containment/test", leaseSeconds: Int = 3) -> String {
        """
        journal: etcd
        etcd:
          endpoints: [\(endpoints.joined(separator: ", "))]
          prefix: \(prefix)
          leaseSeconds: \(leaseSeconds)

        """
    }

    /// A client, returned once its first request is answered. Its timeout is long: at the start of a whole test run,
    /// with every suite starting at once, the test process's task threads are so busy that a gRPC call (a task) has
    /// waited over 10 s to run — and a request timed out is sent again (see `EtcdStore`). The daemons call from
    /// threads of their own and do not wait so.
    func client(requestTimeout: Duration = .seconds(45)) throws -> GRPCEtcdStore {
        var settings = EtcdSettings(endpoints: endpoints)
        settings.requestTimeout = requestTimeout
        let etcd = try GRPCEtcdStore(settings: settings)
        let deadline = ContinuousClock.now + .seconds(120)
        var answered = (try? etcd.range("/")) != nil
        while !answered, ContinuousClock.now < deadline { answered = (try? etcd.range("/")) != nil }
        guard answered else { throw FixtureError("etcd at \(endpoints) did not answer in 120 s") }
        return etcd
    }

    /// The pid of member `number` (from 1), while it runs.
    func pid(ofMember number: Int) throws -> Int32 {
        let text = try String(contentsOfFile: "\(directory)/member\(number).pid", encoding: .utf8)
        return try #require(Int32(text.trimmingCharacters(in: .whitespacesAndNewlines)))
    }

    /// The number (from 1) of the member that leads the raft group now, as etcdctl's `endpoint status` reports it.
    func raftLeader() async throws -> Int {
        let status = try await RuntimeFixture.run(
            "/usr/bin/etcdctl",
            ["--endpoints", endpoints.joined(separator: ","), "endpoint", "status", "-w", "json"],
            environment: ["ETCDCTL_API": "3"]
        )
        let members = try #require(try JSONSerialization.jsonObject(with: Data(status.stdout.utf8)) as? [[String: Any]])
        for member in members {
            let header = (member["Status"] as? [String: Any])?["header"] as? [String: Any]
            let leader = (member["Status"] as? [String: Any])?["leader"] as? NSNumber
            if let id = header?["member_id"] as? NSNumber, id == leader, let endpoint = member["Endpoint"] as? String,
                let index = endpoints.firstIndex(of: endpoint)
            {
                return index + 1
            }
        }
        throw FixtureError("no member leads: \(status.stdout) \(status.stderr)")
    }

    /// Sends `signal` to member `number`.
    func signal(_ signal: Int32, member number: Int) throws {
        #expect(kill(try pid(ofMember: number), signal) == 0)
    }

    /// Starts the members that are not running (after a kill), as the cluster they were.
    func start() async throws {
        let started = try await RuntimeFixture.run(
            "/bin/bash",
            [
                RuntimeFixture.repository.appendingPathComponent("scripts/etcd.sh").path, "start", directory,
                clientPorts.map(String.init).joined(separator: ","), peerPorts.map(String.init).joined(separator: ","),
            ]
        )
        guard started.status == 0 else { throw FixtureError("scripts/etcd.sh start failed: \(started.stderr)") }
    }

    func stop() async throws {
        _ = try await RuntimeFixture.run(
            "/bin/bash",
            [RuntimeFixture.repository.appendingPathComponent("scripts/etcd.sh").path, "stop", directory]
        )
    }

    /// A cluster of `members` for the length of `body`, which runs on a thread of its own: the store's calls block,
    /// and a test's task must not (it would hold one of the few threads the tasks of every test share, and the store's
    /// own calls run as tasks).
    static func onThread(
        members: Int = 3,
        _ body: @escaping @Sendable (EtcdFixture) throws -> Void
    ) async throws {
        try await with(members: members) { cluster in
            try await runOnThread(named: "etcd-test") { try body(cluster) }
        }
    }

    /// A cluster of `members` for the length of `body`, removed after it.
    static func with<Result>(
        members: Int = 3,
        _ body: (EtcdFixture) async throws -> Result
    ) async throws -> Result {
        var clients: [Int] = []
        var peers: [Int] = []
        for _ in 0..<members {
            clients.append(try await MetricsTests.freePort())
            peers.append(try await MetricsTests.freePort())
        }
        // In memory (tmpfs) where there is one: the members' syncs stay off the disk the other tests share.
        let base = FileManager.default.fileExists(atPath: "/dev/shm") ? "/dev/shm" : NSTemporaryDirectory()
        let directory = URL(fileURLWithPath: base).appendingPathComponent("etcd-test-\(UUID().uuidString.prefix(8))")
            .path
        let cluster = EtcdFixture(directory: directory, clientPorts: clients, peerPorts: peers)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        do {
            try await cluster.start()
            let result = try await body(cluster)
            try await cluster.stop()
            return result
        } catch {
            try? await cluster.stop()
            throw error
        }
    }
}
