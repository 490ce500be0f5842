import ContainmentConfig
import ContainmentBus
import ContainmentModel

/// The supervisor's journal replayed through the model: the state it rebuilds, each controller's host, and the events
/// each record publishes — stamped exactly as the supervisor stamps them, so they compare equal to the published ones.
public struct JournalReplay: Sendable {
    public private(set) var state = ContainmentState()
    /// Which host runs each controller, from the journaled creations.
    public private(set) var hostOf = IDTable<ControllerID, String>()
    /// The epoch of the latest supervisor start replayed (events published after it carry it).
    public private(set) var epoch: UInt64 = 0
    /// The highest seq and command id the records account for.
    public private(set) var lastSeq: UInt64 = 0
    public private(set) var lastCommandID: UInt64 = 0

    public init() {}

    /// Goes on from a checkpoint: the state after the records it stands for.
    /// Replays with the runtime's model settings (``RuntimeConfig/configure(_:)``), as its supervisor decided.
    mutating func take(_ config: RuntimeConfig) { config.configure(&state) }

    init(_ checkpoint: Checkpoint) {
        state = checkpoint.state
        hostOf = checkpoint.hostOf
        epoch = checkpoint.epoch
        lastSeq = checkpoint.lastSeq
        lastCommandID = checkpoint.lastCommandID
    }

    /// Every record of the journal in `directory`, in order (throws on damage; a torn tail is left out): from the first
    /// segment, whatever checkpoints there are (tests and `stress` read a journal whose segments are all kept).
    public static func records(at directory: String) throws -> [Containment_V1_JournalRecord] {
        try JournalScan.read(directory: directory).records.map(\.record)
    }

    /// Why a record does not replay.
    public struct Mismatch: Error, CustomStringConvertible, Sendable {
        public let description: String
    }

    /// Applies one record: the events it publishes, numbered from its `firstSeq`. Throws when the model refuses it or
    /// gives another number of events than the supervisor published.
    public mutating func apply(
        _ record: Containment_V1_JournalRecord,
        route: ((Int, Event, String) -> Void)? = nil
    ) throws(Mismatch) -> [WireEvent] {
        try applyStamped(record, route: route).map {
            WireEvent(
                $0.event,
                seq: $0.seq,
                timeUnixNanos: $0.timeUnixNanos,
                commandID: $0.commandID,
                host: $0.host,
                epoch: $0.epoch
            )
        }
    }

    /// ``apply(_:route:)``'s events as the supervisor stamped them, in model types.
    mutating func applyStamped(
        _ record: Containment_V1_JournalRecord,
        route: ((Int, Event, String) -> Void)? = nil
    ) throws(Mismatch) -> [StampedEvent] {
        let events = try advance(record, route: route)
        guard !events.isEmpty else { return [] }
        let creations = (record.commands + record.answers.flatMap(\.commands)).compactMap {
            wire -> (ControllerID, String)? in
            guard case .create(let create)? = wire.kind, !create.host.isEmpty else { return nil }
            return (ControllerID(create.id), create.host)
        }
        return events.enumerated().map { offset, event in
            var host = ""
            if case .controllerCreated(let id, _) = event { host = creations.last { $0.0 == id }?.1 ?? "" }
            return StampedEvent(
                event: event,
                seq: record.firstSeq + UInt64(offset),
                timeUnixNanos: record.timeUnixNanos,
                commandID: record.commandID,
                host: host,
                epoch: epoch
            )
        }
    }

    /// Applies one record without stamping its events for the wire (recovery of a record no client waits on).
    /// `route` is called with each event the supervisor delivered to a host, and the host (before a destroyed
    /// controller's host is forgotten).
    public mutating func advance(
        _ record: Containment_V1_JournalRecord,
        route: ((Int, Event, String) -> Void)? = nil
    ) throws(Mismatch) -> [Event] {
        lastCommandID = max(lastCommandID, record.commandID)
        if record.eventCount > 0 { lastSeq = max(lastSeq, record.firstSeq + UInt64(record.eventCount) - 1) }
        if record.epoch != 0 { epoch = record.epoch }
        // A start, a rejected command or host events: seqs and ids accounted for, nothing to apply.
        guard !record.commands.isEmpty else { return [] }
        let requests: [Request]
        do {
            requests = try record.commands.map { wire throws(ContainmentError) in
                try wire.request(hostTargets: controllers(on:))
            }
        } catch {
            throw Mismatch(description: "command \(record.commandID) cannot be decoded: \(error)")
        }
        let events: [Event]
        do {
            if record.answers.isEmpty {
                events = try state.apply(batch: requests)
            } else {
                // The answers its controllers' code gave (SPEC §15), given again: nothing else is asked.
                var given: [Question: Answer] = [:]
                for recorded in record.answers {
                    let (question, answer) = try recorded.model()
                    given[question] = answer
                }
                switch try state.apply(batch: requests, answers: Answers(given: given)) {
                case .committed(let applied): events = applied
                case .unanswered(let questions):
                    throw Mismatch(
                        description: "command \(record.commandID) asks \(questions[0]) again, answered in no record"
                    )
                }
            }
        } catch let error as Mismatch {
            throw error
        } catch let error as BatchError {
            throw Mismatch(description: "the model rejects journaled command \(record.commandID): \(error.error)")
        } catch {
            throw Mismatch(description: "command \(record.commandID)'s recorded answers cannot be decoded: \(error)")
        }
        guard events.count == record.eventCount else {
            throw Mismatch(
                description:
                    "command \(record.commandID) gives \(events.count) events; the supervisor published \(record.eventCount)"
            )
        }
        // The controllers it created, its answers' too (SPEC §15), with the hosts that run them.
        for wire in record.commands + record.answers.flatMap(\.commands) {
            if case .create(let create)? = wire.kind, !create.host.isEmpty {
                hostOf[ControllerID(create.id)] = create.host
            }
        }
        if let route {
            for (offset, event) in events.enumerated() where event.isDelivered {
                if let controller = event.controller, let host = hostOf[controller] { route(offset, event, host) }
            }
        }
        for case .controllerDestroyed(let id) in events { hostOf[id] = nil }
        return events
    }

    /// What the model answers at this point to commands that were rejected: the error with the index of the failing
    /// command and the `ruleViolation` event published for it, or `nil` when the model accepts them — then the state
    /// has changed, and the replay no longer stands for the supervisor's.
    public mutating func judgeRejected(
        _ commands: [WireCommand],
        answers: [Containment_V1_GivenAnswer] = []
    ) -> (RemoteError, Event?)? {
        var requests: [Request] = []
        for (index, wire) in commands.enumerated() {
            do {
                requests.append(try wire.request(hostTargets: controllers(on:)))
            } catch {
                return (RemoteError(error, index: index), nil)
            }
        }
        do {
            if answers.isEmpty {
                _ = try state.apply(batch: requests)
                return nil
            }
            // The answers its controllers' code gave before it was refused (SPEC §15), given again.
            var given: [Question: Answer] = [:]
            for recorded in answers {
                guard let (question, answer) = try? recorded.model() else { return nil }
                given[question] = answer
            }
            _ = try state.apply(batch: requests, answers: Answers(given: given))
            return nil
        } catch {
            return (
                RemoteError(error.error, index: error.index),
                state.violation(of: requests[error.index], error: error.error)
            )
        }
    }

    /// The controllers a host runs, as the supervisor resolves a memory warning to a host.
    public func controllers(on host: String) -> [ControllerID] {
        hostOf.filter { $0.value == host }.map(\.key).sorted()
    }
}
