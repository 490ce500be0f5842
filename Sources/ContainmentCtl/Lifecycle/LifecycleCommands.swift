import ArgumentParser
import ContainmentHost
import ContainmentConfig
import Foundation

/// `containment up TOPOLOGY`: a runtime started from any directory — the supervisor in the background (its log and
/// pid file in the run directory), which starts the topology's hosts (binaries named by the topology, relative to
/// its file, else `containment host` beside this executable) — returning once every host is up. A replicated runtime
/// (`journal: etcd`): its local etcd cluster first, then each of its supervisors.
package struct UpCommand: AsyncParsableCommand {
    package init() {}

    package static let configuration = CommandConfiguration(
        commandName: "up",
        abstract: "Start a runtime in the background: the supervisor and the topology's hosts; return once all are up.",
        discussion: """
            Works from any directory: TOPOLOGY is read where it is (its hosts' commands relative to it), the \
            supervisor and its hosts are this executable's `supervisor` and `host` unless the topology names \
            another program, and everything they write goes to the run directory (CONTAINMENT_RUN_DIR; logs under \
            logs/). A supervisor that ran there before recovers the tree from its journal; hosts still running are \
            adopted. A replicated runtime (journal: etcd) starts its local etcd members first (when every endpoint \
            is on this machine; their data in etcd/), then each supervisor, with containment-etcd. With \
            metricsPort in runtime.yaml, `containment-web metrics` serves the metrics; with otlpEndpoint, \
            `containment-web traces` exports traced commands' spans; --inspector starts the live page too. Stop it with `containment down`. Exit 0 once every local host is up; 1 with the supervisor's \
            own reason, nothing left running, when it does not start or a host does not connect within \
            CONTAINMENT_UP_TIMEOUT seconds (120); 1 with the host's reason when its restart policy gave up on a \
            host, the supervisor and the other hosts running on (`down` stops them).
            """
    )
    @Argument(help: "The topology (YAML).") var topology: String
    @Flag(help: "Also start `containment-web inspector`, the live web page.") var inspector = false
    @Option(help: "The inspector's port.") var inspectorPort = 8080
    @OptionGroup var runtime: RuntimeOptions

    package func run() async throws {
        // Ctrl-C or SIGTERM while it waits: what it started is stopped.
        let latch = SignalLatch()
        let started = try await Self.start(topology: topology, runtime: runtime, interrupted: { latch.signal != nil })
        let lifecycle = started.lifecycle
        let hosts = "\(started.hosts.count) hosts (\(started.hosts.joined(separator: " ")))"
        if let names = lifecycle.supervisorNames {
            let members = lifecycle.localEtcd.map { ", \($0.members.count) local members" } ?? ""
            print(
                "up: supervisors \(names.joined(separator: " ")) (journal: etcd\(members)) and \(hosts) in "
                    + started.runDirectory
            )
        } else {
            print("up: supervisor and \(hosts) in \(started.runDirectory)")
        }
        do {
            if lifecycle.config.metricsPort != 0 {
                try lifecycle.startWeb("metrics", []).map { print($0) }
                print("up: metrics at http://127.0.0.1:\(lifecycle.config.metricsPort)/metrics")
            } else if inspector {
                print("up: metrics off (set metricsPort in runtime.yaml, CONTAINMENT_CONFIG)")
            }
            if !lifecycle.config.otlpEndpoint.isEmpty {
                try lifecycle.startWeb("traces", []).map { print($0) }
                print("up: traced commands exported to \(lifecycle.config.otlpEndpoint)")
            }
            if inspector {
                try lifecycle.startWeb("inspector", ["--port", String(inspectorPort)]).map { print($0) }
                print("up: inspector at http://127.0.0.1:\(inspectorPort)/")
            }
        } catch {
            _ = lifecycle.stopAll()
            throw error
        }
    }

    /// Starts the runtime of `topology` as `up` does; returns once every local host is up, with their names. On a
    /// failure it stops what it started and throws exit 1, having said why — but when a host's restart policy gave
    /// up on it, it says so and throws exit 1 leaving the rest running.
    static func start(
        topology path: String,
        runtime: RuntimeOptions,
        interrupted: @escaping () -> Bool = { false }
    ) async throws -> (lifecycle: Lifecycle, hosts: [String], runDirectory: String) {
        let config = try runtime.load()
        let lifecycle = Lifecycle(config: config, configPath: runtime.config)
        let topology = Lifecycle.absolute(path)
        if let running = lifecycle.runningSupervisor {
            throw Lifecycle.failure(
                "up: a supervisor already runs in \(config.runDirectory) (\(running.file), pid \(running.pid)); down first"
            )
        }
        _ = try lifecycle.supervisorExecutable()
        if config.curve != nil { _ = try lifecycle.own(["keygen", "--topology", topology]) }
        let hosts = try lifecycle.own(["topology", "--local", topology]).split(whereSeparator: \.isNewline)
            .map(String.init)
        let kept = hosts.compactMap { host in
            Lifecycle.livePID("\(config.runDirectory)/host-\(host).pid").map { "\(host) (pid \($0))" }
        }
        let deadline = Deadline(interrupted: interrupted)
        do {
            let members = try lifecycle.localEtcd?.start(environment: lifecycle.environment) ?? []
            for name in lifecycle.supervisors {
                try await waitServing(
                    name,
                    try lifecycle.startSupervisor(name, topology: topology),
                    members,
                    lifecycle,
                    deadline
                )
            }
            if !kept.isEmpty { print("up: kept the hosts still running: \(kept.joined(separator: " "))") }
            if !hosts.isEmpty { try await waitConnected(hosts, lifecycle, deadline) }
        } catch let failure as HostsFailed {
            throw Lifecycle.failure(failure.report)
        } catch {
            _ = lifecycle.stopAll()
            throw error
        }
        return (lifecycle, hosts, config.runDirectory)
    }

    /// Waits until supervisor `name` serves (or, replicated, stands by): its pid file names it. Polled every 0.1 s: a
    /// supervisor or an etcd member that ends is reported within that.
    private static func waitServing(
        _ name: String?,
        _ started: Process,
        _ members: [(member: LocalEtcdMember, process: Process)],
        _ lifecycle: Lifecycle,
        _ deadline: Deadline
    ) async throws {
        let pidFile = lifecycle.pidFile(supervisor: name)
        while Lifecycle.livePID(pidFile) != started.processIdentifier {
            guard !deadline.interrupted() else { throw lifecycle.startFailure("interrupted") }
            guard started.isRunning else {
                throw lifecycle.startFailure("the supervisor did not start (status \(started.terminationStatus))")
            }
            if let ended = members.first(where: { !$0.process.isRunning }), let etcd = lifecycle.localEtcd {
                throw Lifecycle.failure(
                    "up: etcd \(ended.member.name) (client port \(ended.member.clientPort)) did not start; its log "
                        + "ends:\n\(etcd.logEnd(ended.member))"
                )
            }
            guard deadline.remains else {
                throw lifecycle.startFailure("the supervisor did not serve within \(deadline)")
            }
            try await Task.sleep(for: .milliseconds(100))
        }
    }

    /// Waits until every host is connected (`containment wait`, a second at a time).
    private static func waitConnected(_ hosts: [String], _ lifecycle: Lifecycle, _ deadline: Deadline) async throws {
        let wait = ["wait", "--hosts", hosts.joined(separator: ","), "--timeout", "1"]
        while (try? lifecycle.own(wait, quiet: true)) == nil {
            guard !deadline.interrupted() else { throw lifecycle.startFailure("interrupted") }
            guard lifecycle.runningSupervisor != nil else {
                throw lifecycle.startFailure("the supervisor ended before its hosts connected")
            }
            guard !lifecycle.aHostFailed else {
                throw HostsFailed(lines: lifecycle.supervisorErrors, runDirectory: lifecycle.runDirectory)
            }
            guard deadline.remains else { throw lifecycle.startFailure("hosts did not connect within \(deadline)") }
        }
    }

    /// How long the supervisors may take to serve (recovery, a large topology) and the hosts to connect, together:
    /// CONTAINMENT_UP_TIMEOUT seconds, 120 by default.
    /// A wait also ends when the command is interrupted.
    private struct Deadline: CustomStringConvertible {
        let seconds = Double(ProcessInfo.processInfo.environment["CONTAINMENT_UP_TIMEOUT"] ?? "") ?? 120
        let start = Date()
        let interrupted: () -> Bool
        var remains: Bool { Date().timeIntervalSince(start) < seconds }
        var description: String { "\(Int(seconds)) s (CONTAINMENT_UP_TIMEOUT)" }
    }

    /// A host its restart policy gave up on (`hostFailed`): it will not connect; the supervisor serves on (refusing
    /// commands for that host's controllers), as do the hosts that are up.
    private struct HostsFailed: Error {
        let lines: [Substring]
        let runDirectory: String

        var report: String {
            (["up: a host failed at start and was given up on (its restart policy):"] + lines.map { "    \($0)" }
                + [
                    "up: the supervisor and the hosts that are up run on (commands for the failed host's controllers "
                        + "are refused); the logs are in \(runDirectory)/logs/; `containment down` stops them"
                ]).joined(separator: "\n")
        }
    }
}

/// `containment down`: every daemon of the run directory stopped, and nothing left behind.
package struct DownCommand: AsyncParsableCommand {
    package init() {}

    package static let configuration = CommandConfiguration(
        commandName: "down",
        abstract:
            "Stop the runtime of the run directory: the supervisor, which stops the hosts it started, then the rest.",
        discussion: """
            Works from any directory. SIGTERM to containment-web's servers, then the supervisor (it stops the hosts \
            it started, and says which in its log), then any host still running; each is waited for, and killed \
            after 10 s. Then checks that no process, socket or pid file is left. Exit 0 when everything stopped on \
            its own; 1 when something had to be killed or cleaned (each said on standard error). A replicated \
            runtime's standbys are stopped before its leader (a stopped leader hands over at once), and its local \
            etcd members last (their data stays, for the next `up`).
            """
    )
    @OptionGroup var runtime: RuntimeOptions

    package func run() async throws {
        // Everything is found in the run directory: settings that do not load (edited since `up`) stop nothing less.
        let config =
            (try? runtime.load()) ?? RuntimeConfig(runDirectory: RuntimeConfig.defaultRunDirectory())
        try Lifecycle(config: config, configPath: runtime.config).stopAndSay()
    }
}
