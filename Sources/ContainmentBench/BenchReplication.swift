import ContainmentBus
import ContainmentLoad
import ContainmentModel
import ContainmentConfig
import ContainmentRuntime
import Foundation

/// What the replicated journal costs, and how long a failover takes (docs/BENCH.md, "The replicated journal"): round
/// trips and pipelined commands through a supervisor whose journal is the local file, then through the leader of a
/// replicated runtime (`journal: etcd`: three etcd members on this machine, supervisors `a` and `b`), measured alike;
/// then `failovers` kills of the leader.
struct ReplicationFigures: Codable, Sendable {
    /// One journal's figures: `file` (`journalSync: batch`, the default) or `etcd`.
    struct Journal: Codable, Sendable {
        var journal: String
        var roundTrip: Latency
        var pipelinedPerSecond: Double
    }

    /// From the leader's SIGKILL to the first command the new leader accepted, sent by a client that knew the old
    /// leader and resends every `resendMs` without an answer (the command line's client resends every 1,000 ms).
    struct Failover: Codable, Sendable {
        var kills: Int
        var resendMs: Int
        /// Each failover's time, in ms, in the order of the kills.
        var milliseconds: [Double]
        var p50: Double
        var p90: Double
        var max: Double
    }

    var journals: [Journal]
    var failover: Failover
}

extension BenchRunner {
    /// The local journal's figures, the replicated journal's, then the failovers (on the same replicated runtime).
    func replication(store: @escaping (EtcdSettings) throws -> any EtcdStore) throws -> ReplicationFigures {
        progress("the local journal: round trips and pipelined requests")
        let file: (roundTrip: Latency, pipelinedPerSecond: Double)
        do {
            let local = try LocalRuntime(hosts: 1, settings: Self.benchSettings)
            defer { local.stop() }
            file = try journalFigures(endpoint: local.config.commandEndpoint)
        }

        progress("three etcd members, supervisors a and b (journal: etcd): round trips and pipelined requests")
        let replicated = try LocalRuntime(hosts: 1, settings: Self.benchSettings, replicated: store)
        defer { replicated.stop() }
        guard let leader = try replicated.leader() else { throw LoadError("no supervisor leads") }
        let etcd = try journalFigures(endpoint: try replicated.config.selecting(supervisor: leader).commandEndpoint)
        let failover = try failovers(replicated)
        return ReplicationFigures(
            journals: [
                .init(journal: "file", roundTrip: file.roundTrip, pipelinedPerSecond: file.pipelinedPerSecond),
                .init(journal: "etcd", roundTrip: etcd.roundTrip, pipelinedPerSecond: etcd.pipelinedPerSecond),
            ],
            failover: failover
        )
    }

    /// A bench runtime's settings: requests may wait long under the pipelined load.
    static let benchSettings = "requestTimeoutMs: 30000\n"

    /// A quarter of the round trips and an eighth of the pipelined requests of the main figures, through the
    /// supervisor at `endpoint`.
    func journalFigures(endpoint: String) throws -> (roundTrip: Latency, pipelinedPerSecond: Double) {
        try prepareClients(endpoint: endpoint)
        let trips = try RoundTrips(context: context, endpoint: endpoint)
        let count = max(100, settings.roundTrips / 4)
        try trips.run(count / 10, record: false)
        try trips.run(count, record: true)
        let pipelined = try Pipeline(endpoint: endpoint, clients: settings.clients, window: settings.window).run(
            context: context,
            .requests(max(1, settings.requests / 8), warmup: settings.requests / 80),
            request: BenchMessages.request,
            accepted: BenchMessages.isAccepted
        )
        return (Latency(trips.histogram), pipelined.perSecond)
    }

    /// `settings.failovers` times: once the standby has caught up and a client has a command accepted by the leader,
    /// the leader is killed (SIGKILL; it is started again, and stands by) and the client's next command is timed
    /// until the new leader accepts it.
    private func failovers(_ runtime: LocalRuntime) throws -> ReplicationFigures.Failover {
        let resend = 100
        let client = try CommandClient(
            context: context,
            endpoints: runtime.config.commandEndpoints,
            timeout: .seconds(30),
            resendAfter: .milliseconds(resend)
        )
        var times: [Double] = []
        for kill in 1...settings.failovers {
            try waitForStandby(runtime)
            try accepted(client, create: "before-\(kill)")
            let start = ContinuousClock.now
            guard try runtime.killLeader() else { throw LoadError("no supervisor leads before kill \(kill)") }
            try accepted(client, create: "after-\(kill)")
            let elapsed = ContinuousClock.now - start
            times.append(Double(elapsed.nanoseconds) / 1_000_000)
            progress(String(format: "failover %d: the first command accepted after %.0f ms", kill, times.last ?? 0))
        }
        let sorted = times.sorted()
        func percentile(_ fraction: Double) -> Double {
            sorted[min(sorted.count - 1, max(0, Int((Double(sorted.count) * fraction).rounded(.up)) - 1))]
        }
        return .init(
            kills: times.count,
            resendMs: resend,
            milliseconds: times,
            p50: percentile(0.5),
            p90: percentile(0.9),
            max: sorted.last ?? 0
        )
    }

    /// Sends the creation of controller `name` until it is accepted: while no supervisor leads, or the new leader's
    /// hosts register again, it may be refused or time out (each is sent again after 10 ms, under a fresh request
    /// id). `duplicateID`: an earlier try was accepted, its answer lost.
    private func accepted(_ client: CommandClient, create name: String) throws {
        let id = ControllerID(name)
        let deadline = ContinuousClock.now + .seconds(60)
        while true {
            do {
                _ = try client.submit([.system(.create(id, kind: .content))], hosts: [id: "h0"])
                return
            } catch let error where error.error.code == .duplicateID {
                return
            } catch {
                guard ContinuousClock.now < deadline else { throw LoadError("\(name) was not accepted: \(error)") }
                Thread.sleep(forTimeInterval: 0.01)
            }
        }
    }

    /// Returns once one supervisor leads and the other stands by with nothing left to apply.
    private func waitForStandby(_ runtime: LocalRuntime) throws {
        let deadline = ContinuousClock.now + .seconds(60)
        while ContinuousClock.now < deadline {
            if let status = try? runtime.replication(), status.leader != nil, status.standbys.count == 1,
                status.standbys[0].lag == 0
            {
                return
            }
            Thread.sleep(forTimeInterval: 0.02)
        }
        throw LoadError("no supervisor stood by, caught up, within 60 s")
    }
}
