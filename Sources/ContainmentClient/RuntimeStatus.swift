import ContainmentBus
import ContainmentConfig
import Foundation

/// The runtime's health as `containment status` shows it: the supervisor (from its snapshot, its pid file and its
/// journal's files), each host of the topology, what waits, the subscribers and the latest refusals. Package-only:
/// it is built from a wire snapshot.
package struct RuntimeStatus: Sendable {
    package struct Host: Sendable {
        package var name: String
        /// `up`, `registering` (with a supervisor that just took over), `down` or `failed` (given up on by its restart
        /// policy).
        package var state: String
        package var pid: Int
        /// How many of its processes registered.
        package var processes: Int
        package var controllers: Int
        package var pendingCallbacks: Int
        /// Why its restart policy gave up on it (empty unless failed).
        package var failed: String

        /// Up, or registering with a supervisor that just took over.
        var isWell: Bool { state == "up" || state == "registering" }
    }

    package struct Refusal: Sendable {
        /// The rejection's seq; 0 for a request refused before the rules.
        package var seq: UInt64
        package var timeUnixNanos: Int64
        package var code: String
        package var message: String
    }

    package var pid: Int?
    package var epoch: UInt64
    package var seq: UInt64
    package var uptimeSeconds: Double
    package var journalBytes: Int
    package var journalSegments: Int
    package var controllers: Int
    package var hosts: [Host]
    package var waitingForAnswers: Int
    package var subscribers: Int
    package var refusals: [Refusal]

    /// Every host is up, or registering with a supervisor that just took over (its process ran before: a failover, a
    /// restart — it is placed on meanwhile, and `down` if it has not registered within a heartbeat timeout).
    package var healthy: Bool { hosts.allSatisfy(\.isWell) }

    /// The status the snapshot and `config`'s run directory show, `now`.
    package init(snapshot: BusSnapshot, config: RuntimeConfig, now: Date = Date()) {
        pid = (try? String(contentsOfFile: "\(config.runDirectory)/supervisor.pid", encoding: .utf8))
            .flatMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        let segments = ((try? FileManager.default.contentsOfDirectory(atPath: config.journalPath)) ?? [])
            .filter { $0.hasSuffix(".log") }
        journalSegments = segments.count
        journalBytes = segments.compactMap {
            (try? FileManager.default.attributesOfItem(atPath: "\(config.journalPath)/\($0)"))?[.size] as? Int
        }.reduce(0, +)
        epoch = snapshot.epoch
        seq = snapshot.seq
        uptimeSeconds = max(0, now.timeIntervalSince1970 - Double(snapshot.startedUnixNanos) / 1e9)
        controllers = snapshot.controllerIDs.count
        hosts = snapshot.hosts.sorted { $0.name < $1.name }.map { host in
            Host(
                name: host.name,
                state: !host.failed.isEmpty ? "failed" : host.up ? "up" : host.registering ? "registering" : "down",
                pid: Int(host.pid),
                processes: Int(host.incarnation),
                controllers: Int(host.controllers),
                pendingCallbacks: Int(host.pending),
                failed: host.failed
            )
        }
        waitingForAnswers = Int(snapshot.waiting)
        subscribers = Int(snapshot.subscribers)
        refusals = snapshot.refusals.map {
            Refusal(seq: $0.seq, timeUnixNanos: $0.timeUnixNanos, code: $0.code, message: $0.message)
        }
    }

    /// One JSON object: supervisor, hosts, waitingForAnswers, subscribers, refusals, healthy.
    package var json: String {
        JSONText.encode([
            "healthy": healthy,
            "supervisor": [
                "pid": pid as Any, "epoch": epoch, "seq": seq, "uptimeSeconds": Int(uptimeSeconds),
                "journalBytes": journalBytes, "journalSegments": journalSegments, "controllers": controllers,
            ] as [String: Any],
            "hosts": hosts.map { host -> [String: Any] in
                [
                    "name": host.name, "state": host.state, "pid": host.pid, "processes": host.processes,
                    "controllers": host.controllers, "pendingCallbacks": host.pendingCallbacks, "failed": host.failed,
                ]
            },
            "waitingForAnswers": waitingForAnswers,
            "subscribers": subscribers,
            "refusals": refusals.map { refusal -> [String: Any] in
                [
                    "seq": Int(refusal.seq), "timeUnixNanos": Int(refusal.timeUnixNanos), "code": refusal.code,
                    "message": refusal.message,
                ]
            },
        ])
    }

    /// Lines for an operator, the last `healthy` or `degraded: …`.
    package var text: String {
        var lines = [
            "supervisor  pid \(pid.map(String.init) ?? "?")  epoch \(epoch)  seq \(seq)  up "
                + "\(Self.duration(uptimeSeconds))  journal \(Self.size(journalBytes)) in \(journalSegments) segment"
                + (journalSegments == 1 ? "  " : "s  ") + "\(controllers) controllers"
        ]
        for host in hosts {
            lines.append(
                "host \(host.name)  \(host.state)  pid \(host.pid)  processes \(host.processes)  controllers "
                    + "\(host.controllers)"
                    + (host.pendingCallbacks > 0 ? "  \(host.pendingCallbacks) callbacks waiting" : "")
                    + (host.failed.isEmpty ? "" : "  (\(host.failed))")
            )
        }
        if waitingForAnswers > 0 {
            lines.append("\(waitingForAnswers) commands waiting for controllers' code to answer")
        }
        lines.append("subscribers \(subscribers)")
        if !refusals.isEmpty {
            lines.append("last \(refusals.count) refusals (since this supervisor started, oldest first):")
            for refusal in refusals {
                let time = Date(timeIntervalSince1970: Double(refusal.timeUnixNanos) / 1e9)
                let seq = refusal.seq > 0 ? "seq \(refusal.seq)" : "no seq"
                lines.append("  \(Self.clockTime(time))  \(seq)  \(refusal.code): \(refusal.message)")
            }
        }
        let unwell = hosts.filter { !$0.isWell }
        lines.append(
            unwell.isEmpty ? "healthy" : "degraded: \(unwell.map { "\($0.name) \($0.state)" }.joined(separator: ", "))"
        )
        return lines.joined(separator: "\n")
    }

    /// HH:MM:SS in UTC.
    static func clockTime(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? calendar.timeZone
        let parts = calendar.dateComponents([.hour, .minute, .second], from: date)
        return String(format: "%02d:%02d:%02dZ", parts.hour ?? 0, parts.minute ?? 0, parts.second ?? 0)
    }

    static func duration(_ seconds: Double) -> String {
        let total = Int(seconds)
        return total < 60
            ? "\(total)s" : total < 3600 ? "\(total / 60)m\(total % 60)s" : "\(total / 3600)h\(total / 60 % 60)m"
    }

    static func size(_ bytes: Int) -> String {
        bytes < 1 << 20
            ? String(format: "%.1f KiB", Double(bytes) / 1024) : String(format: "%.1f MiB", Double(bytes) / 1_048_576)
    }
}
