import ContainmentConfig
import ContainmentBus
import Foundation

/// `containment journal verify` and `stats`: what an inspection found, as an operator reads it.
extension JournalInspection {
    /// `verify`'s lines, and whether the journal is damaged (a torn tail is not damage).
    public func verification(of directory: String) -> (lines: [String], damaged: Bool) {
        var lines = [
            "journal \(directory): \(segments.count) segments, \(records.count) whole records, "
                + "seq 1…\(stats.lastSeq), command ids 1…\(stats.lastCommandID), \(stats.starts) supervisor starts"
                + " after the checkpoint",
            startCheckpoint.map { "replay starts from \($0) (\(checkpointRecords) records before it)" }
                ?? "replay starts from segment 1 (no checkpoint)",
        ]
        for skipped in skippedCheckpoints {
            lines.append("warning: a checkpoint does not read back, an older one is used: \(skipped)")
        }
        if let tornTail { lines.append("torn tail (cut at the next start, never acknowledged): \(tornTail)") }
        if let damage {
            lines.append("DAMAGED: \(damage)")
            return (lines, true)
        }
        lines.append("ok: the supervisor recovers this journal")
        return (lines, false)
    }

    /// `stats`' figures, by name, in the order they are shown.
    public var figures: [(String, Any)] {
        [
            ("segments", segments.count), ("bytes", bytes), ("checkpoints", checkpoints.count),
            ("startSegment", startSegment), ("checkpointRecords", Int(checkpointRecords)),
            ("records", records.count), ("acceptedCommands", stats.accepted), ("commandsInThem", stats.commands),
            ("rejectedCommands", stats.rejected), ("hostEvents", stats.hostEvents),
            ("supervisorStarts", stats.starts), ("events", Int(stats.events)), ("lastSeq", Int(stats.lastSeq)),
            ("lastCommandID", Int(stats.lastCommandID)), ("epoch", Int(stats.lastEpoch)),
            ("clients", stats.clients.count), ("tornTail", tornTail != nil), ("damaged", damage != nil),
        ]
    }
}

/// `containment journal events`: every event a journal holds, replayed through the model as the supervisor recovers
/// them, as `watch` prints them (lines, or JSON objects).
public struct JournalEvents: Sendable {
    public let directory: String
    /// Only the events from this seq on.
    public var from: UInt64 = 1
    /// Only events about these controllers (every one when empty).
    public var controllers: Set<String> = []
    public var json = false

    public init(directory: String, from: UInt64 = 1, controllers: Set<String> = [], json: Bool = false) {
        self.directory = directory
        self.from = from
        self.controllers = controllers
        self.json = json
    }

    /// Each event's line, in seq order; throws when the journal cannot be replayed from seq 1.
    public func lines(_ line: (String) -> Void) throws {
        var replay = JournalReplay()
        var pids: [String: Int32] = [:]  // each host's process, as its registrations name it
        for record in try JournalReplay.records(at: directory) {
            for event in try replay.apply(record)
            where event.seq >= from && (controllers.isEmpty || controllers.contains(event.controller)) {
                line(json ? event.json : event.line)
            }
            if record.commands.isEmpty, record.eventCount > 0, record.firstSeq >= from, controllers.isEmpty {
                line(unreplayed(record, epoch: replay.epoch, before: pids[record.host]))
            }
            if !record.host.isEmpty { pids[record.host] = record.pid }
        }
    }

    /// The event of a record that holds no commands: a host's registration as published (hostRestarted when a
    /// process other than the one `before` registers); for a rejected command or another host event, what the
    /// journal keeps of it (its seq, and a rejection's answer).
    func unreplayed(_ record: Containment_V1_JournalRecord, epoch: UInt64, before: Int32?) -> String {
        if !record.host.isEmpty {
            let pid = Int(record.pid)
            let restarted = before.map { $0 != record.pid } ?? false
            let event = WireEvent(
                restarted ? .hostRestarted(host: record.host, pid: pid) : .hostUp(host: record.host, pid: pid),
                seq: record.firstSeq,
                timeUnixNanos: record.timeUnixNanos,
                commandID: 0,
                host: "",
                epoch: epoch
            )
            return json ? event.json : event.line
        }
        let seq = String(repeating: " ", count: max(0, 6 - String(record.firstSeq).count)) + String(record.firstSeq)
        if record.hasRejection {
            let error = record.rejection
            return json
                ? JSONText.encode([
                    "seq": record.firstSeq, "rejected": ["code": error.code, "message": error.message],
                ])
                : "\(seq)  ruleViolation: command \(record.commandID) rejected, \(error.code): \(error.message)"
        }
        return json
            ? JSONText.encode(["seq": record.firstSeq, "hostEvent": true])
            : "\(seq)  a host event (hostDown or hostFailed: the journal keeps its seq only)"
    }
}
