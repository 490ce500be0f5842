import ContainmentModel
import Metrics

/// What the supervisor counts, through swift-metrics: nothing is kept until a backend is bootstrapped (the supervisor
/// does, with `metricsPort`, and serves Prometheus text at `/metrics`). Its names are the series'
/// (docs/OPERATIONS.md has the list). The supervisor reports the hosts too (up, pending deliveries): hosts export
/// nothing of their own.
struct SupervisorMetrics {
    static let accepted = "containment_commands_accepted_total"
    static let rejected = "containment_commands_rejected_total"
    static let requestDuration = "containment_request_duration_seconds"
    static let requestCommands = "containment_request_commands"
    static let eventsPublished = "containment_events_published_total"
    static let journalBytes = "containment_journal_bytes_total"
    static let journalSync = "containment_journal_write_seconds"
    static let controllers = "containment_controllers"
    static let hostsUp = "containment_hosts_up"
    static let hostsKnown = "containment_hosts"
    static let pendingDeliveries = "containment_host_pending_deliveries"
    static let outbox = "containment_step_messages"
    static let subscribersName = "containment_subscribers"

    private let accepted = Counter(label: Self.accepted)
    /// By error code, made as codes are first seen.
    private var rejected: [String: Counter] = [:]
    let requestDuration = Metrics.Timer(label: Self.requestDuration)
    private let requestCommands = Recorder(label: Self.requestCommands, aggregate: true)
    let eventsPublished = Counter(label: Self.eventsPublished)
    let journalBytes = Counter(label: Self.journalBytes)
    let journalWrite = Metrics.Timer(label: Self.journalSync)
    private let controllers = Gauge(label: Self.controllers)
    private let hostsUp = Gauge(label: Self.hostsUp)
    private let hostsKnown = Gauge(label: Self.hostsKnown)
    /// By host, made as hosts are first seen.
    private var pending: [String: Gauge] = [:]
    let outbox = Recorder(label: Self.outbox, aggregate: true)
    private let subscriberCount = Gauge(label: Self.subscribersName)

    /// Connections to the events socket: subscribers (and any peer still in its handshake).
    func subscribers(_ count: Int) { subscriberCount.record(count) }

    /// A request of `commands` commands arrived.
    func request(commands: Int) { requestCommands.record(commands) }

    func accept() { accepted.increment() }

    mutating func reject(_ code: ContainmentError.Code) {
        if let counter = rejected[code.rawValue] {
            counter.increment()
        } else {
            let counter = Counter(label: Self.rejected, dimensions: [("code", code.rawValue)])
            rejected[code.rawValue] = counter
            counter.increment()
        }
    }

    /// The state's and the hosts' gauges, after a step.
    mutating func observe(controllers count: Int, hosts: [String: SupervisorCore.HostRecord]) {
        controllers.record(count)
        hostsKnown.record(hosts.count)
        var up = 0
        for (name, host) in hosts {
            if host.up { up += 1 }
            let gauge =
                pending[name]
                ?? {
                    let made = Gauge(label: Self.pendingDeliveries, dimensions: [("host", name)])
                    pending[name] = made
                    return made
                }()
            gauge.record(host.pending.count)
        }
        hostsUp.record(up)
    }
}
