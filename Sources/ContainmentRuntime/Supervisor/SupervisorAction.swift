import ContainmentConfig
import ContainmentBus
import ContainmentModel
import Logging

/// What the core decides, as values (DESIGN.md, "a pure core between I/O stages"): ``SupervisorCore/handle(_:at:)``
/// and ``SupervisorCore/tick(at:)`` return them, and whoever runs the core — ``SupervisorLoop`` on real sockets, a
/// simulated world, a test — carries them out in order, journal first: nothing published, answered or delivered
/// before every journal record before it is durable (SPEC §14). The core encodes nothing; ``SupervisorStep`` encodes
/// each event once.
package enum SupervisorAction {
    /// A journal record to append.
    case journal(JournalRecord)
    /// An event on the PUB.
    case publish(StampedEvent)
    /// The idle PUB's heartbeat: the epoch and the latest seq (nothing journaled stands behind it).
    case heartbeat(epoch: UInt64, seq: UInt64, timeUnixNanos: Int64)
    /// An answer to a request of `peer`, or a message to a host (its welcome, a question, a forwarded inspect).
    case reply(to: [UInt8], requestID: UInt64, SupervisorReply)
    /// Callbacks (or the welcome that restores its actors) for a host, on its connection `peer`: if it cannot go,
    /// it comes back to the core (``SupervisorInput/congested(_:)``, ``SupervisorInput/unreachable(peer:delivery:)``).
    case deliver(to: [UInt8], OutgoingDelivery)
    /// The deliveries to `host` not carried out yet are void: the core took them back (the host is down, or
    /// registered on another connection) and keeps them for it, in order.
    case withdraw(host: String)
    /// The metrics' text, as the loop keeps them, to `peer` (or a refusal where none are kept).
    case metrics(to: [UInt8], requestID: UInt64)
    /// A line the core asks to log.
    case log(SupervisorLog)
    /// What a request came to, for the loop's metrics.
    case count(SupervisorCount)
    /// A traced command's way through the core, which the driver ends as it carries the step out (``StepTracer``).
    case trace(CommandTrace)

    /// Whether it is a `withdraw` (told without copying a payload).
    var isWithdrawal: Bool {
        if case .withdraw = self { true } else { false }
    }
}

/// An event as the supervisor sequenced it: its seq, the command that caused it, when, under which epoch; and for a
/// `controllerCreated`, the host it runs on.
package struct StampedEvent: Equatable {
    var event: Event
    var seq: UInt64
    var timeUnixNanos: Int64
    var commandID: UInt64
    var host: String
    var epoch: UInt64

    /// Its bytes, as published, delivered and replied.
    func encoded() -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(96)
        append(to: &bytes)
        return bytes
    }

    /// Appends its bytes to `bytes`.
    func append(to bytes: inout [UInt8]) {
        PreEncoded.appendEvent(
            event,
            seq: seq,
            timeUnixNanos: timeUnixNanos,
            commandID: commandID,
            host: host,
            epoch: epoch,
            to: &bytes
        )
    }
}

/// The answer to a request, as the core decides it.
package enum SupervisorReply {
    /// A refusal, a snapshot, a welcome, an inspect report, a question: a message of its own.
    case message(SupervisorMessage)
    /// Commands accepted: their command id, their events, and a typed method's result.
    case accepted(commandID: UInt64, events: [StampedEvent], result: String? = nil)
    /// An answer as a checkpoint kept it (``ClientReplies``, recovered): sent again as it was. `events`: an accepted
    /// one's command id and events' seqs, when it is large enough to be worth keeping without them.
    case recorded([UInt8], events: AnswerEvents? = nil)
    /// An accepted answer kept without its events (``ClientReplies``): what a resend gets instead of them.
    case elided(AnswerEvents)
    /// The state, as shared by every request for it while nothing in it changes (``SupervisorCore/sharedSnapshot()``).
    case snapshot(SharedSnapshot)

    /// Its bytes for `requestID`; `events` gives each event's bytes (encoded once per step by ``SupervisorStep``).
    func bytes(
        requestID: UInt64,
        events encode: (StampedEvent) -> ArraySlice<UInt8> = { $0.encoded()[...] }
    ) -> [UInt8] {
        switch self {
        case .message(let message): message.bytes(requestID: requestID)
        case .accepted(let commandID, let events, let result):
            PreEncoded.accepted(
                requestID: requestID,
                commandID: commandID,
                events: events.map(encode),
                result: result
            )
        case .recorded(let bytes, _): bytes
        case .snapshot(let shared): PreEncoded.snapshot(requestID: requestID, encoded: shared.encoded)
        case .elided(let answer):
            PreEncoded.accepted(
                requestID: requestID,
                commandID: answer.commandID,
                events: [],
                elided: (answer.firstSeq, answer.count)
            )
        }
    }

    /// The refusal it is, if it is one.
    var refusal: RemoteError? {
        if case .message(let message) = self { message.refusal } else { nil }
    }
}

/// An accepted answer's command id and the seqs of its events: what exactly-once keeps of an answer too large to
/// keep whole.
package struct AnswerEvents: Equatable {
    var commandID: UInt64
    var firstSeq: UInt64
    var count: UInt32
}

/// What a message to a host carries that must not be lost if it cannot go: callbacks, or the welcome that restores
/// its actors.
package struct OutgoingDelivery {
    var host: String
    var events: [StampedEvent]
    /// The welcome that restores the host's actors from their controllers' state, instead of callbacks.
    var restoring: SupervisorMessage?

    init(host: String, events: [StampedEvent]) {
        self.host = host
        self.events = events
    }

    init(host: String, restoring welcome: SupervisorMessage) {
        self.host = host
        events = []
        restoring = welcome
    }

    var restores: Bool { restoring != nil }
}

/// A journal record as the core decides it; ``encoded()`` writes it as docs/DURABILITY.md says.
package enum JournalRecord {
    /// A supervisor began serving: its epoch.
    case start(epoch: UInt64, timeUnixNanos: Int64)
    /// Commands accepted: as received (each create naming its host), their events' seqs, the answers of controllers'
    /// code they were applied with.
    case accepted(
        commandID: UInt64,
        timeUnixNanos: Int64,
        commands: ReceivedCommands,
        firstSeq: UInt64,
        eventCount: UInt32,
        clientID: String,
        requestID: UInt64,
        answers: [PlacedAnswer]
    )
    /// Commands the model refused: the `ruleViolation`'s seq reserved, the refusal, the answers it was refused with.
    case rejection(
        commandID: UInt64,
        timeUnixNanos: Int64,
        seq: UInt64,
        clientID: String,
        requestID: UInt64,
        RemoteError,
        answers: [(Question, Answer)]
    )
    /// A host event's seq reserved (a registration: with the host and its pid).
    case hostEvent(Event, seq: UInt64, timeUnixNanos: Int64)

    func encoded() -> [UInt8] {
        switch self {
        case .start(let epoch, let time): JournalRecords.start(epoch: epoch, timeUnixNanos: time)
        case .accepted(
            let commandID,
            let time,
            let commands,
            let firstSeq,
            let count,
            let client,
            let request,
            let answers
        ):
            PreEncoded.journalRecord(
                commandID: commandID,
                timeUnixNanos: time,
                commands: commands.journaled,
                firstSeq: firstSeq,
                eventCount: count,
                clientID: client,
                requestID: request,
                answers: answers.map { placed in
                    JournalRecords.givenAnswer(placed.question, placed.answer) { id, _ in placed.hosts[id] }
                }
            )
        case .rejection(let commandID, let time, let seq, let client, let request, let error, let answers):
            JournalRecords.rejection(
                commandID: commandID,
                timeUnixNanos: time,
                seq: seq,
                clientID: client,
                requestID: request,
                error,
                answers: answers
            )
        case .hostEvent(let event, let seq, let time): JournalRecords.hostEvent(event, seq: seq, timeUnixNanos: time)
        }
    }
}

/// An answer of controllers' code a command was applied with, and the host of each controller its creates make.
package struct PlacedAnswer {
    var question: Question
    var answer: Answer
    var hosts: [ControllerID: String] = [:]
}

/// A line the core asks the loop to log.
package struct SupervisorLog {
    package var level: Logger.Level
    package var message: Logger.Message
    package var metadata: Logger.Metadata
}

/// What a request came to: the loop's metrics count it (the core keeps none).
package enum SupervisorCount: Equatable {
    /// A request of this many commands arrived.
    case request(commands: Int)
    case accepted
    case rejected(ContainmentError.Code)
}
