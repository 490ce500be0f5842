import ContainmentConfig
/// Where a journal's replay starts: the latest checkpoint that reads back whole (an older one when it does not), and
/// the first segment to replay after it — segment 1 when there is no checkpoint.
struct JournalStart {
    var checkpoint: Checkpoint?
    var firstSegment: Int
    /// Checkpoints passed over because they do not read back (damaged, or the segment they replay from is gone).
    var skipped: [JournalDamage] = []

    /// Finds the start in `directory`; throws when segments were removed (after a checkpoint) and no checkpoint that
    /// covers them reads back.
    static func find(directory: String, answers: ClientReplies.Limits) throws(JournalDamage) -> JournalStart {
        let segments = JournalFormat.segments(in: directory)
        var skipped: [JournalDamage] = []
        for number in CheckpointFile.numbers(in: directory).reversed() {
            let path = directory + "/" + CheckpointFile.name(number)
            guard segments.contains(number) else {
                skipped.append(
                    JournalDamage(
                        path: path,
                        offset: 0,
                        reason: "the segment it replays from, \(JournalFormat.segmentName(number)), is missing"
                    )
                )
                continue
            }
            do {
                let checkpoint = try CheckpointFile.read(path, answers: answers)
                return JournalStart(checkpoint: checkpoint, firstSegment: number, skipped: skipped)
            } catch {
                skipped.append(error)
            }
        }
        if let first = segments.first, first != 1 {
            let reasons = skipped.map(\.description).joined(separator: "; ")
            throw JournalDamage(
                path: directory + "/" + JournalFormat.segmentName(first),
                offset: 0,
                reason: "the segments before it were removed after a checkpoint, and no checkpoint reads back"
                    + (reasons.isEmpty ? "" : " (\(reasons))")
            )
        }
        return JournalStart(checkpoint: nil, firstSegment: 1, skipped: skipped)
    }
}
