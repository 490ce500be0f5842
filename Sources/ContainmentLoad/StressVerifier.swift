import ContainmentBus
import ContainmentModel
import ContainmentConfig
import ContainmentRuntime
import ContainmentWorkload

/// One check of a stress run: passed or not, with a line of detail and the first few failures.
public struct StressCheck: Sendable, Codable {
    public var name: String
    public var passed: Bool
    public var detail: String
    public var failures: [String] = []

    package init(name: String, passed: Bool, detail: String, failures: [String] = []) {
        self.name = name
        self.passed = passed
        self.detail = detail
        self.failures = failures
    }
}

/// Checks a finished run against the model: the journal replayed from the start, merged in sequence order with the
/// commands the clients saw rejected, must give the very events the subscribers saw, the replies the clients got,
/// the final tree, and each actor's callbacks.
package struct StressVerifier {
    /// From this seq on, every subscriber was listening.
    let checkFrom: UInt64
    /// The seq of the final snapshot.
    let finalSeq: UInt64
    let reference: EventCollector.Seen

    package private(set) var replay = JournalReplay()
    private var checker = InvariantChecker()
    /// Each controller's callbacks so far, as its actor must have received them.
    package private(set) var expectedDigests: [ControllerID: CallbackDigest] = [:]
    /// Each controller's callbacks' seqs since its creation, in order: an actor restored from the state at seq S
    /// (its host died and was started again) must have received exactly those after S.
    package private(set) var callbackSeqs: [ControllerID: [UInt64]] = [:]
    private var events = Tally(name: "journal replay = published events")
    private var replies = Tally(name: "every reply = the model's answer at its point")
    private var history = Tally(name: "R2 and the appearance machine, from the events")
    private var replayedRecords = 0
    /// The journal's refusals, by seq (``run(records:operations:)``).
    private var rejections: [UInt64: JournalEntry] = [:]
    /// The supervisor was killed and restarted during the run: the reference subscriber may have lost events across a
    /// restart (PUB/SUB drops what a killed publisher had not sent, and what the new one published before the SUB
    /// reconnected) — only the last events of an epoch or the first of the next, which ``run`` checks.
    let restarts: Bool
    /// Events the reference did not see (seq, epoch), and the seqs it saw per epoch.
    private var lost: [(seq: UInt64, epoch: UInt64)] = []
    private var seenRange: [UInt64: ClosedRange<UInt64>] = [:]
    /// Events lost across restarts (none lost otherwise).
    private(set) var lostAcrossRestarts = 0

    package init(checkFrom: UInt64, finalSeq: UInt64, reference: EventCollector.Seen, restarts: Bool = false) {
        self.checkFrom = checkFrom
        self.finalSeq = finalSeq
        self.reference = reference
        self.restarts = restarts
    }

    /// The reference's event `seq` of `epoch`: `nil` when it did not see it (noted as lost when allowed).
    private mutating func published(_ seq: UInt64, epoch: UInt64) -> [UInt8]? {
        guard let payload = reference.payload(seq) else {
            if restarts { lost.append((seq, epoch)) }
            return nil
        }
        seenRange[epoch] = seenRange[epoch].map { min($0.lowerBound, seq)...max($0.upperBound, seq) } ?? seq...seq
        return payload
    }

    /// Lost events must lie outside the seqs the reference saw of their epoch: before its first or after its last.
    private mutating func judgeLost() {
        for (seq, epoch) in lost {
            if let range = seenRange[epoch], range.contains(seq) {
                events.fail("event \(seq) of epoch \(epoch) was lost inside the epoch, not across a restart")
            } else {
                lostAcrossRestarts += 1
            }
        }
    }

    struct Tally {
        var name: String
        var checked = 0
        var failures: [String] = []
        var failureCount = 0

        mutating func fail(_ message: String) {
            failureCount += 1
            if failures.count < 8 { failures.append(message) }
        }

        func check(_ what: String) -> StressCheck {
            StressCheck(
                name: name,
                passed: failureCount == 0 && checked > 0,
                detail: failureCount == 0 ? "\(checked) \(what)" : "\(failureCount) of \(checked) \(what) differ",
                failures: failures
            )
        }
    }

    /// Replays `records` and judges `operations`, in sequence order.
    package mutating func run(records: [JournalEntry], operations: [StressOperation]) {
        var accepted: [UInt64: StressOperation] = [:]
        var rejected: [(seq: UInt64, operation: StressOperation)] = []
        for operation in operations {
            switch operation.outcome {
            case .accepted(let commandID, _, _): accepted[commandID] = operation
            case .rejected(let error) where error.seq > 0: rejected.append((error.seq, operation))
            case .rejected(let error): judgeUndecodable(operation, error)
            }
        }
        rejected.sort { $0.seq < $1.seq }
        // Each refusal's record, by its ruleViolation's seq: the answers it was refused with are judged again.
        rejections = Dictionary(records.filter(\.isRejection).map { ($0.firstSeq, $0) }, uniquingKeysWith: { $1 })
        var next = rejected.startIndex
        for record in records {
            guard record.holdsCommands else {
                // A start, a rejection or host events: the replay counts their seqs and epoch; nothing to judge. The
                // rejections before a start are judged first: their ruleViolations carry the previous epoch.
                if record.epoch != 0 {
                    while next < rejected.endIndex, rejected[next].seq <= replay.lastSeq {
                        judgeRejected(rejected[next].operation, at: rejected[next].seq)
                        next += 1
                    }
                }
                _ = try? replay.apply(record)
                continue
            }
            while next < rejected.endIndex, rejected[next].seq < record.firstSeq {
                judgeRejected(rejected[next].operation, at: rejected[next].seq)
                next += 1
            }
            guard replayRecord(record, client: accepted.removeValue(forKey: record.commandID)) else { return }
        }
        while next < rejected.endIndex {
            judgeRejected(rejected[next].operation, at: rejected[next].seq)
            next += 1
        }
        for (commandID, _) in accepted {
            replies.checked += 1
            replies.fail("command \(commandID) was accepted but is not in the journal")
        }
        judgeLost()
    }

    private mutating func replayRecord(_ record: JournalEntry, client: StressOperation?) -> Bool {
        let wires: [BusEvent]
        // The state before the record: the properties its events are judged by (events do not carry the ones a
        // controller is created with).
        let before = replay.state
        do {
            wires = try replay.apply(record)
        } catch {
            events.fail("\(error); the replay stops here")
            return false
        }
        replayedRecords += 1
        let after = replay.state
        for wire in wires where wire.seq >= checkFrom {
            events.checked += 1
            guard let published = published(wire.seq, epoch: wire.epoch) else {
                if restarts {
                    events.checked -= 1  // judged by `judgeLost`, not compared
                } else {
                    events.fail("event \(wire.seq) (\(wire.name)) was not seen by the reference subscriber")
                }
                continue
            }
            if published != wire.bytes {
                events.fail(
                    "event \(wire.seq): published \(describe(published)), replayed \(wire.name) \(wire.controller)"
                )
            }
        }
        let modelEvents = wires.compactMap { try? $0.model() }
        history.checked += wires.count
        for problem in checker.follow(
            modelEvents,
            properties: { before.controllers[$0]?.properties },
            presentation: { after.presentations[$0] }
        ) {
            history.fail(problem)
        }
        follow(wires)
        if let client, case .accepted(_, let count, let hash) = client.outcome {
            replies.checked += 1
            if !record.journals(client.commands) {
                replies.fail("command \(record.commandID): the journal holds other commands than the client sent")
            } else if count != wires.count || hash.map({ $0 != EventHash.of(wires.map(\.bytes)) }) ?? false {
                replies.fail(
                    "command \(record.commandID): the reply's \(count) events differ from the model's \(wires.count)"
                )
            }
        }
        return true
    }

    /// Keeps each actor's expected digest: every callback delivered to it since its creation. A tab container's More
    /// controllers (SPEC §16, the only ids with a `/`) have no host and no actor: their callbacks go to no one.
    private mutating func follow(_ wires: [BusEvent]) {
        for wire in wires where wire.isDelivered {
            let id = wire.controller
            if id.moreTab != nil { continue }
            switch wire.eventKind {
            case .controllerCreated:
                expectedDigests[id] = CallbackDigest()
                callbackSeqs[id] = []
            case .controllerDestroyed:
                expectedDigests[id] = nil
                callbackSeqs[id] = nil
            default:
                expectedDigests[id, default: CallbackDigest()].add(seq: wire.seq)
                callbackSeqs[id, default: []].append(wire.seq)
            }
        }
    }

    private mutating func judgeRejected(_ operation: StressOperation, at seq: UInt64) {
        guard case .rejected(let got) = operation.outcome else { return }
        replies.checked += 1
        guard let (model, violation) = replay.judgeRejected(operation.commands, refusedAs: rejections[seq]) else {
            replies.fail(
                "client \(operation.client): \(operation.commands.map(\.kindName)) rejected (\(got)) but the model accepts it at seq \(seq)"
            )
            return
        }
        if model.error.code != got.error.code || model.index != got.index {
            replies.fail(
                "client \(operation.client) at seq \(seq): got \(got.error.code)#\(got.index), the model says \(model.error.code)#\(model.index)"
            )
        }
        guard seq >= checkFrom, let violation else { return }
        events.checked += 1
        guard let published = published(seq, epoch: replay.epoch) else {
            if restarts {
                events.checked -= 1  // judged by `judgeLost`, not compared
            } else {
                events.fail("ruleViolation \(seq) was not seen by the reference subscriber")
            }
            return
        }
        guard let seen = try? BusEvent(decoding: published) else {
            events.fail("ruleViolation \(seq) does not decode")
            return
        }
        let expected = PreEncoded.event(
            violation,
            seq: seq,
            timeUnixNanos: seen.timeUnixNanos,
            commandID: got.commandID,
            epoch: replay.epoch
        )
        if expected != published {
            events.fail("ruleViolation \(seq): published \(describe(published)), the model says otherwise")
        }
    }

    /// Refused before the model: decoding the same commands must fail the same way.
    private mutating func judgeUndecodable(_ operation: StressOperation, _ got: RemoteError) {
        replies.checked += 1
        for (index, command) in operation.commands.enumerated() {
            do {
                _ = try command.request()
            } catch {
                if error.code != got.error.code || index != got.index {
                    replies.fail(
                        "undecodable command: got \(got.error.code)#\(got.index), decoding gives \(error.code)#\(index)"
                    )
                }
                return
            }
        }
        replies.fail(
            "client \(operation.client): \(operation.commands.map(\.kindName)) refused unjudged (\(got)) though it decodes"
        )
    }

    private func describe(_ payload: [UInt8]) -> String {
        guard let event = try? BusEvent(decoding: payload) else { return "(undecodable)" }
        return "\(event.name) \(event.controller)"
    }

    /// The replay's own checks, after ``run(records:operations:)``.
    package func checks(records: Int, answers: (given: Int, timedOut: Int) = (0, 0)) -> [StressCheck] {
        var replayed = events.check("events compared byte for byte (seq \(checkFrom)…\(finalSeq))")
        if restarts { replayed.detail += "; \(lostAcrossRestarts) lost to the reference across supervisor restarts" }
        if answers.given > 0 {
            replayed.detail +=
                "; \(answers.given) answers of controllers' code replayed (\(answers.timedOut) timed out)"
        }
        if replayedRecords < records {
            replayed.passed = false
            replayed.detail += "; only \(replayedRecords) of \(records) records replayed"
        }
        return [replayed, replies.check("replies judged"), history.check("events followed")]
    }

    /// The replayed state against the supervisor's final snapshot.
    package func compare(_ snapshot: BusSnapshot) -> StressCheck {
        let hostOf = replay.hostOf
        var failures = snapshot.differences(from: replay.state) { hostOf[$0] ?? "" }
        let structure = checker.check(replay.state, autoOnly: false)
        failures += structure.prefix(5).map { "invariant: \($0)" }
        return StressCheck(
            name: "journal replay = the final tree",
            passed: failures.isEmpty,
            detail: failures.isEmpty
                ? "\(replay.state.controllers.count) controllers, \(replay.state.views.count) views, "
                    + "\(replay.state.windows.count) windows equal"
                : "\(failures.count) differences",
            failures: failures
        )
    }
}
