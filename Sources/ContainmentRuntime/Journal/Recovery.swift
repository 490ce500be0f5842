import ContainmentConfig
import ContainmentBus
import ContainmentModel
import Foundation
import Logging

/// What a supervisor finds in its journal when it starts (SPEC §14, "Recovery"): the state, each controller's host,
/// the seq, command id and epoch reached, and the answers to remember for resends — from every record. A torn last record is cut (with a warning naming it); damage before the tail is thrown.
package struct Recovery {
    var replay = JournalReplay()
    var clients: ClientReplies
    /// Records of accepted commands replayed after the checkpoint.
    var commandRecords = 0
    /// All records replayed after the checkpoint.
    var records = 0
    /// The checkpoint recovery started from (the segment it replays from), and how many records it stands for.
    package var checkpoint: Int?
    package var checkpointRecords = 0
    /// The journal's records this recovery stands for: those of its checkpoint and those replayed after it.
    package var journalRecords: Int { checkpointRecords + records }
    /// Whether the journal holds a state (a checkpoint or an accepted command): then the topology is not applied.
    package var holdsState: Bool { checkpoint != nil || commandRecords > 0 }
    /// A standby that won the leadership stops following: the deliveries it recovered are all it will resend.
    package mutating func beginLeading() { deliveries.seal() }
    /// Where the writer goes on: the last segment and its valid length (0: begin it).
    package var segment = 1
    var endOffset = 0
    var tornTail: JournalScan.TornTail?
    /// The hosts that registered (from the journal's host records): the latest pid, and how many processes.
    var registrations: [String: (pid: Int32, incarnation: UInt32)] = [:]
    /// The deliveries of the journal's last records, for hosts that re-register.
    var deliveries = RecoveredDeliveries(capacity: 65_536)

    init(clients: ClientReplies) {
        self.clients = clients
    }

    static func run(config: RuntimeConfig, logger: Logger) throws -> Recovery {
        let directory = config.journalPath
        removeUnfinishedCheckpoints(in: directory)
        let start = try JournalStart.find(directory: directory, answers: ClientReplies.Limits(config))
        for skipped in start.skipped {
            logger.warning(
                "journal: a checkpoint does not read back; recovering from an older one",
                metadata: ["checkpoint.path": "\(skipped.path)", "error.message": "\(skipped.reason)"]
            )
        }
        var recovery = Recovery(from: start.checkpoint, config: config)
        var replayed = 0
        let scan = try JournalStream.read(directory: directory, from: start.firstSegment) { chunk in
            for located in chunk {
                try recovery.apply(located, at: directory + "/" + JournalFormat.segmentName(located.segment))
            }
            replayed += chunk.count
        }
        if let torn = scan.tornTail {
            logger.warning(
                "journal: cut a torn last record (an append the supervisor died in; it was never acknowledged)",
                metadata: [
                    "journal.path": "\(torn.path)", "journal.offset": "\(torn.offset)",
                    "journal.bytes": "\(torn.bytes)",
                    "error.message": "\(torn.reason)",
                ]
            )
        }
        recovery.tornTail = scan.tornTail
        recovery.records = replayed
        recovery.deliveries.seal()
        recovery.segment = scan.segments.last ?? 1
        recovery.endOffset = scan.segments.isEmpty ? 0 : scan.endOffset
        return recovery
    }

    /// Recovery begun from `checkpoint` (or from nothing), before the records after it are replayed.
    init(from checkpoint: Checkpoint?, config: RuntimeConfig) {
        self.init(
            clients: checkpoint?.clients ?? ClientReplies(ClientReplies.Limits(config))
        )
        if let checkpoint {
            deliveries = RecoveredDeliveries(capacity: deliveries.capacity, after: checkpoint.lastSeq)
            replay = JournalReplay(checkpoint)
            registrations = checkpoint.registrations
            self.checkpoint = checkpoint.nextSegment
            checkpointRecords = Int(checkpoint.records)
        }
        replay.take(config)
    }

    /// What a supervisor finds in a journal held in memory (a simulated disk): a checkpoint's bytes, if it wrote one,
    /// and the records after it, in order — as ``run(config:logger:)`` finds them in a directory.
    package static func replaying(
        _ records: [[UInt8]],
        checkpoint: [UInt8]? = nil,
        config: RuntimeConfig
    ) throws -> Recovery {
        let start = try checkpoint.map { bytes throws(JournalDamage) in
            try CheckpointFile.decode(bytes, path: "checkpoint", answers: ClientReplies.Limits(config))
        }
        var recovery = Recovery(from: start, config: config)
        for record in records { try recovery.apply(JournalEntry(decoding: record)) }
        recovery.records = records.count
        recovery.deliveries.seal()
        return recovery
    }

    /// Removes what a checkpoint write left when the supervisor died in it (`*.ckpt.tmp`).
    static func removeUnfinishedCheckpoints(in directory: String) {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        for name in names where name.hasPrefix("checkpoint-") && name.hasSuffix(".ckpt.tmp") {
            try? FileManager.default.removeItem(atPath: directory + "/" + name)
        }
    }

    /// Replays one record read back from `place` (a segment's path, an etcd key), damage there when the model does not
    /// take it.
    mutating func apply(_ located: JournalScan.Located, at place: String) throws(JournalDamage) {
        do {
            try apply(located.record)
        } catch {
            throw JournalDamage(
                path: place,
                offset: located.offset,
                reason: "the record does not replay through the model: \(error)"
            )
        }
    }

    /// Applies one record read (``JournalEntry``).
    mutating func apply(_ entry: JournalEntry) throws(JournalReplay.Mismatch) { try apply(entry.record) }

    /// Replays one record, remembering the answer its client got.
    mutating func apply(_ record: Containment_V1_JournalRecord) throws(JournalReplay.Mismatch) {
        if !record.commands.isEmpty { commandRecords += 1 }
        if !record.host.isEmpty {
            // A host's hostUp (again after a stall: the same pid) or hostRestarted (a new process).
            let known = registrations[record.host]
            let incarnation = (known?.incarnation ?? 0) + (known?.pid == record.pid ? 0 : 1)
            registrations[record.host] = (record.pid, incarnation)
        }
        var routed: [(Int, Event, String)] = []
        defer {
            for (offset, event, host) in routed {
                deliveries.keep(
                    .init(
                        event: event,
                        host: host,
                        seq: record.firstSeq + UInt64(offset),
                        timeUnixNanos: record.timeUnixNanos,
                        commandID: record.commandID,
                        epoch: replay.epoch
                    )
                )
            }
        }
        guard !record.clientID.isEmpty else {
            _ = try replay.advance(record) { routed.append(($0, $1, $2)) }
            return
        }
        let answer: SupervisorReply
        if record.hasRejection {
            _ = try replay.advance(record) { routed.append(($0, $1, $2)) }
            answer = .message(.refused(recorded: record.rejection))
        } else if !clients.keepsWhole(events: Int(record.eventCount)) {
            // Kept without its events anyway: they are not stamped.
            _ = try replay.advance(record) { routed.append(($0, $1, $2)) }
            answer = .elided(
                AnswerEvents(commandID: record.commandID, firstSeq: record.firstSeq, count: record.eventCount)
            )
        } else {
            let events = try replay.applyStamped(record) { routed.append(($0, $1, $2)) }
            answer = .accepted(commandID: record.commandID, events: events)
        }
        clients.remember(client: record.clientID, requestID: record.requestID, answer: answer)
    }
}
