import ArgumentParser
import ContainmentBus
import ContainmentHost
import ContainmentRuntime
import Foundation

/// `containment journal verify|stats|repair`: the journal directory checked, counted, or cut at damage.
struct JournalCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "journal",
        abstract: "Check, count or repair the supervisor's journal.",
        discussion: """
            The journal is the run directory's journal/ (runtime.yaml key `journal`). See docs/DURABILITY.md.
            """,
        subcommands: [Verify.self, Stats.self, Events.self, Repair.self]
    )

    struct Location: ParsableArguments {
        @Option(help: "The journal directory (default: the configured one).")
        var path: String?

        @OptionGroup var runtime: RuntimeOptions

        func directory() throws -> String { try path ?? runtime.load().journalPath }
    }

    struct Verify: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Check every record's checksum and replay them through the model; exit 1 on damage.",
            discussion: "A torn last record (an append a supervisor died in) is reported but is not damage."
        )
        @OptionGroup var location: Location

        func run() throws {
            let directory = try location.directory()
            let inspection = JournalInspection(directory: directory, replay: true)
            let stats = inspection.stats
            print(
                "journal \(directory): \(inspection.segments.count) segments, \(inspection.records.count) whole records, "
                    + "seq 1…\(stats.lastSeq), command ids 1…\(stats.lastCommandID), \(stats.starts) supervisor starts"
                    + " after the checkpoint"
            )
            print(
                inspection.startCheckpoint.map {
                    "replay starts from \($0) (\(inspection.checkpointRecords) records before it)"
                } ?? "replay starts from segment 1 (no checkpoint)"
            )
            for skipped in inspection.skippedCheckpoints {
                print("warning: a checkpoint does not read back, an older one is used: \(skipped)")
            }
            if let torn = inspection.tornTail {
                print("torn tail (cut at the next start, never acknowledged): \(torn)")
            }
            if let damage = inspection.damage {
                print("DAMAGED: \(damage)")
                throw ExitCode(1)
            }
            print("ok: the supervisor recovers this journal")
        }
    }

    struct Stats: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Count the journal's records by kind.")
        @OptionGroup var location: Location

        @Flag(help: "One JSON object.")
        var json = false

        func run() throws {
            let directory = try location.directory()
            let inspection = JournalInspection(directory: directory, replay: false)
            let stats = inspection.stats
            let figures: [(String, Any)] = [
                ("segments", inspection.segments.count), ("bytes", inspection.bytes),
                ("checkpoints", inspection.checkpoints.count), ("startSegment", inspection.startSegment),
                ("checkpointRecords", Int(inspection.checkpointRecords)),
                ("records", inspection.records.count), ("acceptedCommands", stats.accepted),
                ("commandsInThem", stats.commands), ("rejectedCommands", stats.rejected),
                ("hostEvents", stats.hostEvents), ("supervisorStarts", stats.starts), ("events", Int(stats.events)),
                ("lastSeq", Int(stats.lastSeq)), ("lastCommandID", Int(stats.lastCommandID)),
                ("epoch", Int(stats.lastEpoch)), ("clients", stats.clients.count),
                ("tornTail", inspection.tornTail != nil), ("damaged", inspection.damage != nil),
            ]
            if json {
                let object = Dictionary(uniqueKeysWithValues: figures)
                let data = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
                print(String(decoding: data, as: UTF8.self))
            } else {
                for (name, value) in figures { print("\(name): \(value)") }
            }
        }
    }

    struct Events: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Every event the journal holds, from seq 1, as `watch` prints them: the journal replayed.",
            discussion: """
                The records are replayed through the model as the supervisor recovers them, so the events are the \
                ones it published, with their seqs and epochs: the topology's own events too, which a `watch` started \
                later never saw. Reads a journal a supervisor is writing (its last, unfinished record is left out). \
                A journal whose first segments were removed (journalRetain) cannot be replayed from seq 1: exit 1.
                """
        )
        @OptionGroup var location: Location

        @Option(help: "Only the events from this seq on.")
        var from: UInt64 = 1

        @Option(help: "Only events about this controller (repeatable).")
        var controller: [String] = []

        @Flag(help: "One JSON object per line, as `watch --json`.")
        var json = false

        func run() throws {
            let directory = try location.directory()
            var replay = JournalReplay()
            var pids: [String: Int32] = [:]  // each host's process, as its registrations name it
            let records: [Containment_V1_JournalRecord]
            do {
                records = try JournalReplay.records(at: directory)
                for record in records {
                    for event in try replay.apply(record)
                    where event.seq >= from && (controller.isEmpty || controller.contains(event.controller)) {
                        print(json ? event.json : event.line)
                    }
                    if record.commands.isEmpty, record.eventCount > 0, record.firstSeq >= from, controller.isEmpty {
                        print(unreplayed(record, epoch: replay.epoch, before: pids[record.host]))
                    }
                    if !record.host.isEmpty { pids[record.host] = record.pid }
                }
            } catch {
                FileHandle.standardError.write(Data("journal \(directory): \(error)\n".utf8))
                throw ExitCode(1)
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

    struct Repair: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Cut the journal at its damage (or torn tail), keeping a backup of what is cut.",
            discussion: """
                Without --force it only says what it would do. The damaged segment and every later one are copied \
                into journal/backup-TIME/ first. Refused while a supervisor serves the run directory.
                """
        )
        @OptionGroup var location: Location

        @Flag(help: "Cut the journal (otherwise: say what would be cut).")
        var force = false

        func run() throws {
            let directory = try location.directory()
            let config = try location.runtime.load()
            let inspection = JournalInspection(directory: directory, replay: true)
            guard let plan = inspection.repairPlan else {
                if let damage = inspection.damage {
                    print("journal \(directory): cannot be repaired by cutting it: \(damage)")
                    throw ExitCode(1)
                }
                print("journal \(directory): nothing to repair")
                return
            }
            print(
                "would cut \(plan.segment) at byte \(plan.offset)"
                    + (plan.later.isEmpty ? "" : " and remove \(plan.later.joined(separator: ", "))")
            )
            print("keeping \(inspection.records.count) whole records before it")
            guard force else {
                print("run again with --force to do it (a backup is kept)")
                throw ExitCode(1)
            }
            let lock: RunLock
            do {
                lock = try RunLock(runDirectory: config.runDirectory)
            } catch {
                throw ValidationError(error.description)
            }
            defer { lock.release() }
            let backup = directory + "/backup-\(Int(Date().timeIntervalSince1970))"
            let saved = try inspection.repair(backup: backup)
            print("repaired; the cut segments are kept in \(backup) (\(saved.count) files)")
        }
    }
}
