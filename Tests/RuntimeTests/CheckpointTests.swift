import ContainmentBus
import ContainmentModel
import ContainmentWorkload
import Foundation
import Testing

@testable import ContainmentConfig
@testable import ContainmentRuntime

/// Checkpoints without processes: a state written and read back is the same state — equal, and answering every later
/// command with the same events or the same error — and recovery starts from the latest checkpoint that reads back.
@Suite struct CheckpointTests {
    /// A random state after `steps` commands (views, presentations, transitions, moves and all), with the generator.
    static func randomState(seed: UInt64, steps: Int, constraints: Bool = false) -> (ContainmentState, RandomCommands) {
        var generator = RandomCommands(seed: seed, manual: true)
        generator.constraints = constraints
        var state = ContainmentState()
        for _ in 0..<steps {
            let requests = generator.next(in: state)
            if !requests.isEmpty { _ = try? state.apply(batch: requests) }
        }
        return (state, generator)
    }

    static func roundTrip(_ checkpoint: Checkpoint) throws -> Checkpoint {
        let bytes: [UInt8] = try checkpoint.message.serializedBytes()
        return try Checkpoint(
            Containment_V1_Checkpoint(serializedBytes: bytes),
            answers: .init(window: 64, clients: 4_096)
        )
    }

    static func checkpoint(of state: ContainmentState, nextSegment: Int = 3) -> Checkpoint {
        var clients = ClientReplies(window: 64, clients: 4_096)
        clients.remember(client: "a", requestID: 1, answer: .recorded([1, 2, 3]))
        clients.remember(client: "b", requestID: 7, answer: .recorded([4]))
        clients.remember(client: "a", requestID: 2, answer: .recorded([5, 6]))
        var hostOf = IDTable<ControllerID, String>()
        for id in state.controllers.keys { hostOf[id] = "host-\(id.rawValue.count % 3)" }
        return Checkpoint(
            nextSegment: nextSegment,
            epoch: 4,
            lastSeq: 1_234,
            lastCommandID: 567,
            records: 890,
            state: state,
            hostOf: hostOf,
            clients: clients
        )
    }

    /// Half the seeds draw layout constraints too (SPEC §16): restored by adding them again, they solve every later
    /// command as the saved layout does.
    @Test(arguments: 1...8 as ClosedRange<UInt64>)
    func aStateReadBackAnswersEveryLaterCommandAlike(seed: UInt64) throws {
        var (state, generator) = Self.randomState(seed: seed, steps: 800, constraints: seed > 4)
        #expect(state.controllers.count > 5)
        var saved = Self.checkpoint(of: state)
        saved.registrations = ["h0": (pid: 77, incarnation: 3)]
        let restored = try Self.roundTrip(saved)
        #expect(restored.registrations["h0"]?.pid == 77 && restored.registrations["h0"]?.incarnation == 3)
        var copy = restored.state
        let equal = copy == state
        #expect(equal)
        #expect(copy.serialCounter == state.serialCounter)
        #expect(restored.hostOf == saved.hostOf)
        #expect(
            (restored.nextSegment, restored.epoch, restored.lastSeq, restored.lastCommandID, restored.records)
                == (3, 4, 1_234, 567, 890)
        )
        #expect(restored.clients.answer(client: "a", requestID: 2)?.recorded == [5, 6])
        #expect(restored.clients.answer(client: "b", requestID: 7)?.recorded == [4])
        #expect(restored.clients.entries.map(\.client) == saved.clients.entries.map(\.client))

        var accepted = 0
        for step in 0..<800 {
            let requests = generator.next(in: state)
            guard !requests.isEmpty else { continue }
            let original = Result { () throws(BatchError) in try state.apply(batch: requests) }
            let again = Result { () throws(BatchError) in try copy.apply(batch: requests) }
            switch (original, again) {
            case (.success(let a), .success(let b)):
                #expect(a == b, "seed \(seed) step \(step)")
                accepted += 1
            case (.failure(let a), .failure(let b)):
                #expect(a.error.code == b.error.code && a.index == b.index, "seed \(seed) step \(step)")
            default:
                Issue.record("seed \(seed) step \(step): \(original) against \(again)")
                return
            }
        }
        #expect(accepted > 50)
        let stillEqual = copy == state
        #expect(stillEqual)
    }

    /// SPEC §16 across a checkpoint: the constraints come back in their order, and the restored state solves a resize
    /// and a removal exactly as the saved one.
    @Test func constraintsComeBackAndSolveAlike() throws {
        var state = ContainmentState()
        _ = try state.apply(
            batch: [
                .system(.create("container", kind: .content)), .system(.create("child", kind: .content)),
                .system(.attachWindow("main", root: "container", size: Size(width: 1024, height: 768))),
                .by("container", .addSubview(ViewID(owner: "container", name: "label"), to: .root("container"))),
            ]
                + SeedListings.displayContentController(
                    "child",
                    in: "container",
                    frame: Rect(x: 0, y: 0, width: 10, height: 10)
                )
        )
        for (id, text) in [
            ("w", "child.width == 0.5 * container.width"), ("x", "child.centerX == container.centerX"),
            ("h", "child.height <= 300 @750"), ("label", "container/label.left == child.right + 8"),
        ] {
            _ = try state.apply(
                .constrain("container", id: id, try LayoutConstraint(parsing: text)),
                by: .controller("container")
            )
        }
        var restored = try Self.roundTrip(Self.checkpoint(of: state)).state
        #expect(restored == state)
        #expect(restored.layouts["container"]?.entries.map(\.id) == ["w", "x", "h", "label"])
        let resize = Request.system(.resizeWindow("main", size: Size(width: 600, height: 500)))
        let events = try state.apply(resize)
        #expect(events.contains { $0.description == "frameChanged(child) view=child frame=150,0,300,10 by=container" })
        #expect(try restored.apply(resize) == events)
        let remove = [
            Request.by("container", .willMove("child", toParent: nil)), .by("container", .removeFromParent("child")),
        ]
        #expect(try restored.apply(batch: remove) == state.apply(batch: remove))
        #expect(restored == state)
    }

    /// SPEC §15 across a checkpoint: an animated push a child asked for, still running when the checkpoint was
    /// written, names that child when the restored state completes it.
    @Test func aRunningSwitchKeepsItsAskerAcrossACheckpoint() throws {
        var state = ContainmentState()
        state.animationDuration = 0.5
        _ = try state.apply(batch: [
            .system(.create("nav", kind: .navigation)), .system(.create("a", kind: .content)),
            .system(.create("b", kind: .content)),
            .system(.attachWindow("main", root: "nav", size: Size(width: 1024, height: 768))),
            .by("nav", .push("a", on: "nav")),
        ])
        _ = try state.apply(.push("b", on: "nav", animated: true), by: .controller("a"))
        var restored = try Self.roundTrip(Self.checkpoint(of: state)).state
        #expect(restored == state)
        let done = try restored.apply(.completeTransition(in: "nav", from: "a", to: "b"), by: .controller("nav"))
        #expect(done.last?.description == "navigationDidShow(nav) shown=b requestedBy=a")
    }

    @Test func aCheckpointFileIsCheckedAndRecoveryFallsBackToAnOlderOne() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "checkpoints-\(UUID().uuidString.prefix(8))"
        ).path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        for number in 1...5 {
            _ = FileManager.default.createFile(
                atPath: directory + "/" + JournalFormat.segmentName(number),
                contents: Data(JournalFormat.magic)
            )
        }
        let (state, _) = Self.randomState(seed: 5, steps: 300)
        let older = try CheckpointFile.write(Self.checkpoint(of: state, nextSegment: 3), directory: directory)
        var later = Self.checkpoint(of: state, nextSegment: 5)
        later.lastSeq = 9_999
        let newest = try CheckpointFile.write(later, directory: directory)
        #expect(older.hasSuffix("/checkpoint-00000003.ckpt") && newest.hasSuffix("/checkpoint-00000005.ckpt"))

        var start = try JournalStart.find(directory: directory, answers: .init(window: 64, clients: 64))
        #expect(start.firstSegment == 5 && start.checkpoint?.lastSeq == 9_999 && start.skipped.isEmpty)

        // A flipped byte in the newest: it fails its checksum, and recovery uses the older one.
        var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: newest)))
        bytes[bytes.count / 2] ^= 0x40
        try Data(bytes).write(to: URL(fileURLWithPath: newest))
        #expect(throws: JournalDamage.self) { try CheckpointFile.read(newest, answers: .init(window: 1, clients: 1)) }
        start = try JournalStart.find(directory: directory, answers: .init(window: 64, clients: 64))
        #expect(start.firstSegment == 3 && start.checkpoint?.lastSeq == 1_234)
        #expect(start.skipped.map(\.reason) == ["it fails its checksum"])

        // Retention keeps the latest checkpoint and the segments it needs.
        let removed = CheckpointFile.applyRetention(directory: directory, retain: 1)
        #expect(
            removed.map { ($0 as NSString).lastPathComponent }.sorted() == [
                "checkpoint-00000003.ckpt", "segment-00000001.log", "segment-00000002.log", "segment-00000003.log",
                "segment-00000004.log",
            ]
        )
        // Now the only checkpoint is damaged and the segments before it are gone: recovery refuses.
        #expect(throws: JournalDamage.self) {
            try JournalStart.find(directory: directory, answers: .init(window: 1, clients: 1))
        }
        #expect(JournalInspection(directory: directory, replay: true).repairPlan == nil)
    }

    @Test func aMissingSegmentIsDamage() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "segments-\(UUID().uuidString.prefix(8))"
        ).path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        for number in [1, 2, 4] {
            _ = FileManager.default.createFile(
                atPath: directory + "/" + JournalFormat.segmentName(number),
                contents: Data(JournalFormat.magic)
            )
        }
        #expect {
            try JournalScan.read(directory: directory)
        } throws: { error in
            (error as? JournalDamage)?.reason == "segment 3 is missing before it (the records it held are lost)"
        }
    }
}
