import ArgumentParser
import ContainmentHost
import ContainmentConfig
import Foundation

/// `containment up TOPOLOGY`: a runtime started from any directory — the supervisor in the background (its log and
/// pid file in the run directory), which starts the topology's hosts (binaries named by the topology, relative to
/// its file, else `containment host` beside this executable) — returning once every host is up.
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
            adopted. Stop it with `containment down`. A replicated runtime (journal: etcd) is started by \
            scripts/up.sh, which also starts its local etcd. Exit 0 once every local host is up; 1 with the \
            supervisor's own reason, nothing left running, when it does not start, a host fails to start (its restart \
            policy gave up), or a host does not connect within CONTAINMENT_UP_TIMEOUT seconds (120).
            """
    )
    @Argument(help: "The topology (YAML).") var topology: String
    @OptionGroup var runtime: RuntimeOptions

    package func run() async throws {
        let started = try await Self.start(topology: topology, runtime: runtime)
        let hosts = started.hosts
        print("up: supervisor and \(hosts.count) hosts (\(hosts.joined(separator: " "))) in \(started.runDirectory)")
    }

    /// Starts the runtime of `topology` as `up` does; returns once every local host is up, with their names. On a
    /// failure it stops what it started and throws exit 1, having said why.
    static func start(
        topology path: String,
        runtime: RuntimeOptions
    ) async throws -> (lifecycle: Lifecycle, hosts: [String], runDirectory: String) {
        let config = try runtime.load()
        if case .etcd = config.journalStore {
            throw Lifecycle.failure("up: a replicated runtime (journal: etcd) is started by scripts/up.sh")
        }
        let lifecycle = Lifecycle(config: config, configPath: runtime.config)
        let topology = Lifecycle.absolute(path)
        if let pid = Lifecycle.livePID(lifecycle.supervisorPIDFile) {
            throw Lifecycle.failure("up: a supervisor already runs in \(config.runDirectory) (pid \(pid)); down first")
        }
        if config.curve != nil { _ = try lifecycle.own(["keygen", "--topology", topology]) }
        let hosts = try lifecycle.own(["topology", "--local", topology]).split(whereSeparator: \.isNewline)
            .map(String.init)
        let started = try lifecycle.startSupervisor(topology: topology)
        let timeout = Double(ProcessInfo.processInfo.environment["CONTAINMENT_UP_TIMEOUT"] ?? "") ?? 120
        let deadline = Date().addingTimeInterval(timeout)
        do {
            // Polled every 0.1 s: a supervisor that exits is reported within that.
            while Lifecycle.livePID(lifecycle.supervisorPIDFile) == nil {
                guard started.isRunning || Lifecycle.livePID(lifecycle.supervisorPIDFile) != nil else {
                    throw lifecycle.startFailure("the supervisor did not start (status \(started.terminationStatus))")
                }
                guard Date() < deadline else {
                    throw lifecycle.startFailure("the supervisor did not serve within \(Int(timeout)) s")
                }
                try await Task.sleep(for: .milliseconds(100))
            }
            if !hosts.isEmpty {
                let wait = ["wait", "--hosts", hosts.joined(separator: ","), "--timeout", "1"]
                while (try? lifecycle.own(wait, quiet: true)) == nil {
                    guard Lifecycle.livePID(lifecycle.supervisorPIDFile) != nil else {
                        throw lifecycle.startFailure("the supervisor ended before its hosts connected")
                    }
                    guard !lifecycle.aHostFailed else {
                        throw lifecycle.startFailure("a host failed at start and was given up on (its restart policy)")
                    }
                    guard Date() < deadline else {
                        throw lifecycle.startFailure("hosts did not connect within \(Int(timeout)) s")
                    }
                }
            }
        } catch {
            _ = lifecycle.stopAll()
            throw error
        }
        return (lifecycle, hosts, config.runDirectory)
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
            runtime (journal: etcd) and its local etcd are stopped by scripts/down.sh.
            """
    )
    @OptionGroup var runtime: RuntimeOptions

    package func run() async throws {
        let config = try runtime.load()
        if case .etcd = config.journalStore {
            throw Lifecycle.failure("down: a replicated runtime (journal: etcd) is stopped by scripts/down.sh")
        }
        try Lifecycle(config: config, configPath: runtime.config).stopAndSay()
    }
}

extension Lifecycle {
    /// Stops every daemon of the run directory (``stopAll()``) and says what it stopped, on standard output, and each
    /// problem, on standard error; exit 1 when there was one.
    func stopAndSay() throws {
        let report = stopAll()
        for line in report.problems { FileHandle.standardError.write(Data("down: \(line)\n".utf8)) }
        if report.stopped.isEmpty && report.problems.isEmpty {
            print("down: nothing runs in \(runDirectory)")
        } else if !report.stopped.isEmpty {
            print(
                "down: stopped \(report.stopped.joined(separator: ", ")); nothing left in \(runDirectory) "
                    + "but logs, the journal and the lock file"
            )
        }
        if !report.problems.isEmpty { throw ExitCode(1) }
    }
}
