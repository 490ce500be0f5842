import Foundation
import ZeroMQ

/// runtime.yaml's `curve` section (docs/SECURITY.md): where the key pairs are, and which public keys the supervisor
/// admits with which role. A key pair `P` is two files: `P.public` and `P.secret` (mode 0600), each a 40-character Z85
/// key (`containment keygen P`). `{run}` is already replaced; `{host}` stands for a host's name.
public struct CurveSettings: Sendable, Equatable {
    /// The supervisor's key pair: every peer reads its public key, only the supervisor its secret one.
    public var server: String
    /// A client's key pair (ctl, tree, watch, stress …).
    public var client: String
    /// A host's key pair, `{host}` its name.
    public var host: String
    /// The public keys admitted: a Z85 key or a `.public` file, each with a role — `operator`, `observer` or
    /// `host:NAME` — where `{host}` in both is each host of the topology in turn.
    public var allow: [(key: String, role: String)]

    public static func == (lhs: CurveSettings, rhs: CurveSettings) -> Bool {
        lhs.server == rhs.server && lhs.client == rhs.client && lhs.host == rhs.host
            && lhs.allow.map { "\($0.key) \($0.role)" } == rhs.allow.map { "\($0.key) \($0.role)" }
    }

    /// A peer's role, as the ZAP handler names it.
    public enum Role: Equatable, Sendable {
        case `operator`
        case observer
        case host(String)

        public init?(_ text: String) {
            switch text {
            case "operator": self = .operator
            case "observer": self = .observer
            default:
                guard text.hasPrefix("host:"), text.count > 5 else { return nil }
                self = .host(String(text.dropFirst(5)))
            }
        }

        public var name: String {
            switch self {
            case .operator: "operator"
            case .observer: "observer"
            case .host(let name): "host:\(name)"
            }
        }
    }

    /// The supervisor's secret key.
    public func serverSecret() throws -> CurveKey { try Self.key(server + ".secret") }

    /// What a client (`host` nil) or a host connects with.
    public func clientKeys(host name: String? = nil) throws -> CurveClientKeys {
        let pair = name.map { host.replacingOccurrences(of: "{host}", with: $0) } ?? client
        return CurveClientKeys(
            server: try Self.key(server + ".public"),
            publicKey: try Self.key(pair + ".public"),
            secretKey: try Self.key(pair + ".secret")
        )
    }

    /// The allow-list's entries for a topology of `hosts`: an entry naming `{host}` stands for each.
    package func allowEntries(hosts: [String]) -> [(key: String, role: String)] {
        allow.flatMap { entry in
            let names = entry.key.contains("{host}") || entry.role.contains("{host}") ? hosts : [""]
            return names.map { name in
                (
                    entry.key.replacingOccurrences(of: "{host}", with: name),
                    entry.role.replacingOccurrences(of: "{host}", with: name)
                )
            }
        }
    }

    /// The keys admitted, each with its role, for a topology of `hosts`.
    public func allowList(hosts: [String]) throws -> [CurveKey: Role] {
        var admitted: [CurveKey: Role] = [:]
        for entry in allowEntries(hosts: hosts) {
            guard let role = Role(entry.role) else {
                throw ConfigError("curve.allow: \(entry.role) is not a role (operator, observer or host:NAME).")
            }
            admitted[try Self.key(entry.key)] = role
        }
        return admitted
    }

    /// Every key pair this section names for a topology of `hosts` (`containment keygen --topology`): the server's,
    /// the client's, each host's, and each admitted `.public` file's.
    public func keyPairs(hosts: [String]) -> [String] {
        [server, client] + hosts.map { host.replacingOccurrences(of: "{host}", with: $0) }
            + allowEntries(hosts: hosts).map(\.key).filter { $0.hasSuffix(".public") }.map { String($0.dropLast(7)) }
    }

    /// A key given inline (40 Z85 characters) or read from a file holding one.
    package static func key(_ source: String) throws -> CurveKey {
        let text: String
        if source.count == CurveKey.z85Count, !source.contains("/"), let key = try? CurveKey(z85: source) {
            return key
        }
        do {
            text = try String(contentsOfFile: source, encoding: .utf8)
        } catch {
            throw ConfigError(
                "Cannot read the CURVE key \(source): \(error.localizedDescription) (containment keygen)."
            )
        }
        do {
            return try CurveKey(z85: text.trimmingCharacters(in: .whitespacesAndNewlines))
        } catch {
            throw ConfigError("\(source) does not hold a CURVE key (40 Z85 characters).")
        }
    }

    /// Writes a new key pair `prefix.public` and `prefix.secret` (0600); `false` when it exists and `replace` is not
    /// set.
    @discardableResult
    public static func generate(_ prefix: String, replace: Bool = false) throws -> Bool {
        let manager = FileManager.default
        if !replace, manager.fileExists(atPath: prefix + ".public"), manager.fileExists(atPath: prefix + ".secret") {
            return false
        }
        let pair = try Curve.keyPair()
        let directory = (prefix as NSString).deletingLastPathComponent
        if !directory.isEmpty {
            try manager.createDirectory(
                atPath: directory,
                withIntermediateDirectories: true,
                attributes: [.posixPermissions: 0o700]
            )
        }
        // The secret first, created owner-only.
        guard
            manager.createFile(
                atPath: prefix + ".secret",
                contents: Data((pair.secretKey + "\n").utf8),
                attributes: [.posixPermissions: 0o600]
            )
        else { throw ConfigError("Cannot write \(prefix).secret.") }
        chmod(prefix + ".secret", 0o600)
        try (pair.publicKey + "\n").write(toFile: prefix + ".public", atomically: true, encoding: .utf8)
        return true
    }
}

extension RuntimeConfig {
    /// The CURVE keys a client (`host` nil) or a host connects with; `nil` without `curve`.
    public func clientKeys(host: String? = nil) throws -> CurveClientKeys? {
        try curve?.clientKeys(host: host)
    }
}
