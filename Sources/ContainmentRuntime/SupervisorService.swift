import ContainmentConfig
import ContainmentBus
import Foundation
import Logging
import ServiceLifecycle
import ZeroMQ

/// `containment supervisor` as a `Service`: the loop on a thread of its own, stopped by graceful shutdown
/// (SIGTERM/SIGINT through the `ServiceGroup`), with its pid file written once it serves and removed when it stops.
public struct SupervisorService: Service {
    let config: RuntimeConfig
    let topology: Topology?
    let pidFile: String?
    let logger: Logger
    /// Start the topology's hosts and restart them per policy.
    let startHosts: Bool
    /// The metrics as Prometheus text, when they are kept (`metricsPort`): what a `metrics` request is answered.
    let metricsText: (@Sendable () -> [UInt8])?
    /// With `journal: etcd`: the store etcd is reached through (the `containment` executable gives ContainmentEtcd's).
    let etcdStore: (@Sendable (EtcdSettings) throws -> any EtcdStore)?

    public init(
        config: RuntimeConfig,
        topology: Topology?,
        pidFile: String?,
        logger: Logger,
        startHosts: Bool = false,
        metricsText: (@Sendable () -> [UInt8])? = nil
    ) {
        self.config = config
        self.topology = topology
        self.pidFile = pidFile
        self.logger = logger
        self.startHosts = startHosts
        self.metricsText = metricsText
        etcdStore = nil
    }

    /// A supervisor that may journal to etcd (`journal: etcd`) through `etcdStore`.
    package init(
        config: RuntimeConfig,
        topology: Topology?,
        pidFile: String?,
        logger: Logger,
        startHosts: Bool = false,
        metricsText: (@Sendable () -> [UInt8])? = nil,
        etcdStore: @escaping @Sendable (EtcdSettings) throws -> any EtcdStore
    ) {
        self.config = config
        self.topology = topology
        self.pidFile = pidFile
        self.logger = logger
        self.startHosts = startHosts
        self.metricsText = metricsText
        self.etcdStore = etcdStore
    }

    public func run() async throws {
        try config.checkBindable()
        try RunDirectory.prepare(config.runDirectory)
        // One supervisor per run directory: taken before anything in it is touched, held until everything this
        // supervisor made is removed again.
        let lock = try RunLock(runDirectory: config.runDirectory, name: config.supervisorName)
        defer { lock.release() }
        if case .etcd(let settings) = config.journalStore {
            guard let etcdStore else {
                throw ConfigError(
                    "journal: etcd is served by the containment executable's supervisor (it links etcd's client); "
                        + "this one journals to a directory only."
                )
            }
            try await runReplicated(store: try etcdStore(settings), settings: settings)
            return
        }
        let (config, topology, logger, pidFile, metricsText) = (config, topology, logger, pidFile, metricsText)
        let starter = hostStarter
        let failure = try await serveOnThread { _, context in
            let allow = try config.curve?.allowList(hosts: topology?.hosts ?? []) ?? [:]
            let loop = try SupervisorLoop(context: context, config: config, logger: logger, allow: allow)
            loop.metricsTextSource = metricsText
            if let topology { try loop.apply(topology) }
            if let pidFile { try RunDirectory.writePID(to: pidFile) }
            defer { if let pidFile { RunDirectory.removePID(pidFile) } }
            loop.hostSupervisor = starter()
            loop.run()
            // Stopped (SIGTERM, SIGINT): the hosts it started stop with it. A failed supervisor (its journal) leaves
            // them running, as a crash does, for the next one to adopt.
            if loop.failure == nil { _ = loop.hostSupervisor?.stopAll() }
            return loop.failure
        }
        if let failure { throw failure }
    }

    /// Starts the topology's hosts (`--start-hosts`), each again when it ends, per its restart policy; nil without.
    private var hostStarter: @Sendable () -> HostSupervisor? {
        let (config, topology, logger, startHosts) = (config, topology, logger, startHosts)
        return {
            guard startHosts, let topology else { return nil }
            let hosts = HostSupervisor(topology: topology, config: config, logger: logger)
            hosts.startAll()
            return hosts
        }
    }

    /// Runs `body` on the supervisor's own thread with a ZeroMQ context. It is stopped by a graceful shutdown
    /// (SIGTERM) or by the group's cancellation (a service beside it, such as the metrics server, failed): either way
    /// `stopping` is set and the context shut down, which ends the loop. However it ends, the context is terminated and
    /// the sockets' files removed (this supervisor holds the lock, so they are the ones it bound).
    private func serveOnThread<Value: Sendable>(
        _ body: @escaping @Sendable (StopFlag, Context) throws -> Value
    ) async throws -> Value {
        let context = try Context()
        let stopping = StopFlag()
        let (config, logger) = (config, logger)
        defer {
            context.shutdown()
            context.terminate()
            RunDirectory.removeSocket(config.commandEndpoint)
            RunDirectory.removeSocket(config.eventEndpoint)
        }
        return try await withTaskCancellationHandler {
            try await withGracefulShutdownHandler {
                try await runOnThread(named: "supervisor") { try body(stopping, context) }
            } onGracefulShutdown: {
                logger.info("supervisor stopping")
                stopping.set()
                context.shutdown()
            }
        } onCancel: {
            stopping.set()
            context.shutdown()
        }
    }

    /// A supervisor of a replicated runtime: standby and leader in turn (``ReplicatedSupervisor``) until stopped.
    private func runReplicated(store: any EtcdStore, settings: EtcdSettings) async throws {
        defer { store.close() }
        let (config, topology, logger, pidFile, metricsText) = (config, topology, logger, pidFile, metricsText)
        let starter = hostStarter
        try await serveOnThread { stopping, context in
            let allow = try config.curve?.allowList(hosts: topology?.hosts ?? []) ?? [:]
            let supervisor = ReplicatedSupervisor(
                context: context,
                config: config,
                store: store,
                settings: settings,
                logger: logger,
                stopping: stopping,
                onStandby: {
                    if let pidFile { try RunDirectory.writePID(to: pidFile) }
                },
                onLeading: { loop, recovery in
                    loop.metricsTextSource = metricsText
                    if let topology, !recovery.holdsState { try loop.apply(topology) }
                    loop.hostSupervisor = starter()
                }
            )
            defer { if let pidFile { RunDirectory.removePID(pidFile) } }
            try supervisor.run(allow: allow)
        }
    }
}
