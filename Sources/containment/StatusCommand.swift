import ArgumentParser
import ContainmentBus
import ContainmentHost
import Foundation

/// `containment status`: the runtime's health for an operator or a script — the supervisor, each host, what waits.
struct StatusCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "The runtime's health: the supervisor, each host, the commands waiting.",
        discussion: """
            The supervisor (pid, epoch, seq, uptime, journal size), each host of the topology (up, down or failed; \
            pid; how many of its processes registered; the controllers it runs; callbacks waiting for it) and the \
            commands waiting for controllers' code to answer (SPEC §15), the subscribers connected, and the latest \
            refusals (rule violations with their seq, and requests refused before the rules). Exit 0 when every host is up, 1 when one is \
            down or failed (degraded), 3 when no supervisor answers.
            """
    )

    @Flag(help: "One JSON object: supervisor, hosts, waitingForAnswers, subscribers, refusals, healthy.")
    var json = false

    @OptionGroup var runtime: RuntimeOptions

    func run() async throws {
        let connection = try Connection(runtime)
        let snapshot = try connection.snapshot()
        let config = connection.config
        let pid = (try? String(contentsOfFile: "\(config.runDirectory)/supervisor.pid", encoding: .utf8))
            .flatMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        let segments = ((try? FileManager.default.contentsOfDirectory(atPath: config.journalPath)) ?? [])
            .filter { $0.hasSuffix(".log") }
        let journalBytes = segments.compactMap {
            (try? FileManager.default.attributesOfItem(atPath: "\(config.journalPath)/\($0)"))?[.size] as? Int
        }.reduce(0, +)
        let uptime = max(0, Date().timeIntervalSince1970 - Double(snapshot.startedUnixNanos) / 1e9)
        let hosts = snapshot.hosts.sorted { $0.name < $1.name }
        func state(_ host: Containment_V1_HostState) -> String {
            host.failed.isEmpty ? (host.up ? "up" : "down") : "failed"
        }
        let unwell = hosts.filter { !$0.up }
        if json {
            print(
                JSONText.encode([
                    "healthy": unwell.isEmpty,
                    "supervisor": [
                        "pid": pid as Any, "epoch": snapshot.epoch, "seq": snapshot.seq, "uptimeSeconds": Int(uptime),
                        "journalBytes": journalBytes, "journalSegments": segments.count,
                        "controllers": snapshot.controllers.count,
                    ] as [String: Any],
                    "hosts": hosts.map { host -> [String: Any] in
                        [
                            "name": host.name, "state": state(host), "pid": Int(host.pid),
                            "processes": Int(host.incarnation), "controllers": Int(host.controllers),
                            "pendingCallbacks": Int(host.pending), "failed": host.failed,
                        ]
                    },
                    "waitingForAnswers": Int(snapshot.waiting),
                    "subscribers": Int(snapshot.subscribers),
                    "refusals": snapshot.refusals.map { refusal -> [String: Any] in
                        [
                            "seq": Int(refusal.seq), "timeUnixNanos": Int(refusal.timeUnixNanos), "code": refusal.code,
                            "message": refusal.message,
                        ]
                    },
                ])
            )
        } else {
            print(
                "supervisor  pid \(pid.map(String.init) ?? "?")  epoch \(snapshot.epoch)  seq \(snapshot.seq)  up "
                    + "\(Self.duration(uptime))  journal \(Self.size(journalBytes)) in \(segments.count) segment"
                    + (segments.count == 1 ? "  " : "s  ")
                    + "\(snapshot.controllers.count) controllers"
            )
            for host in hosts {
                print(
                    "host \(host.name)  \(state(host))  pid \(host.pid)  processes \(host.incarnation)  controllers "
                        + "\(host.controllers)" + (host.pending > 0 ? "  \(host.pending) callbacks waiting" : "")
                        + (host.failed.isEmpty ? "" : "  (\(host.failed))")
                )
            }
            if snapshot.waiting > 0 { print("\(snapshot.waiting) commands waiting for controllers' code to answer") }
            print("subscribers \(snapshot.subscribers)")
            if !snapshot.refusals.isEmpty {
                print("last \(snapshot.refusals.count) refusals (since this supervisor started, oldest first):")
                for refusal in snapshot.refusals {
                    let time = Date(timeIntervalSince1970: Double(refusal.timeUnixNanos) / 1e9)
                    let seq = refusal.seq > 0 ? "seq \(refusal.seq)" : "no seq"
                    print("  \(Self.clockTime(time))  \(seq)  \(refusal.code): \(refusal.message)")
                }
            }
            print(
                unwell.isEmpty
                    ? "healthy" : "degraded: \(unwell.map { "\($0.name) \(state($0))" }.joined(separator: ", "))"
            )
        }
        if !unwell.isEmpty { throw ExitStatus.rejected }
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
