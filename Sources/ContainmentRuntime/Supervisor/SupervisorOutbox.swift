import Logging

/// The step the core is building: journal records, and the events and messages that may go out only once those records
/// are durable (SPEC §14, journal first), and what to log. ``take()`` hands it to the loop; ``recycle(_:)`` takes its
/// emptied lists back.
struct SupervisorOutbox {
    /// Journal records since the last ``take()``, in order.
    private(set) var records: [[UInt8]] = []
    /// Events and messages since the last ``take()``, in the order they are to go out.
    private(set) var outgoing: [SupervisorCore.Outgoing] = []
    /// The lists of the last step carried out, emptied: the next ``take()`` hands them on, so a busy supervisor does
    /// not allocate them anew every step.
    private var spare = SupervisorStep(records: [], outgoing: [])
    /// Lines for the log since the last ``take()``: the core decides what is worth saying, the loop says it.
    private(set) var logs: [SupervisorLog] = []

    var isEmpty: Bool { records.isEmpty && outgoing.isEmpty && logs.isEmpty }
    /// An event or a heartbeat is waiting for the PUB.
    var holdsPublication: Bool { outgoing.contains(where: \.isPublication) }

    mutating func journal(_ record: [UInt8]) { records.append(record) }

    mutating func append(_ message: SupervisorCore.Outgoing) { outgoing.append(message) }

    mutating func log(_ level: Logger.Level, _ message: Logger.Message, _ metadata: Logger.Metadata = [:]) {
        logs.append(SupervisorLog(level: level, message: message, metadata: metadata))
    }

    /// What to do now, handed over and forgotten.
    mutating func take() -> SupervisorStep {
        var step = SupervisorStep(records: records, outgoing: outgoing)
        if !logs.isEmpty {
            step.logs = logs
            logs = []
        }
        records = spare.records
        outgoing = spare.outgoing
        spare = SupervisorStep(records: [], outgoing: [])
        return step
    }

    /// Takes back a step ``take()`` handed out, once carried out.
    mutating func recycle(_ step: consuming SupervisorStep) {
        step.records.removeAll(keepingCapacity: true)
        step.outgoing.removeAll(keepingCapacity: true)
        step.logs = []
        spare = step
    }

    /// Removes the deliveries to `host` not handed out yet: their events in order, and whether one restored its actors.
    mutating func withdrawDeliveries(to host: String) -> (events: [[UInt8]], restores: Bool) {
        var withdrawn: [[UInt8]] = []
        var restores = false
        outgoing.removeAll { message in
            guard case .send(_, _, let delivery?) = message, delivery.host == host else { return false }
            withdrawn.append(contentsOf: delivery.events)
            restores = restores || delivery.restores
            return true
        }
        return (withdrawn, restores)
    }
}

/// What the core hands the loop: journal records to make durable, then what may go out; and what to log.
struct SupervisorStep {
    var records: [[UInt8]]
    var outgoing: [SupervisorCore.Outgoing]
    var logs: [SupervisorLog] = []
}

/// A line the core asks the loop to log.
struct SupervisorLog {
    var level: Logger.Level
    var message: Logger.Message
    var metadata: Logger.Metadata
}

extension SupervisorCore.Outgoing {
    /// An event or a heartbeat on the PUB.
    var isPublication: Bool {
        switch self {
        case .publish, .heartbeat: true
        case .send: false
        }
    }
}
