import ContainmentConfig
import ContainmentModel
import Metrics

/// What the supervisor counts, through swift-metrics: nothing is kept until a backend is bootstrapped (the supervisor
/// does, with `metricsPort`, and serves Prometheus text at `/metrics`). Its names are the series'
/// (docs/OPERATIONS.md has the list; `MetricsTests` reads each one). The supervisor reports the hosts too (up, pending deliveries): hosts export
/// nothing of their own.
struct SupervisorMetrics {
    /// The names of the series made later, one per error code or host.
    static let rejected = "containment_commands_rejected_total"
    static let pendingDeliveries = "containment_host_pending_deliveries"

    private let accepted = Counter(label: "containment_commands_accepted_total")
    /// By error code, made as codes are first seen.
    private var rejected: [String: Counter] = [:]
    let requestDuration = Metrics.Timer(label: "containment_request_duration_seconds")
    private let requestCommands = Recorder(label: "containment_request_commands", aggregate: true)
    let eventsPublished = Counter(label: "containment_events_published_total")
    let journalBytes = Counter(label: "containment_journal_bytes_total")
    let journalWrite = Metrics.Timer(label: "containment_journal_write_seconds")
    private let controllers = Gauge(label: "containment_controllers")
    private let hostsUp = Gauge(label: "containment_hosts_up")
    private let hostsKnown = Gauge(label: "containment_hosts")
    /// By host, made as hosts are first seen.
    private var pending: [String: Gauge] = [:]
    let outbox = Recorder(label: "containment_step_messages", aggregate: true)
    private let subscriberCount = Gauge(label: "containment_subscribers")

    /// Connections to the events socket: subscribers (and any peer still in its handshake).
    func subscribers(_ count: Int) { subscriberCount.record(count) }

    /// What a step's requests came to, and how many messages it sends.
    mutating func count(_ tally: SupervisorTally, messages: Int) {
        for size in tally.requestSizes { requestCommands.record(size) }
        if tally.accepted > 0 { accepted.increment(by: tally.accepted) }
        for code in tally.rejected { reject(code) }
        outbox.record(messages)
    }

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
