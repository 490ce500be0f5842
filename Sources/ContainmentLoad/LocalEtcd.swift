import ContainmentConfig
import ContainmentRuntime
import Foundation

/// A local etcd cluster for a replicated ``LocalRuntime`` (`stress --kill-leader-every`, `bench replicated`): each
/// member an `etcd` process on loopback, its data and log in the run directory, as scripts/etcd.sh runs them.
final class LocalEtcd {
    let members: [Process]
    let endpoints: [String]

    /// Starts `count` members and returns once a request through `store` is answered. Ports are drawn at random
    /// (client, then peer, per member); a member that cannot bind them ends, and the cluster is started again on
    /// others.
    init(
        count: Int,
        directory: String,
        logs: String,
        environment: [String: String],
        store makeStore: (EtcdSettings) throws -> any EtcdStore
    ) throws {
        guard let etcd = LocalEtcdMember.executable else {
            throw LoadError("etcd is not installed (bash scripts/setup.sh etcd installs it)")
        }
        var lastFailure = ""
        for _ in 0..<5 {
            let base = Int.random(in: 20_000..<60_000 - 2 * count)
            let cluster = LocalEtcdMember.cluster(clientPorts: (0..<count).map { base + 2 * $0 })
            var started: [Process] = []
            for member in cluster {
                let name = member.name
                let process = Process()
                // Its signals at their default, so that it stops on SIGTERM.
                process.setCommandWithDefaultSignals(
                    etcd,
                    member.arguments(
                        dataDirectory: "\(directory)/\(name).data",
                        cluster: cluster,
                        token: "containment-load-\(base)"
                    )
                )
                // The run directory in its environment: a member left running is found as the runtime's (lib.sh).
                process.environment = environment
                let log = "\(logs)/etcd-\(name).log"
                _ = FileManager.default.createFile(atPath: log, contents: nil)
                let output = try FileHandle(forWritingTo: URL(fileURLWithPath: log))
                process.standardOutput = output
                process.standardError = output
                process.standardInput = FileHandle.nullDevice
                try process.run()
                try? output.close()
                started.append(process)
            }
            let endpoints = cluster.map { "http://127.0.0.1:\($0.clientPort)" }
            var settings = EtcdSettings(endpoints: endpoints)
            settings.requestTimeout = .seconds(1)
            let store = try makeStore(settings)
            defer { store.close() }
            let deadline = ContinuousClock.now + .seconds(30)
            while ContinuousClock.now < deadline, started.allSatisfy(\.isRunning) {
                if (try? store.range("/")) != nil {
                    members = started
                    self.endpoints = endpoints
                    return
                }
                Thread.sleep(forTimeInterval: 0.05)
            }
            lastFailure = "its members did not serve on ports from \(base) (see \(logs)/etcd-*.log)"
            Self.stop(started)
            try? FileManager.default.removeItem(atPath: directory)
        }
        throw LoadError("etcd did not start: \(lastFailure)")
    }

    /// SIGTERM to every member, SIGKILL after 2 s (etcd's log makes a kill as safe as a stop).
    func stop() { Self.stop(members) }

    private static func stop(_ members: [Process]) {
        for member in members where member.isRunning { member.terminate() }
        let deadline = ContinuousClock.now + .seconds(2)
        for member in members {
            while member.isRunning, ContinuousClock.now < deadline { Thread.sleep(forTimeInterval: 0.02) }
            if member.isRunning { kill(member.processIdentifier, SIGKILL) }
            member.waitUntilExit()
        }
    }
}
