import ContainmentConfig
import ContainmentBus
import ContainmentModel

/// One record of the journal, read (docs/DURABILITY.md): what it accounts for, for the tools that check a journal
/// against what clients and subscribers saw (`stress`); ``JournalReplay`` replays it through the model.
public struct JournalEntry: Sendable {
    let record: Containment_V1_JournalRecord

    init(_ record: Containment_V1_JournalRecord) { self.record = record }

    /// A record's bytes, read (`malformed` when they are not a record).
    package init(decoding bytes: [UInt8]) throws(ContainmentError) {
        do {
            record = try Containment_V1_JournalRecord(serializedBytes: bytes)
        } catch {
            throw .malformed("not a journal record: \(error)")
        }
    }

    public var commandID: UInt64 { record.commandID }
    public var clientID: String { record.clientID }
    public var requestID: UInt64 { record.requestID }
    /// The seq of its first event, and how many it accounts for.
    public var firstSeq: UInt64 { record.firstSeq }
    public var eventCount: UInt32 { record.eventCount }
    /// A supervisor's start: its epoch (0: not a start).
    public var epoch: UInt64 { record.epoch }
    public var timeUnixNanos: Int64 { record.timeUnixNanos }
    /// It journals accepted commands: how many.
    public var holdsCommands: Bool { !record.commands.isEmpty }
    public var commandCount: Int { record.commands.count }
    /// A host's registration it journals with its host event (hostUp, hostRestarted): the host and its pid.
    public var host: String { record.host }
    public var pid: Int32 { record.pid }
    /// The hosts its creates name for their controllers, in order.
    public var createdHosts: [(ControllerID, String)] {
        record.commands.compactMap { command in
            guard case .create(let create)? = command.kind else { return nil }
            return (ControllerID(create.id), create.host)
        }
    }
    /// The refusal of a command the model refused.
    public var rejection: RemoteError? { record.hasRejection ? RemoteError(record.rejection) : nil }
    /// It journals a command the model refused.
    public var isRejection: Bool { record.hasRejection }
    /// The answers of controllers' code it was applied with (SPEC §15), and how many of them timed out.
    public var answerCount: Int { record.answers.count }
    public var timedOutAnswers: Int { record.answers.count(where: \.timedOut) }

    /// Whether its commands are those a client sent, but for the host a create names (the supervisor fills it in).
    package func journals(_ sent: [ClientCommand]) -> Bool {
        guard record.commands.count == sent.count else { return false }
        return zip(record.commands, sent).allSatisfy { journaled, sent in
            var journaled = journaled
            if case .create = journaled.kind { journaled.create.host = sent.wire.create.host }
            return journaled == sent.wire
        }
    }
}

extension JournalReplay {
    /// Every record of the journal in `directory`, in order, read (throws on damage; a torn tail is left out).
    public static func entries(at directory: String) throws -> [JournalEntry] {
        try records(at: directory).map(JournalEntry.init)
    }

    /// Every record of a replicated journal (`journal: etcd`), from its first batch kept, in order.
    package static func entries(from store: any EtcdStore, keys: EtcdKeys) throws -> [JournalEntry] {
        var entries: [JournalEntry] = []
        let end = EtcdKeys.end(of: keys.journalPrefix)
        var from = keys.journalPrefix
        while true {
            let page = try store.range(from, end: end, limit: 256)
            for entry in page.kvs {
                var scan = JournalScan()
                let number = EtcdKeys.number(of: entry.key, under: keys.journalPrefix) ?? 0
                try scan.readSegment(entry.value, path: "etcd:" + entry.key, number: number, isLast: false)
                entries += scan.records.map { JournalEntry($0.record) }
            }
            guard page.more, let last = page.kvs.last else { break }
            from = last.key + "\u{0}"
        }
        return entries
    }

    /// Applies one record: the events it publishes, numbered from its `firstSeq`, as published.
    package mutating func apply(_ entry: JournalEntry) throws(Mismatch) -> [BusEvent] {
        try apply(entry.record).map(BusEvent.init)
    }

    /// What the model answers at this point to commands that were rejected (``judgeRejected(_:answers:)``), given
    /// the answers their rejection's record holds.
    package mutating func judgeRejected(
        _ commands: [ClientCommand],
        refusedAs rejection: JournalEntry? = nil
    ) -> (RemoteError, Event?)? {
        judgeRejected(commands.map(\.wire), answers: rejection?.record.answers ?? [])
    }
}
