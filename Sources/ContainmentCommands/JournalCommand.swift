import ArgumentParser
import ContainmentCtl
import ContainmentBus
import ContainmentHost
import ContainmentConfig
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
            let report = JournalInspection(directory: directory, replay: true).verification(of: directory)
            for line in report.lines { print(line) }
            if report.damaged { throw ExitCode(1) }
        }
    }

    struct Stats: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Count the journal's records by kind.")
        @OptionGroup var location: Location

        @Flag(help: "One JSON object.")
        var json = false

        func run() throws {
            let directory = try location.directory()
            let figures = JournalInspection(directory: directory, replay: false).figures
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
            do {
                try JournalEvents(directory: directory, from: from, controllers: Set(controller), json: json).lines {
                    print($0)
                }
            } catch {
                FileHandle.standardError.write(Data("journal \(directory): \(error)\n".utf8))
                throw ExitCode(1)
            }
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
