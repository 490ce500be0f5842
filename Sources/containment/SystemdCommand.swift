import ArgumentParser
import ContainmentHost
import ContainmentRuntime
import Foundation

/// `containment systemd --topology FILE [--user]`: unit files that run the runtime as a service.
struct SystemdCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "systemd",
        abstract: "Write systemd unit files: the supervisor (which starts its hosts), its metrics, each remote host.",
        discussion: """
            containment-supervisor.service runs `containment supervisor --start-hosts` on the topology, in the run \
            directory (default: systemd's state directory, %S/containment: /var/lib/containment, or \
            ~/.local/state/containment with --user, so the journal survives a reboot). It is ready once the \
            supervisor answers and every local host is up (ExecStartPost runs `containment wait`), refuses a \
            topology or runtime.yaml with a typo before starting (ExecStartPre runs `containment config check`), \
            is restarted on failure, and stops on SIGTERM with every host. With metricsPort in runtime.yaml, \
            containment-metrics.service runs `containment-web metrics` (beside the binary) while the supervisor \
            runs. A host the topology marks `remote` gets \
            containment-host-NAME.service, to copy to the machine that runs it. Paths are made absolute. Then: \
            `systemctl [--user] daemon-reload && systemctl [--user] enable --now containment-supervisor`.
            """
    )

    @Option(help: "The topology the supervisor applies (YAML).")
    var topology: String

    @Flag(help: "Units for the user's service manager (systemctl --user; WantedBy=default.target).")
    var user = false

    @Option(help: "Where to write the units; default: the current directory.")
    var output: String = "."

    @Option(help: "The run directory (sockets, pid files, logs, journal); default: %S/containment.")
    var runDir: String?

    @Option(help: "The containment binary the units run; default: this one.")
    var binary: String?

    @OptionGroup var runtime: RuntimeOptions

    func run() throws {
        let loaded = try Topology.load(path: topology)
        let config = try runtime.load()
        // systemd expands `%` specifiers in these lines: a `%` of a path is written `%%`.
        func path(_ text: String) -> String { text.replacingOccurrences(of: "%", with: "%%") }
        let units = SystemdUnits(
            binary: path(Self.absolute(binary ?? CommandLine.arguments[0], resolvingOnPATH: binary == nil)),
            topology: path(Self.absolute(topology)),
            config: runtime.config.map { path(Self.absolute($0)) },
            runDirectory: runDir.map { path(Self.absolute($0)) } ?? "%S/containment",
            user: user,
            localHosts: loaded.localHosts,
            remoteHosts: loaded.hosts.filter { loaded.hostSettings[$0]?.remote == true },
            metrics: config.metricsPort > 0
        )
        try FileManager.default.createDirectory(atPath: output, withIntermediateDirectories: true)
        for (name, text) in units.files {
            let path = (output as NSString).appendingPathComponent(name)
            try text.write(toFile: path, atomically: true, encoding: .utf8)
            print(path)
        }
    }

    /// `path` from the root; a bare command name (this binary, as the shell found it) looked up on PATH.
    static func absolute(_ path: String, resolvingOnPATH: Bool = false) -> String {
        if resolvingOnPATH, !path.contains("/") {
            let directories = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":")
            for directory in directories where FileManager.default.isExecutableFile(atPath: "\(directory)/\(path)") {
                return "\(directory)/\(path)"
            }
        }
        let url = URL(fileURLWithPath: path, relativeTo: URL(fileURLWithPath: FileManager.default.currentDirectoryPath))
        return url.standardizedFileURL.path
    }
}

/// The unit files' text.
struct SystemdUnits {
    let binary: String
    let topology: String
    let config: String?
    let runDirectory: String
    let user: Bool
    let localHosts: [String]
    let remoteHosts: [String]
    /// runtime.yaml sets metricsPort: containment-web serves them beside the supervisor.
    let metrics: Bool

    var files: [(name: String, text: String)] {
        [("containment-supervisor.service", supervisor)]
            + (metrics ? [("containment-metrics.service", metricsUnit)] : [])
            + remoteHosts.map { ("containment-host-\($0).service", host($0)) }
    }

    /// `containment-web`, beside the binary.
    private var webBinary: String { (binary as NSString).deletingLastPathComponent + "/containment-web" }

    var metricsUnit: String {
        """
        # Written by `containment systemd`: the supervisor's metrics over HTTP (metricsPort), served by
        # containment-web while the supervisor runs.
        [Unit]
        Description=Containment metrics (containment-web metrics)
        BindsTo=containment-supervisor.service
        After=containment-supervisor.service

        [Service]
        Type=exec
        \(environment)
        ExecStart=\(exec([webBinary, "metrics", "--pid-file", "\(runDirectory)/metrics.pid"]))
        Restart=on-failure
        RestartSec=1
        TimeoutStopSec=30
        KillSignal=SIGTERM

        [Install]
        WantedBy=containment-supervisor.service

        """
    }

    /// systemd's quoting of one argument of an Exec line: double quotes when it holds a space, a quote or a backslash.
    static func quote(_ argument: String) -> String {
        guard argument.contains(where: { " \t\"'\\".contains($0) }) else { return argument }
        return "\"" + argument.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
            + "\""
    }

    private func exec(_ arguments: [String]) -> String {
        arguments.map(Self.quote).joined(separator: " ")
    }

    private var environment: String {
        var lines = ["Environment=\(Self.quote("CONTAINMENT_RUN_DIR=\(runDirectory)"))"]
        if let config { lines.append("Environment=\(Self.quote("CONTAINMENT_CONFIG=\(config)"))") }
        return lines.joined(separator: "\n")
    }

    /// The state directory systemd makes (and keeps) for the default run directory.
    private var stateDirectory: String {
        runDirectory == "%S/containment" ? "StateDirectory=containment\nStateDirectoryMode=0700\n" : ""
    }

    private var target: String { user ? "default.target" : "multi-user.target" }
    private var network: String {
        user ? "" : "After=network-online.target\nWants=network-online.target\n"
    }

    var supervisor: String {
        let hosts = localHosts.isEmpty ? [] : ["--hosts", localHosts.joined(separator: ",")]
        return """
            # Written by `containment systemd`: the Containment supervisor on \(topology), which starts the
            # topology's hosts and starts each again when it ends. Ready once it answers and its hosts are up.
            [Unit]
            Description=Containment supervisor (\((topology as NSString).lastPathComponent))
            Documentation=man:containment.supervisor(1)
            \(network)
            [Service]
            Type=exec
            \(environment)
            \(stateDirectory)ExecStartPre=\(exec([binary, "config", "check", "--topology", topology]))
            ExecStart=\(exec([binary, "supervisor", "--topology", topology, "--start-hosts", "--pid-file", "\(runDirectory)/supervisor.pid"]))
            ExecStartPost=\(exec([binary, "wait", "--timeout", "120"] + hosts))
            Restart=on-failure
            RestartSec=1
            TimeoutStartSec=180
            TimeoutStopSec=30
            KillSignal=SIGTERM
            KillMode=control-group

            [Install]
            WantedBy=\(target)

            """
    }

    func host(_ name: String) -> String {
        """
        # Written by `containment systemd`: host \(name) of \(topology), marked remote: the supervisor does not start
        # it. Copy this unit (and the binary, the runtime settings naming the supervisor's tcp:// endpoints) to the
        # machine that runs it.
        [Unit]
        Description=Containment host \(name)
        Documentation=man:containment.host(1)
        \(network)
        [Service]
        Type=exec
        \(environment)
        \(stateDirectory)ExecStart=\(exec([binary, "host", "--name", name, "--pid-file", "\(runDirectory)/host-\(name).pid"]))
        Restart=on-failure
        RestartSec=1
        TimeoutStopSec=30
        KillSignal=SIGTERM

        [Install]
        WantedBy=\(target)

        """
    }
}
