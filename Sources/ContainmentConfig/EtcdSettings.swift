import Foundation

/// runtime.yaml's `etcd` section, used with `journal: etcd` (docs/DURABILITY.md, "Replicated"): the supervisor's
/// journal, checkpoints and leader election live in an etcd cluster, and several supervisors share one topology —
/// one leads, the others stand by.
public struct EtcdSettings: Sendable, Equatable {
    /// The cluster's members' client URLs (`http://HOST:PORT` or `https://…`): a request goes to the first that
    /// answers, and to the next when it does not.
    public var endpoints: [String]
    /// Every key this runtime writes begins with it (`/containment/default`): several runtimes share a cluster.
    public var prefix = "/containment/default"
    /// The leader's lease: a leader that cannot renew it within this long stops acknowledging, and a standby takes
    /// over once it has lapsed (etcd's shortest lease is 2 seconds at its default timings). It must outlast an etcd
    /// leader election plus a sixth of itself, so that a leader change in etcd costs no failover (docs/DURABILITY.md).
    public var leaseSeconds = 2
    /// How long one request to etcd may take before the member is taken as unreachable.
    public var requestTimeout: Duration = .seconds(2)
    /// A CA certificate (PEM) that the members' TLS certificates are checked against (`https://` endpoints).
    public var caFile: String?
    /// This client's certificate and key (PEM), when the members ask for one (etcd's `--client-cert-auth`).
    public var certFile: String?
    public var keyFile: String?
    /// etcd's own authentication: a user, and the file that holds its password (never the password itself).
    public var user: String?
    public var passwordFile: String?

    public init(endpoints: [String]) {
        self.endpoints = endpoints
    }

    /// The prefix without a trailing `/`.
    package var root: String { prefix.hasSuffix("/") ? String(prefix.dropLast()) : prefix }
}

/// Where the supervisor's journal lives (runtime.yaml `journal`): a directory on its disk (the default), or etcd.
public enum JournalStore: Sendable, Equatable {
    case directory
    case etcd(EtcdSettings)
}
