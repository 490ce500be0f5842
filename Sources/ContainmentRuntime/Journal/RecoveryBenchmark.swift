import ContainmentConfig
import ContainmentBus
import ContainmentModel
import Foundation
import Logging

/// `containment bench`'s recovery figures: a journal of many events, or a checkpoint of many controllers, written
/// into a directory, then recovered exactly as a starting supervisor recovers it (``Recovery``), timed.
public enum RecoveryBenchmark {
    /// One recovery: what was recovered, from how many bytes, how long it took.
    public struct Figure: Codable, Sendable {
        public var records: Int
        public var events: UInt64
        public var controllers: Int
        public var bytes: Int
        public var seconds: Double
        /// The answers kept for resends after it: how many clients, and the bytes of those kept whole.
        public var answerClients = 0
        public var answerBytes = 0
    }

    /// Writes a journal of at least `events` events into `directory` (segment files only): `controllers` content
    /// controllers created and their views loaded, 100 per record, then records of one `set_alpha` each (one event
    /// each), alternating 0.25 and 0.75 over the controllers, as `bench`'s pipelined clients send them.
    public static func writeJournal(events: Int, controllers: Int = 1_000, directory: String) throws {
        var journal = try Writing(directory: directory)
        let ids = (0..<controllers).map { ControllerID("r\($0)") }
        for start in stride(from: 0, to: ids.count, by: 100) {
            let slice = ids[start..<min(start + 100, ids.count)]
            try journal.append(slice.map { .system(.create($0, kind: .content)) })
            try journal.append(slice.map { Request(.loadView($0), by: .natural) })
        }
        var step = 0
        while journal.seq < UInt64(events) {
            let id = ids[step % ids.count]
            let alpha = (step / ids.count).isMultiple(of: 2) ? 0.25 : 0.75
            try journal.append([Request(.setAlpha(.root(id), alpha), by: .natural)])
            step += 1
        }
        journal.writer.finish()
    }

    /// Writes a journal of `controllers` content controllers with their views loaded (one record), then `warnings`
    /// records of one memory warning to all of them, each from a client id of its own — a journal whose answers are
    /// as large as answers get (a warning per controller each).
    public static func writeLargeAnswers(controllers: Int, warnings: Int, directory: String) throws {
        var journal = try Writing(directory: directory)
        let ids = (0..<controllers).map { ControllerID("r\($0)") }
        try journal.append(
            ids.map { .system(.create($0, kind: .content)) } + ids.map { Request(.loadView($0), by: .natural) }
        )
        for warning in 0..<warnings {
            try journal.append([.system(.memoryWarning(nil))], client: "client-\(warning)")
        }
        journal.writer.finish()
    }

    /// A journal being written as a supervisor writes it: a start record, then each batch applied to the model and
    /// journaled with its command id and seqs (placed on host h0).
    private struct Writing {
        let writer: JournalWriter
        var state = ContainmentState()
        var seq: UInt64 = 0
        var commandID: UInt64 = 0

        init(directory: String) throws {
            writer = try JournalWriter(
                directory: directory,
                segment: 1,
                size: 0,
                sync: .none,
                syncInterval: .seconds(1),
                segmentBytes: 64 << 20
            )
            try writer.append(serialized: Containment_V1_JournalRecord.with { $0.epoch = 1 }.bytes)
        }

        /// Applies and journals one batch; `client`: the client id it came from (request id 1), for exactly once.
        mutating func append(_ requests: [Request], client: String = "") throws {
            let produced = try state.apply(batch: requests)
            commandID += 1
            let record = Containment_V1_JournalRecord.with {
                $0.commandID = commandID
                $0.timeUnixNanos = 1
                $0.commands = requests.map { request in
                    var wire = WireCommand(request, host: "h0")
                    if request.by == .natural { wire.by = "" }
                    return wire
                }
                $0.firstSeq = seq + 1
                $0.eventCount = UInt32(produced.count)
                $0.clientID = client
                $0.requestID = client.isEmpty ? 0 : 1
            }
            seq += UInt64(produced.count)
            try writer.append(serialized: record.bytes)
        }
    }

    /// Writes a checkpoint of `controllers` content controllers (every tenth with its view loaded) into
    /// `directory`, and the empty segment recovery replays after it.
    public static func writeCheckpoint(controllers: Int, directory: String) throws {
        var state = ContainmentState()
        var hostOf = IDTable<ControllerID, String>()
        hostOf.reserveCapacity(controllers)
        let ids = (0..<controllers).map { ControllerID("r\($0)") }
        for start in stride(from: 0, to: ids.count, by: 1_000) {
            let slice = ids[start..<min(start + 1_000, ids.count)]
            _ = try state.apply(batch: slice.map { .system(.create($0, kind: .content)) })
            _ = try state.apply(
                batch: slice.filter { $0.rawValue.hasSuffix("0") }.map { Request(.loadView($0), by: .natural) }
            )
            for id in slice { hostOf[id] = "h\(id.rawValue.count % 16)" }
        }
        let writer = try JournalWriter(
            directory: directory,
            segment: 2,
            size: 0,
            sync: .none,
            syncInterval: .seconds(1),
            segmentBytes: 64 << 20
        )
        writer.finish()
        _ = try CheckpointFile.write(
            Checkpoint(
                nextSegment: 2,
                epoch: 1,
                lastSeq: UInt64(controllers),
                lastCommandID: UInt64(controllers / 1_000),
                records: UInt64(controllers / 1_000),
                state: state,
                hostOf: hostOf,
                clients: ClientReplies(ClientReplies.Limits(RuntimeConfig(runDirectory: directory)))
            ),
            directory: directory
        )
    }

    /// Recovers the journal in `directory` as a starting supervisor does, timed.
    public static func recover(directory: String) throws -> Figure {
        var config = RuntimeConfig(runDirectory: directory)
        config.journalPath = directory
        let logger = Logger(label: "bench") { _ in SwiftLogNoOpLogHandler() }
        let bytes = ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).reduce(0) {
            $0 + ((try? FileManager.default.attributesOfItem(atPath: directory + "/" + $1)[.size] as? Int) ?? 0)
        }
        let clock = ContinuousClock()
        let started = clock.now
        let recovery = try Recovery.run(config: config, logger: logger)
        let took = clock.now - started
        return Figure(
            records: recovery.checkpointRecords + recovery.records,
            events: recovery.replay.lastSeq,
            controllers: recovery.replay.state.controllers.count,
            bytes: bytes,
            seconds: Double(took.components.seconds) + Double(took.components.attoseconds) / 1e18,
            answerClients: recovery.clients.count,
            answerBytes: recovery.clients.wholeBytes
        )
    }
}
