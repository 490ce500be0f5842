import ContainmentConfig
import ContainmentBus
import ContainmentModel

/// The journal's records as the supervisor writes them (docs/DURABILITY.md), one function per kind; the accepted
/// command's record, the hot path, is assembled from its commands' bytes (``PreEncoded/journalRecord``); `commands`
/// writes one for what makes records without a supervisor (the fuzz seeds, tests).

package enum JournalRecords {
    /// A supervisor began serving: its epoch.
    package static func start(epoch: UInt64, timeUnixNanos: Int64) -> [UInt8] {
        Containment_V1_JournalRecord.with {
            $0.epoch = epoch
            $0.timeUnixNanos = timeUnixNanos
        }.bytes
    }

    /// A command the model refused: its `ruleViolation` event's seq reserved, and the refusal remembered for the
    /// client's resends; with the answers of controllers' code it was refused with (SPEC §15: a view loaded by a
    /// form's code before an index was found out of range), so that a replay judges the refusal as it was made.
    /// Recovery applies none of them: a refusal changed nothing.
    package static func rejection(
        commandID: UInt64,
        timeUnixNanos: Int64,
        seq: UInt64,
        clientID: String,
        requestID: UInt64,
        _ rejection: RemoteError,
        answers: [(Question, Answer)] = []
    ) -> [UInt8] {
        Containment_V1_JournalRecord.with {
            $0.commandID = commandID
            $0.timeUnixNanos = timeUnixNanos
            $0.firstSeq = seq
            $0.eventCount = 1
            $0.clientID = clientID
            $0.requestID = requestID
            $0.rejection = Containment_V1_Error(rejection)
            $0.answers = answers.map { Containment_V1_GivenAnswer($0.0, $0.1) }
        }.bytes
    }

    /// A host event's seq reserved (so a restarted supervisor never reuses it); a host that came up or restarted
    /// with its pid (its registration, recovered).
    package static func hostEvent(_ event: Event, seq: UInt64, timeUnixNanos: Int64) -> [UInt8] {
        Containment_V1_JournalRecord.with {
            $0.timeUnixNanos = timeUnixNanos
            $0.firstSeq = seq
            $0.eventCount = 1
            if case .hostUp(let host, let pid) = event {
                $0.host = host
                $0.pid = Int32(clamping: pid)
            } else if case .hostRestarted(let host, let pid) = event {
                $0.host = host
                $0.pid = Int32(clamping: pid)
            }
        }.bytes
    }

    /// An answer a command was applied with, as its record holds it; each controller one of its creates makes runs on
    /// the host `placing` names for it (its id and kind), which the journaled create names.
    package static func givenAnswer(
        _ question: Question,
        _ answer: Answer,
        placing: (ControllerID, Kind) -> String?
    ) -> [UInt8] {
        var record = Containment_V1_GivenAnswer(question, answer)
        for index in record.commands.indices {
            guard case .create(let create)? = record.commands[index].kind,
                let host = placing(ControllerID(create.id), Kind(create.kind))
            else { continue }
            record.commands[index].create.host = host
        }
        return record.bytes
    }

    /// An accepted command's record: its commands (each create naming its host), the seqs of its events, the answers
    /// it was applied with.
    package static func commands(
        _ placed: [(request: Request, host: String?)],
        commandID: UInt64,
        firstSeq: UInt64,
        eventCount: UInt32,
        answers: [(Question, Answer)] = []
    ) -> [UInt8] {
        PreEncoded.journalRecord(
            commandID: commandID,
            timeUnixNanos: 0,
            commands: ReceivedCommands(placed: placed).journaled,
            firstSeq: firstSeq,
            eventCount: eventCount,
            answers: answers.map { givenAnswer($0.0, $0.1, placing: { _, _ in nil }) }
        )
    }
}
