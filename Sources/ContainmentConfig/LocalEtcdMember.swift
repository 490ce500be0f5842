import Foundation

/// One member of an etcd cluster on this machine, on loopback: what `containment up` starts for a replicated runtime
/// whose endpoints are all local, and what `stress` and `bench replicated` start for theirs. Its peer port is its
/// client port plus one.
public struct LocalEtcdMember: Sendable, Equatable {
    /// `member1`, `member2`, … in the order of the endpoints.
    public let name: String
    public let clientPort: Int
    public var peerPort: Int { clientPort + 1 }

    public init(name: String, clientPort: Int) {
        self.name = name
        self.clientPort = clientPort
    }

    /// Members for these client ports, named in order.
    public static func cluster(clientPorts: [Int]) -> [LocalEtcdMember] {
        clientPorts.enumerated().map { LocalEtcdMember(name: "member\($0.offset + 1)", clientPort: $0.element) }
    }

    /// etcd's arguments for this member of `cluster`, its data in `dataDirectory`; `token` keeps two clusters on one
    /// machine from joining each other; `existing`: its data directory already holds a member (started again).
    public func arguments(
        dataDirectory: String,
        cluster: [LocalEtcdMember],
        token: String,
        existing: Bool = false
    ) -> [String] {
        [
            "--name", name, "--data-dir", dataDirectory,
            "--listen-client-urls", "http://127.0.0.1:\(clientPort)",
            "--advertise-client-urls", "http://127.0.0.1:\(clientPort)",
            "--listen-peer-urls", "http://127.0.0.1:\(peerPort)",
            "--initial-advertise-peer-urls", "http://127.0.0.1:\(peerPort)",
            "--initial-cluster", cluster.map { "\($0.name)=http://127.0.0.1:\($0.peerPort)" }.joined(separator: ","),
            "--initial-cluster-token", token, "--initial-cluster-state", existing ? "existing" : "new",
            "--max-request-bytes", "4194304",
            // Loopback members elect a new leader within about a second (etcd's defaults: 100 ms and 1 s).
            "--heartbeat-interval", "50", "--election-timeout", "500",
        ]
    }

    /// `etcd` on the PATH (or /usr/bin), when installed.
    public static var executable: String? { ExecutablePath.find("etcd", orIn: ["/usr/bin/etcd"]) }
}

extension EtcdSettings {
    /// The cluster to start on this machine when every endpoint is `http://` on loopback (127.0.0.1 or localhost)
    /// with a port; nil otherwise (a cluster run elsewhere, or with TLS).
    public var localMembers: [LocalEtcdMember]? {
        let ports = endpoints.compactMap { endpoint -> Int? in
            guard let url = URLComponents(string: endpoint), url.scheme == "http",
                ["127.0.0.1", "localhost"].contains(url.host ?? "")
            else { return nil }
            return url.port
        }
        guard !ports.isEmpty, ports.count == endpoints.count else { return nil }
        return LocalEtcdMember.cluster(clientPorts: ports)
    }
}
