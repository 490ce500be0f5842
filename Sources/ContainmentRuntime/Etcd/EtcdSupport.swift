import ContainmentConfig
import Foundation

/// What the etcd journal (`journal: etcd`) needs that `containment` does not link: etcd's gRPC client, with SwiftNIO
/// and BoringSSL under it. `containment-etcd` hands it in; in `containment` it is nil, and a command that needs it
/// says which binary to run instead.
package struct EtcdSupport: Sendable {
    /// A connection to etcd's v3 API.
    package var store: @Sendable (EtcdSettings) throws -> any EtcdStore
    /// Who leads a replicated runtime and who stands by, read from etcd (`status`).
    package var look: @Sendable (EtcdSettings, [String]) async -> ReplicationStatus?

    package init(
        store: @escaping @Sendable (EtcdSettings) throws -> any EtcdStore,
        look: @escaping @Sendable (EtcdSettings, [String]) async -> ReplicationStatus?
    ) {
        self.store = store
        self.look = look
    }

    /// The support this process runs with: set around the whole command by `containment-etcd`'s entry point.
    @TaskLocal package static var current: EtcdSupport?

    /// The support, or the error naming the binary that has it: `what` is the command or option that needs etcd.
    package static func required(by what: String) throws -> EtcdSupport {
        if let current { return current }
        throw EtcdClientMissing(what: what)
    }
}

/// A command of `containment` that needs etcd's client: run by `containment-etcd` instead (exit 1).
package struct EtcdClientMissing: Error, CustomStringConvertible {
    package var what: String

    package init(what: String) { self.what = what }

    /// `containment-etcd` beside this executable.
    package static var sibling: String {
        let own = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? "containment"
        return URL(fileURLWithPath: own).deletingLastPathComponent().appendingPathComponent("containment-etcd").path
    }

    package var description: String {
        let sibling = Self.sibling
        let found = FileManager.default.isExecutableFile(atPath: sibling)
        return "\(what) needs etcd's client (journal: etcd), which `containment` does not link, so that its build "
            + "compiles no gRPC. Run the same command with containment-etcd: "
            + (found
                ? sibling
                : "build it with `swift build --product containment-etcd` (or install it with "
                    + "`scripts/install.sh --etcd`)")
            + "."
    }
}
