import ContainmentConfig
import ContainmentRuntime
import Foundation

extension ReplicationStatus {
    /// Who leads and who stands by, through an etcd quorum; without one, as a member last knew it (marked stale);
    /// nil when no member answers at all (said on standard error). Each request waits 1 s at most.
    package static func look(_ settings: EtcdSettings, supervisors: [String]) async -> ReplicationStatus? {
        let quick = {
            var quick = settings
            quick.requestTimeout = .seconds(1)
            return quick
        }()
        let prefix = settings.prefix
        let current = try? await runOnThread(named: "status") { () throws -> ReplicationStatus in
            let store = try GRPCEtcdStore(settings: quick)
            defer { store.close() }
            return try ReplicationStatus.read(from: store, prefix: prefix, supervisors: supervisors)
        }
        if let current { return current }
        let known = try? await runOnThread(named: "status") { () throws -> ReplicationStatus in
            let store = try GRPCEtcdStore(settings: quick, readsLocally: true)
            defer { store.close() }
            var known = try ReplicationStatus.read(from: store, prefix: prefix, supervisors: supervisors)
            known.stale = "no majority of its \(quick.endpoints.count) members answers: no supervisor can lead"
            return known
        }
        if known == nil {
            FileHandle.standardError.write(
                Data("etcd: none of its \(settings.endpoints.count) members answered within 1 s\n".utf8)
            )
        }
        return known
    }
}
