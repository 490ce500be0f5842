import ArgumentParser
import ContainmentHost
import ContainmentConfig
import ContainmentRuntime
import Foundation
import Logging
import ServiceLifecycle

struct SupervisorCommand: AsyncParsableCommand {
    /// The etcd store of `containment`, which links no etcd client (never called: the command stops first).
    @Sendable static func noEtcd(_ settings: EtcdSettings) throws -> any EtcdStore {
        throw EtcdClientMissing(what: "containment supervisor")
    }

    static let configuration = CommandConfiguration(
        commandName: "supervisor",
        abstract: "Run the supervisor: the authority that validates, orders, journals and publishes every mutation."
    )

    @OptionGroup var daemon: DaemonOptions

    @Option(help: "A topology to create at start (Config/topologies/*.yaml).")
    var topology: String?

    @Flag(
        help: """
            Start the topology's hosts (a host already running is adopted) and start each again when it ends, per \
            runtime.yaml's hostRestart, maxRestarts and restartWindowMs.
            """
    )
    var startHosts = false

    @Option(
        help: """
            Which of runtime.yaml's supervisors this is (journal: etcd): it binds that one's endpoints, stands by, and             leads when no other does.
            """
    )
    var name: String?

    func run() async throws {
        var config = try daemon.config()
        if let name = name ?? ProcessInfo.processInfo.environment["CONTAINMENT_SUPERVISOR"] {
            do {
                config = try config.selecting(supervisor: name)
            } catch let error as ConfigError {
                throw ValidationError(error.description)
            }
        }
        // journal: etcd needs etcd's client, which only `containment-etcd` links: said before anything starts.
        let etcd = EtcdSupport.current
        if case .etcd = config.journalStore, etcd == nil { throw EtcdClientMissing(what: "containment supervisor") }
        let logger = daemon.logger("containment.supervisor", format: config.logFormat)
        // Before the supervisor makes its metrics: they bind to the backend bootstrapped then.
        let metricsText = config.metricsPort > 0 ? MetricsBootstrap.start() : nil
        let topology: Topology?
        do {
            topology = try self.topology.map { try Topology.load(path: $0, kindsOf: .builtIn) }
        } catch let error as ConfigError {
            throw ValidationError(error.description)
        }
        try await serve(
            SupervisorService(
                config: config,
                topology: topology,
                pidFile: daemon.pidFile,
                logger: logger,
                startHosts: startHosts,
                metricsText: metricsText,
                etcdStore: etcd?.store ?? Self.noEtcd
            ),
            logger: logger
        )
    }
}

struct HostCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "host",
        abstract: "Run a host: a process that runs controller actors, one actor per controller."
    )

    @OptionGroup var options: HostOptions

    func run() async throws {
        try await options.serve(kinds: .builtIn)
    }
}
