import Foundation

/// One supervisor of a replicated runtime (runtime.yaml `supervisors`): its name and its own endpoints.
public struct SupervisorEntry: Sendable, Equatable {
    public var name: String
    public var commandEndpoint: String
    public var eventEndpoint: String

    public init(name: String, commandEndpoint: String, eventEndpoint: String) {
        self.name = name
        self.commandEndpoint = commandEndpoint
        self.eventEndpoint = eventEndpoint
    }
}

/// runtime.yaml's `etcd` section.
package struct EtcdEntry: Decodable {
    package var endpoints: [String]?
    package var prefix: String?
    package var leaseSeconds: Int?
    package var requestTimeoutMs: Int?
    package var caFile: String?
    package var certFile: String?
    package var keyFile: String?
    package var user: String?
    package var passwordFile: String?

    package enum CodingKeys: String, CodingKey, CaseIterable {
        case endpoints, prefix, leaseSeconds, requestTimeoutMs, caFile, certFile, keyFile, user, passwordFile
    }
}

/// An item of runtime.yaml's `supervisors`.
package struct SupervisorFileEntry: Decodable {
    package var name: String
    package var command: String
    package var events: String

    package enum CodingKeys: String, CodingKey, CaseIterable {
        case name, command, events
    }
}

extension RuntimeConfig {
    /// `journal: etcd` with its `etcd` section, and the `supervisors` that share the runtime.
    package mutating func readReplication(
        _ journal: String?,
        _ etcd: EtcdEntry?,
        _ supervisors: [SupervisorFileEntry]?,
        path: String,
        expand: (String) -> String
    ) throws {
        guard journal == "etcd" else {
            if etcd != nil || supervisors != nil {
                throw ConfigError(
                    "\(path): etcd and supervisors are the replicated journal's settings: they need journal: etcd."
                )
            }
            return
        }
        guard let etcd, let endpoints = etcd.endpoints, !endpoints.isEmpty else {
            throw ConfigError("\(path): journal: etcd needs an etcd section with its endpoints (http://HOST:PORT).")
        }
        for endpoint in endpoints {
            guard let url = URLComponents(string: endpoint), url.scheme == "http" || url.scheme == "https",
                url.host != nil, url.port != nil
            else {
                throw ConfigError("\(path): etcd.endpoints: \(endpoint) is not http://HOST:PORT or https://HOST:PORT.")
            }
        }
        var settings = EtcdSettings(endpoints: endpoints)
        if let prefix = etcd.prefix {
            guard prefix.hasPrefix("/"), prefix.count > 1 else {
                throw ConfigError("\(path): etcd.prefix must begin with / and name something (/containment/app).")
            }
            settings.prefix = prefix
        }
        if let seconds = etcd.leaseSeconds {
            // etcd's own shortest lease at its default timings is 2 s; past a minute a failover waits that long.
            guard (2...60).contains(seconds) else {
                throw ConfigError("\(path): etcd.leaseSeconds must be from 2 to 60, not \(seconds).")
            }
            settings.leaseSeconds = seconds
        }
        if let milliseconds = etcd.requestTimeoutMs {
            guard (10...60_000).contains(milliseconds) else {
                throw ConfigError("\(path): etcd.requestTimeoutMs must be from 10 to 60000, not \(milliseconds).")
            }
            settings.requestTimeout = .milliseconds(milliseconds)
        }
        settings.caFile = etcd.caFile.map(expand)
        settings.certFile = etcd.certFile.map(expand)
        settings.keyFile = etcd.keyFile.map(expand)
        guard (settings.certFile == nil) == (settings.keyFile == nil) else {
            throw ConfigError("\(path): etcd.certFile and etcd.keyFile go together (a client certificate and its key).")
        }
        settings.user = etcd.user
        settings.passwordFile = etcd.passwordFile.map(expand)
        guard (settings.user == nil) == (settings.passwordFile == nil) else {
            throw ConfigError("\(path): etcd.user and etcd.passwordFile go together.")
        }
        journalStore = .etcd(settings)
        self.supervisors = (supervisors ?? []).map {
            SupervisorEntry(name: $0.name, commandEndpoint: expand($0.command), eventEndpoint: expand($0.events))
        }
        var names: Set<String> = []
        var bound: Set<String> = []
        for entry in self.supervisors {
            guard !entry.name.isEmpty, entry.name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" }) else {
                throw ConfigError("\(path): supervisors: \"\(entry.name)\" is not a name (letters, digits, -).")
            }
            guard names.insert(entry.name).inserted else {
                throw ConfigError("\(path): supervisors: \(entry.name) is named twice.")
            }
            for endpoint in [entry.commandEndpoint, entry.eventEndpoint] {
                guard bound.insert(endpoint).inserted else {
                    throw ConfigError("\(path): supervisors: \(endpoint) is given twice; each binds its own.")
                }
            }
        }
        // Clients that name no supervisor reach the first.
        if let first = self.supervisors.first {
            commandEndpoint = first.commandEndpoint
            eventEndpoint = first.eventEndpoint
        }
    }

    /// These settings as supervisor `name` of ``supervisors`` uses them: its own endpoints. Without `supervisors`,
    /// the one supervisor is named `name` on `command` and `events`.
    public func selecting(supervisor name: String) throws -> RuntimeConfig {
        var config = self
        config.supervisorName = name
        guard !supervisors.isEmpty else { return config }
        guard let entry = supervisors.first(where: { $0.name == name }) else {
            throw ConfigError(
                "No supervisor named \(name) in \(path ?? "the settings") (supervisors: "
                    + supervisors.map(\.name).joined(separator: ", ") + ")."
            )
        }
        config.commandEndpoint = entry.commandEndpoint
        config.eventEndpoint = entry.eventEndpoint
        return config
    }

    /// Every supervisor's command endpoint, this config's own first: where a client or host looks for the leader.
    public var commandEndpoints: [String] {
        [commandEndpoint] + supervisors.map(\.commandEndpoint).filter { $0 != commandEndpoint }
    }

    /// Every supervisor's events endpoint, this config's own first: a subscriber connects to all (only the leader
    /// publishes).
    public var eventEndpoints: [String] {
        [eventEndpoint] + supervisors.map(\.eventEndpoint).filter { $0 != eventEndpoint }
    }
}
