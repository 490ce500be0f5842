import ContainmentConfig
import ContainmentRuntime
import Foundation
import GRPCCore
import GRPCNIOTransportHTTP2Posix
import GRPCProtobuf

/// Whether `text` is a dotted IPv4 address.
private func IPv4Address(_ text: String) -> [UInt8]? {
    let parts = text.split(separator: ".", omittingEmptySubsequences: false).map { UInt8($0) }
    guard parts.count == 4, !parts.contains(nil) else { return nil }
    return parts.compactMap { $0 }
}

/// One etcd member: its gRPC client (one HTTP/2 connection, made again when it drops) and the services on it.
final class EtcdMember: Sendable {
    let endpoint: String
    let client: GRPCClient<HTTP2ClientTransport.Posix>
    let kv: Etcdserverpb_KV.Client<HTTP2ClientTransport.Posix>
    let lease: Etcdserverpb_Lease.Client<HTTP2ClientTransport.Posix>
    let watch: Etcdserverpb_Watch.Client<HTTP2ClientTransport.Posix>
    let auth: Etcdserverpb_Auth.Client<HTTP2ClientTransport.Posix>
    private let connections: Task<Void, Never>

    /// `endpoint`: `http://HOST:PORT` (plaintext) or `https://HOST:PORT` (TLS: checked against `caFile`, or the
    /// system's roots; with `certFile` and `keyFile`, the member sees this client's certificate too).
    init(endpoint: String, settings: EtcdSettings) throws(EtcdError) {
        self.endpoint = endpoint
        guard let url = URLComponents(string: endpoint), let host = url.host, let port = url.port,
            url.scheme == "http" || url.scheme == "https"
        else {
            throw EtcdError(kind: .malformed, description: "\(endpoint) is not an etcd endpoint (http://HOST:PORT)")
        }
        let security: HTTP2ClientTransport.Posix.TransportSecurity
        if url.scheme == "http" {
            security = .plaintext
        } else if let certFile = settings.certFile, let keyFile = settings.keyFile {
            security = .mTLS(
                certificateChain: [.file(path: certFile, format: .pem)],
                privateKey: .file(path: keyFile, format: .pem)
            ) { config in
                if let ca = settings.caFile { config.trustRoots = .certificates([.file(path: ca, format: .pem)]) }
            }
        } else {
            security = .tls { config in
                if let ca = settings.caFile { config.trustRoots = .certificates([.file(path: ca, format: .pem)]) }
            }
        }
        let transport: HTTP2ClientTransport.Posix
        do {
            // An address is used as it is: no resolver in between.
            let target: any ResolvableTarget =
                IPv4Address(host) != nil
                ? .ipv4(address: host, port: port)
                : host.contains(":") ? .ipv6(address: host, port: port) : .dns(host: host, port: port)
            transport = try HTTP2ClientTransport.Posix(target: target, transportSecurity: security)
        } catch {
            throw EtcdError(kind: .malformed, description: "\(endpoint): \(error)")
        }
        let client = GRPCClient(transport: transport)
        self.client = client
        kv = Etcdserverpb_KV.Client(wrapping: client)
        lease = Etcdserverpb_Lease.Client(wrapping: client)
        watch = Etcdserverpb_Watch.Client(wrapping: client)
        auth = Etcdserverpb_Auth.Client(wrapping: client)
        connections = Task { try? await client.runConnections() }
    }

    func close() {
        client.beginGracefulShutdown()
    }
}
