import ContainmentBus
import ContainmentModel
import Testing

@testable import ContainmentLoad
@testable import ContainmentConfig
@testable import ContainmentRuntime

/// The replay's checks against hand-made histories: what the supervisor would have journaled and published, with
/// one thing wrong at a time. Each must be caught, and the untouched history must pass.
@Suite struct StressVerifierTests {
    /// A small history: a container with a child embedded, then a frame change by the parent.
    static let requests: [[Request]] = [
        [.system(.create("box", kind: .content)), .system(.create("a", kind: .content))],
        [.system(.attachWindow("w", root: "box", size: Size(width: 320, height: 480)))],
        SeedListings.displayContentController("a", in: "box", frame: Rect(x: 0, y: 0, width: 100, height: 100)),
        [.by("box", .setFrame(.root("a"), Rect(x: 10, y: 10, width: 50, height: 50)))],
    ]

    /// The journal records and the published events (by seq) the supervisor would have written for `requests`.
    static func history() throws -> (records: [Containment_V1_JournalRecord], published: [[UInt8]]) {
        var model = ContainmentState()
        var records: [Containment_V1_JournalRecord] = []
        var seq: UInt64 = 1
        for (index, step) in requests.enumerated() {
            let events = try model.apply(batch: step)
            records.append(
                .with {
                    $0.commandID = UInt64(index + 1)
                    $0.timeUnixNanos = 1_000 + Int64(index)
                    $0.commands = step.map { WireCommand($0) }
                    $0.firstSeq = seq
                    $0.eventCount = UInt32(events.count)
                }
            )
            seq += UInt64(events.count)
        }
        var replay = JournalReplay()
        let published = try records.flatMap { try replay.apply($0) }.map(\.bytes)  // the journal's own replay
        return (records, published)
    }

    static func seen(_ published: [[UInt8]]) -> EventCollector.Seen {
        var seen = EventCollector.Seen()
        seen.first = 1
        seen.last = UInt64(published.count)
        seen.count = published.count
        seen.payloads = published
        return seen
    }

    static func verify(
        _ records: [Containment_V1_JournalRecord],
        _ published: [[UInt8]],
        operations: [StressOperation] = []
    ) -> [StressCheck] {
        var verifier = StressVerifier(
            checkFrom: 1,
            finalSeq: UInt64(published.count),
            reference: seen(published)
        )
        verifier.run(records: records.map(JournalEntry.init), operations: operations)
        return verifier.checks(records: records.count)
    }

    /// The reply a client got for the last record, as the supervisor sent it.
    static func lastReply(_ records: [Containment_V1_JournalRecord], _ published: [[UInt8]]) -> StressOperation {
        let last = records[records.count - 1]
        let events = Array(published[Int(last.firstSeq - 1)...])
        return StressOperation(
            client: 0,
            commands: Self.requests[records.count - 1].map { ClientCommand($0) },
            outcome: .accepted(commandID: last.commandID, eventCount: events.count, eventHash: EventHash.of(events))
        )
    }

    /// (A check that judged nothing does not pass: the history holds a client's reply.)
    @Test func theUntouchedHistoryPasses() throws {
        let (records, published) = try Self.history()
        let checks = Self.verify(records, published, operations: [Self.lastReply(records, published)])
        #expect(checks.allSatisfy { $0.passed }, "\(checks)")
        #expect(checks[0].detail.hasPrefix("\(published.count) events"))
    }

    @Test func aPublishedEventUnlikeTheModelsIsCaught() throws {
        let (records, published) = try Self.history()
        var tampered = published
        var event = try WireEvent.decode(tampered[4])
        event.controller = "intruder"
        tampered[4] = event.bytes
        let checks = Self.verify(records, tampered)
        #expect(checks[0].passed == false)
        #expect(checks[0].failures.count == 1)
        #expect(checks[0].failures.first?.hasPrefix("event 5:") == true, "\(checks[0].failures)")
    }

    @Test func aRecordTheModelRefusesStopsTheReplay() throws {
        var (records, published) = try Self.history()
        // The child sets its own root frame: R2 forbids it, so the supervisor could never have journaled it.
        records[3].commands = [WireCommand(.by("a", .setFrame(.root("a"), Rect(x: 0, y: 0, width: 1, height: 1))))]
        let checks = Self.verify(records, published)
        #expect(checks[0].passed == false)
        #expect(checks[0].failures.first?.contains("the model rejects journaled command 4") == true)
        #expect(checks[0].detail.contains("only 3 of 4 records replayed"))
    }

    @Test func aRejectionTheModelWouldHaveAcceptedIsCaught() throws {
        let (records, published) = try Self.history()
        // A client was told "frameAuthority" for the parent's own frame change, after the last record.
        let wrong = StressOperation(
            client: 0,
            commands: [ClientCommand(.by("box", .setFrame(.root("a"), Rect(x: 1, y: 1, width: 5, height: 5))))],
            outcome: .rejected(
                RemoteError(
                    ContainmentError(.frameAuthority, "no"),
                    commandID: 9,
                    seq: UInt64(published.count + 1)
                )
            )
        )
        let checks = Self.verify(records, published, operations: [wrong])
        let replies = try #require(checks.first { $0.name == "every reply = the model's answer at its point" })
        #expect(replies.passed == false)
        #expect(replies.failures.first?.contains("the model accepts it") == true, "\(replies.failures)")
    }

    @Test func anAcceptedReplyWhoseEventsDifferIsCaught() throws {
        let (records, published) = try Self.history()
        let last = records[3]
        let reply = StressOperation(
            client: 0,
            commands: Self.requests[3].map { ClientCommand($0) },
            outcome: .accepted(commandID: last.commandID, eventCount: Int(last.eventCount), eventHash: 42)
        )
        let checks = Self.verify(records, published, operations: [reply])
        let replies = try #require(checks.first { $0.name == "every reply = the model's answer at its point" })
        #expect(replies.passed == false)
        #expect(replies.failures.first?.contains("differ from the model's") == true, "\(replies.failures)")
    }

    /// A `hostRestarted` with the pid the host last registered with is a restart that never happened; a refusal for
    /// want of a host while no host was disturbed is a false one. Each fails the check; real restarts pass.
    @Test func theHostEventsCheckCatchesAFalseRestartAndFalseRefusals() throws {
        func seen(_ events: [Event]) -> EventCollector.Seen {
            var seen = EventCollector.Seen()
            for (index, event) in events.enumerated() {
                let seq = UInt64(index + 1)
                seen.record(seq, payload: BusEvent(event, seq: seq).bytes, keepingPayloads: true)
            }
            return seen
        }
        let real = seen([
            .hostUp(host: "h0", pid: 10), .hostUp(host: "h0", pid: 10), .hostRestarted(host: "h0", pid: 11),
        ])
        #expect(StressRun.hostEventsCheck(real, refusals: 0, hostsDisturbed: false).passed)
        let forged = seen([.hostUp(host: "h0", pid: 10), .hostRestarted(host: "h0", pid: 10)])
        let caught = StressRun.hostEventsCheck(forged, refusals: 0, hostsDisturbed: false)
        #expect(!caught.passed && caught.failures == ["seq 2: hostRestarted of h0 with its same pid 10"])
        #expect(!StressRun.hostEventsCheck(real, refusals: 3, hostsDisturbed: false).passed)
        #expect(StressRun.hostEventsCheck(real, refusals: 3, hostsDisturbed: true).passed)
    }

}
