import ArgumentParser
import ContainmentHost
import ContainmentConfig
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
            runs; with otlpEndpoint, containment-traces.service runs `containment-web traces`. A host the topology marks `remote` gets \
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
        let config = try runtime.load()
        // Units of a supervisor journaling to etcd run a binary with etcd's client: `containment-etcd`.
        if case .etcd = config.journalStore, binary == nil, EtcdSupport.current == nil {
            throw EtcdClientMissing(what: "containment systemd (a supervisor with journal: etcd)")
        }
        let units = SystemdUnits(
            topology: try Topology.load(path: topology),
            topologyPath: topology,
            config: config,
            configPath: runtime.config,
            binary: binary ?? CommandLine.arguments[0],
            runDirectory: runDir,
            user: user
        )
        try FileManager.default.createDirectory(atPath: output, withIntermediateDirectories: true)
        for (name, text) in units.files {
            let path = (output as NSString).appendingPathComponent(name)
            try text.write(toFile: path, atomically: true, encoding: .utf8)
            print(path)
        }
    }
}
