import ContainmentConfig
import ContainmentBus
import Foundation

/// `containment journal verify|stats|repair`: what a journal directory holds, whether the supervisor would start on
/// it, and cutting it at damage (keeping a backup).
public struct JournalInspection: Sendable {
    public let directory: String
    /// The records after the checkpoint replay starts from, up to the damage (all of them when there is none), with
    /// where they are.
    public private(set) var records: [JournalScan.Located] = []
    public private(set) var segments: [Int] = []
    public private(set) var bytes = 0
    public private(set) var tornTail: JournalScan.TornTail?
    /// Damage before the tail: the supervisor refuses to start.
    public private(set) var damage: JournalDamage?
    /// The checkpoint files, by the segment each replays from.
    public private(set) var checkpoints: [Int] = []
    /// The checkpoint replay starts from (`nil`: segment 1), and checkpoints passed over because they do not read back.
    var start: Checkpoint?
    public private(set) var skippedCheckpoints: [JournalDamage] = []
    /// The segment replay starts from, and how many records the checkpoint before it stands for.
    public var startSegment: Int { start?.nextSegment ?? 1 }
    public var checkpointRecords: UInt64 { start?.records ?? 0 }
    /// The file name of the checkpoint replay starts from.
    public var startCheckpoint: String? { start.map { CheckpointFile.name($0.nextSegment) } }

    /// Reads the journal; damage is reported in ``damage``, not thrown. `replay` also replays every record after the
    /// checkpoint through the model, a record the model refuses being damage too.
    public init(directory: String, replay: Bool) {
        self.directory = directory
        segments = JournalFormat.segments(in: directory)
        checkpoints = CheckpointFile.numbers(in: directory)
        do {
            let found = try JournalStart.find(directory: directory, answers: .init(window: 1, clients: 1))
            start = found.checkpoint
            skippedCheckpoints = found.skipped
        } catch {
            damage = error
            return
        }
        do {
            let scan = try JournalScan.read(directory: directory, from: startSegment)
            records = scan.records
            bytes = scan.bytes
            tornTail = scan.tornTail
        } catch {
            damage = error
            records = Self.recordsBefore(error, in: directory, from: startSegment)
        }
        guard replay, damage == nil else { return }
        var state = start.map(JournalReplay.init) ?? JournalReplay()
        for located in records {
            do {
                _ = try state.advance(located.record)
            } catch {
                damage = JournalDamage(
                    path: directory + "/" + JournalFormat.segmentName(located.segment),
                    offset: located.offset,
                    reason: "the record does not replay through the model: \(error)"
                )
                return
            }
        }
    }

    /// The whole records before damage: the segments before it, and the damaged one up to it.
    private static func recordsBefore(
        _ damage: JournalDamage,
        in directory: String,
        from first: Int
    ) -> [JournalScan.Located] {
        var scan = JournalScan()
        for number in JournalFormat.segments(in: directory) where number >= first {
            let path = directory + "/" + JournalFormat.segmentName(number)
            guard let data = try? JournalScan.contents(of: path) else { break }
            let damaged = path == damage.path
            let bytes = damaged ? Array(data.prefix(damage.offset)) : data
            guard (try? scan.readSegment(bytes, path: path, number: number, isLast: damaged)) != nil, !damaged else {
                break
            }
        }
        return scan.records
    }

    /// Counts by kind of record, and the ranges the records cover.
    public struct Stats: Sendable {
        public var accepted = 0
        public var rejected = 0
        public var hostEvents = 0
        public var starts = 0
        public var commands = 0
        public var events: UInt64 = 0
        public var lastSeq: UInt64 = 0
        public var lastCommandID: UInt64 = 0
        public var lastEpoch: UInt64 = 0
        public var clients = Set<String>()
    }

    public var stats: Stats {
        var stats = Stats()
        if let start {
            stats.lastSeq = start.lastSeq
            stats.lastCommandID = start.lastCommandID
            stats.lastEpoch = start.epoch
        }
        for located in records {
            let record = located.record
            if record.epoch != 0 {
                stats.starts += 1
                stats.lastEpoch = record.epoch
            } else if !record.commands.isEmpty {
                stats.accepted += 1
                stats.commands += record.commands.count
            } else if record.hasRejection {
                stats.rejected += 1
            } else {
                stats.hostEvents += Int(record.eventCount)
            }
            stats.events += UInt64(record.eventCount)
            if record.eventCount > 0 {
                stats.lastSeq = max(stats.lastSeq, record.firstSeq + UInt64(record.eventCount) - 1)
            }
            stats.lastCommandID = max(stats.lastCommandID, record.commandID)
            if !record.clientID.isEmpty { stats.clients.insert(record.clientID) }
        }
        return stats
    }

    /// What ``repair(backup:)`` would cut: the damaged (or torn) segment from the offset on, and every later segment.
    public var repairPlan: (segment: String, offset: Int, later: [String])? {
        let path: String
        let offset: Int
        if let damage, !damage.path.hasSuffix(".log") || (damage.offset == 0 && segments.first.map { $0 > 1 } == true) {
            // No checkpoint reads back and the segments before were removed: cutting would lose what is left.
            return nil
        } else if let damage {
            (path, offset) = (damage.path, damage.offset)
        } else if let tornTail {
            (path, offset) = (tornTail.path, tornTail.offset)
        } else {
            return nil
        }
        let later = segments.map { directory + "/" + JournalFormat.segmentName($0) }.filter { $0 > path }
        return (path, offset, later)
    }

    /// Cuts the journal at the damage: the damaged segment and every later one are first copied into `backup`, then
    /// the damaged one is truncated at the damage and the later ones removed. Returns the backup's files.
    public func repair(backup: String) throws -> [String] {
        guard let plan = repairPlan else { return [] }
        try FileManager.default.createDirectory(atPath: backup, withIntermediateDirectories: true)
        var saved: [String] = []
        for path in [plan.segment] + plan.later {
            let target = backup + "/" + (path as NSString).lastPathComponent
            try FileManager.default.copyItem(atPath: path, toPath: target)
            saved.append(target)
        }
        JournalWriter.syncDirectory(backup)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: plan.segment))
        try handle.truncate(atOffset: UInt64(plan.offset))
        try handle.synchronize()
        try handle.close()
        for path in plan.later { try FileManager.default.removeItem(atPath: path) }
        JournalWriter.syncDirectory(directory)
        return saved
    }
}
