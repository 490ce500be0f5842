import ContainmentConfig
import Foundation

/// A standby's report in etcd (``EtcdKeys/standby(_:)``, tied to a lease of its own, so a standby gone takes its
/// report with it): who it is and the last journal batch it applied.
package struct StandbyRecord: Codable, Sendable, Equatable {
    package var name: String
    package var pid: Int32
    package var command: String
    package var applied: Int

    package init(name: String, pid: Int32, command: String, applied: Int) {
        self.name = name
        self.pid = pid
        self.command = command
        self.applied = applied
    }
}

/// Who leads a replicated runtime and how far each standby lags (`containment status`), read from etcd.
package struct ReplicationStatus: Sendable {
    package var leader: LeaderRecord?
    /// Each standby, with how many journal batches it has yet to apply.
    package var standbys: [(record: StandbyRecord, lag: Int)]
    /// The supervisors of runtime.yaml that neither lead nor report as standbys (starting up, stalled, or stopped).
    package var silent: [String] = []
    /// Why it may be out of date: read from one member's own state while etcd has no majority (nil: read through a
    /// quorum, current).
    package var stale: String?

    /// Who leads and who stands by, as etcd says; `supervisors`: runtime.yaml's, each accounted for.
    package static func read(
        from store: any EtcdStore,
        prefix: String,
        supervisors: [String] = []
    ) throws -> ReplicationStatus {
        let keys = EtcdKeys(prefix: prefix)
        let leader = try store.range(keys.leader).kvs.first.flatMap { LeaderRecord(bytes: $0.value) }
        var standbys: [(StandbyRecord, Int)] = []
        for entry in try store.range(keys.standbyPrefix, end: EtcdKeys.end(of: keys.standbyPrefix)).kvs {
            guard let record = try? JSONDecoder().decode(StandbyRecord.self, from: Data(entry.value)) else { continue }
            let lag = try store.count(keys.journal(record.applied + 1), end: EtcdKeys.end(of: keys.journalPrefix))
            standbys.append((record, lag))
        }
        var status = ReplicationStatus(leader: leader, standbys: standbys)
        let seen = Set([leader?.name].compactMap { $0 } + standbys.map(\.0.name))
        status.silent = supervisors.filter { !seen.contains($0) }
        return status
    }

    /// `status`'s lines.
    package var text: String {
        let leading =
            leader.map { "leader \($0.name)  pid \($0.pid)  \($0.command)" }
            ?? "leader none (a failover is under way, or etcd has no majority)"
        let lines =
            [leading]
            + standbys.map {
                "standby \($0.record.name)  pid \($0.record.pid)  applied batch \($0.record.applied)  lag \($0.lag) "
                    + ($0.lag == 1 ? "batch" : "batches")
            }
            + silent.map { "supervisor \($0)  not reporting (starting up, stalled, or not running)" }
        guard let stale else { return lines.joined(separator: "\n") }
        return (["etcd: \(stale); as a member last knew it (stale):"] + lines.map { "  " + $0 }).joined(separator: "\n")
    }

    /// `status --json`'s `replication`.
    package var json: [String: Any] {
        [
            "leader": leader.map { ["name": $0.name, "pid": $0.pid, "command": $0.command] as [String: Any] }
                ?? NSNull(),
            "standbys": standbys.map {
                ["name": $0.record.name, "pid": $0.record.pid, "applied": $0.record.applied, "lag": $0.lag]
                    as [String: Any]
            },
            "notReporting": silent,
            "stale": stale ?? NSNull(),
        ]
    }
    /// How long `status` waits for a supervisor's answer: briefly when etcd has no majority (none can lead); else as
    /// any client does (nil), since during a failover the new leader answers within about a lease.
    package var wait: Duration? { stale == nil ? nil : .seconds(1) }
}
