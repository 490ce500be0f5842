import ArgumentParser
import ContainmentCtl
import ContainmentClient
import ContainmentHost
import ContainmentConfig
import ContainmentRuntime
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
        let config = try runtime.load()
        // Replicated: who leads, from etcd first and briefly (no majority is said at once), then a supervisor's answer.
        var replication: ReplicationStatus?
        if case .etcd(let settings) = config.journalStore {
            replication = try await EtcdSupport.required(by: "containment status").look(
                settings,
                config.supervisors.map(\.name)
            )
        }
        let status: RuntimeStatus
        do {
            let connection = try Connection(runtime, timeout: replication?.wait.map { min(config.requestTimeout, $0) })
            status = RuntimeStatus(snapshot: try connection.snapshot(), config: connection.config)
        } catch let exit as ExitCode where replication != nil {
            // No supervisor answered, but etcd said who should: what is wrong, and exit 1 (degraded), not 3.
            print((replication?.text ?? "") + "\nsupervisor: none answered (see the error above)")
            throw exit == ExitStatus.unreachable ? ExitStatus.rejected : exit
        }
        if json {
            var object = (try? JSONSerialization.jsonObject(with: Data(status.json.utf8))) as? [String: Any] ?? [:]
            if let replication { object["replication"] = replication.json }
            let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data()
            print(String(decoding: data, as: UTF8.self))
        } else {
            print(status.text)
            if let replication { print(replication.text) }
        }
        if !status.healthy || replication?.stale != nil { throw ExitStatus.rejected }
    }
}
