import ContainmentModel
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
    /// What the requests since the last ``take()`` came to, for the loop's metrics.
    private(set) var tally = SupervisorTally()

    var isEmpty: Bool { records.isEmpty && outgoing.isEmpty && logs.isEmpty }
    /// An event or a heartbeat is waiting for the PUB.
    var holdsPublication: Bool { outgoing.contains(where: \.isPublication) }

    mutating func journal(_ record: [UInt8]) { records.append(record) }

    mutating func append(_ message: SupervisorCore.Outgoing) { outgoing.append(message) }

    mutating func log(_ level: Logger.Level, _ message: Logger.Message, _ metadata: Logger.Metadata = [:]) {
        logs.append(SupervisorLog(level: level, message: message, metadata: metadata))
    }

    /// A request of `commands` commands arrived.
    mutating func countRequest(commands: Int) { tally.requestSizes.append(commands) }
    /// A transaction was accepted.
    mutating func countAccepted() { tally.accepted += 1 }
    /// A request was refused (by the model, or before it).
    mutating func countRejected(_ code: ContainmentError.Code) { tally.rejected.append(code) }

    /// What to do now, handed over and forgotten.
    mutating func take() -> SupervisorStep {
        var step = SupervisorStep(records: records, outgoing: outgoing, tally: tally)
        if !logs.isEmpty {
            step.logs = logs
            logs = []
        }
        records = spare.records
        outgoing = spare.outgoing
        tally = spare.tally
        spare = SupervisorStep(records: [], outgoing: [])
        return step
    }

    /// Takes back a step ``take()`` handed out, once carried out.
    mutating func recycle(_ step: consuming SupervisorStep) {
        step.records.removeAll(keepingCapacity: true)
        step.outgoing.removeAll(keepingCapacity: true)
        step.tally.requestSizes.removeAll(keepingCapacity: true)
        step.tally.accepted = 0
        step.tally.rejected.removeAll(keepingCapacity: true)
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

/// What the core hands the loop: journal records to make durable, then what may go out; what to log, and what to
/// count.
struct SupervisorStep {
    var records: [[UInt8]]
    var outgoing: [SupervisorCore.Outgoing]
    var tally = SupervisorTally()
    var logs: [SupervisorLog] = []
}

/// What the requests of a step came to: the loop's metrics count it (the core keeps none).
struct SupervisorTally: Equatable {
    /// The commands of each request, in order.
    var requestSizes: [Int] = []
    var accepted = 0
    /// The code of each refusal, in order.
    var rejected: [ContainmentError.Code] = []
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
