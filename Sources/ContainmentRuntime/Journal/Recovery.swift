import ContainmentBus
import ContainmentModel
import Foundation
import Logging

/// What a supervisor finds in its journal when it starts (SPEC §14, "Recovery"): the state, each controller's host,
/// the seq, command id and epoch reached, and the answers to remember for resends — from every record. A torn last record is cut (with a warning naming it); damage before the tail is thrown.
struct Recovery {
    var replay = JournalReplay()
    var clients: ClientReplies
    /// Records of accepted commands recovered (0: a new journal).
    var commandRecords = 0
    /// All records read.
    var records = 0
    /// Where the writer goes on: the last segment and its valid length (0: begin it).
    var segment = 1
    var endOffset = 0
    var tornTail: JournalScan.TornTail?

    init(clients: ClientReplies) {
        self.clients = clients
    }

    static func run(config: RuntimeConfig, logger: Logger) throws -> Recovery {
        var recovery = Recovery(clients: ClientReplies(window: config.dedupWindow, clients: config.dedupClients))
        let scan = try JournalScan.read(directory: config.journalPath)
        if let torn = scan.tornTail {
            logger.warning(
                "journal: cut a torn last record (an append the supervisor died in; it was never acknowledged)",
                metadata: [
                    "path": "\(torn.path)", "offset": "\(torn.offset)", "bytes": "\(torn.bytes)",
                    "reason": "\(torn.reason)",
                ]
            )
        }
        recovery.tornTail = scan.tornTail
        for located in scan.records {
            do {
                try recovery.apply(located.record)
            } catch {
                throw JournalDamage(
                    path: config.journalPath + "/" + JournalFormat.segmentName(located.segment),
                    offset: located.offset,
                    reason: "the record does not replay through the model: \(error)"
                )
            }
        }
        recovery.records = scan.records.count
        recovery.segment = scan.segments.last ?? 1
        recovery.endOffset = scan.segments.isEmpty ? 0 : scan.endOffset
        return recovery
    }

    /// Replays one record, remembering the answer its client got.
    mutating func apply(_ record: Containment_V1_JournalRecord) throws(JournalReplay.Mismatch) {
        let events = try replay.apply(record)
        if !record.commands.isEmpty { commandRecords += 1 }
        guard !record.clientID.isEmpty else { return }
        let answer: [UInt8] =
            record.hasRejection
            ? ServerMessage.with {
                $0.requestID = record.requestID
                $0.body = .error(record.rejection)
            }.bytes
            : PreEncoded.accepted(requestID: record.requestID, commandID: record.commandID, events: events.map(\.bytes))
        clients.remember(client: record.clientID, requestID: record.requestID, answer: answer)
    }
}
