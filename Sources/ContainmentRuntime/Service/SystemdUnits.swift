import ContainmentConfig
import Foundation

/// The unit files of `containment systemd`: the supervisor (which starts its local hosts), its metrics when
/// `metricsPort` is set, the export of its traced commands when `otlpEndpoint` is, and one per host the topology marks `remote`. Paths are absolute and `%`-escaped: systemd
/// expands its specifiers (`%S`) in the lines written here.
public struct SystemdUnits: Sendable {
    public let binary: String
    public let topology: String
    public let config: String?
    public let runDirectory: String
    public let user: Bool
    public let localHosts: [String]
    public let remoteHosts: [String]
    /// runtime.yaml sets metricsPort: containment-web serves them beside the supervisor.
    public let metrics: Bool
    /// runtime.yaml sets otlpEndpoint: containment-web exports the traced commands' spans beside the supervisor.
    public let traces: Bool

    /// The units for `topology` (read from `topologyPath`) run by `binary` (a bare name is looked up on PATH), with
    /// the settings at `configPath` and the run directory `runDirectory` (default: systemd's `%S/containment`).
    public init(
        topology loaded: Topology,
        topologyPath: String,
        config: RuntimeConfig,
        configPath: String?,
        binary: String,
        runDirectory: String?,
        user: Bool
    ) {
        func escaped(_ text: String) -> String { text.replacingOccurrences(of: "%", with: "%%") }
        self.binary = escaped(Self.absolute(binary, resolvingOnPATH: true))
        self.topology = escaped(Self.absolute(topologyPath))
        self.config = configPath.map { escaped(Self.absolute($0)) }
        self.runDirectory = runDirectory.map { escaped(Self.absolute($0)) } ?? "%S/containment"
        self.user = user
        localHosts = loaded.localHosts
        remoteHosts = loaded.hosts.filter { loaded.hostSettings[$0]?.remote == true }
        metrics = config.metricsPort > 0
        traces = !config.otlpEndpoint.isEmpty
    }

    /// `path` from the root; a bare command name (a binary as the shell found it) looked up on PATH.
    static func absolute(_ path: String, resolvingOnPATH: Bool = false) -> String {
        if resolvingOnPATH, !path.contains("/"), let found = ExecutablePath.find(path) { return found }
        let url = URL(fileURLWithPath: path, relativeTo: URL(fileURLWithPath: FileManager.default.currentDirectoryPath))
        return url.standardizedFileURL.path
    }

    /// Each unit's file name and text.
    public var files: [(name: String, text: String)] {
        [("containment-supervisor.service", supervisor)]
            + (metrics ? [("containment-metrics.service", metricsUnit)] : [])
            + (traces ? [("containment-traces.service", tracesUnit)] : [])
            + remoteHosts.map { ("containment-host-\($0).service", host($0)) }
    }

    /// `containment-web`, beside the binary.
    private var webBinary: String { (binary as NSString).deletingLastPathComponent + "/containment-web" }

    public var metricsUnit: String {
        webUnit(
            "metrics",
            says: "the supervisor's metrics over HTTP (metricsPort), served by\n"
                + "# containment-web while the supervisor runs."
        )
    }

    public var tracesUnit: String {
        webUnit(
            "traces",
            says: "the spans of traced commands exported to otlpEndpoint (OTLP/HTTP) by\n"
                + "# containment-web while the supervisor runs."
        )
    }

    /// `containment-web ROLE` bound to the supervisor's unit; `says`: what it is, for the file's first lines.
    private func webUnit(_ role: String, says: String) -> String {
        """
        # Written by `containment systemd`: \(says)
        [Unit]
        Description=Containment \(role) (containment-web \(role))
        BindsTo=containment-supervisor.service
        After=containment-supervisor.service

        [Service]
        Type=exec
        \(environment)
        ExecStart=\(exec([webBinary, role, "--pid-file", "\(runDirectory)/\(role).pid"]))
        Restart=on-failure
        RestartSec=1
        TimeoutStopSec=30
        KillSignal=SIGTERM

        [Install]
        WantedBy=containment-supervisor.service

        """
    }

    /// systemd's quoting of one argument of an Exec line: double quotes when it holds a space, a quote or a backslash.
    public static func quote(_ argument: String) -> String {
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

    public var supervisor: String {
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

    public func host(_ name: String) -> String {
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
