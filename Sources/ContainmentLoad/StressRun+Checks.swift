import ContainmentBus
import ContainmentModel
import ContainmentConfig
import ContainmentRuntime

/// The checks a run makes beside the replay: every actor's callbacks, the subscribers, the clients' replicas, and the
/// daemons' health.
extension StressRun {
    /// A host that cannot answer once is not asked again (its actors count as failed), so a dead host costs one
    /// timeout, not one per controller.
    func callbackCheck(
        _ control: CommandClient,
        expected: [ControllerID: CallbackDigest],
        seqs: [ControllerID: [UInt64]] = [:],
        hostOf: IDTable<ControllerID, String>
    ) -> StressCheck {
        var restoredActors = 0
        var failures: [String] = []
        var failed = 0
        var unreachable: Set<String> = []
        for (id, digest) in expected.sorted(by: { $0.key < $1.key }) {
            let host = hostOf[id] ?? ""
            let got: CallbackDigest
            var recent: [BusEvent] = []
            do {
                guard !unreachable.contains(host) else {
                    throw ContainmentError(.hostUnavailable, "host \(host) did not answer")
                }
                let reply = try control.inspect(id)
                got = CallbackDigest(count: reply.receivedCount, hash: reply.receivedDigest)
                recent = reply.callbacks
                if reply.restoredSeq > 0 {
                    // Its host died and was started again: this incarnation began from the state at that seq.
                    restoredActors += 1
                    var since = CallbackDigest()
                    for seq in seqs[id] ?? [] where seq > reply.restoredSeq { since.add(seq: seq) }
                    if got != since {
                        failed += 1
                        if failures.count < 8 {
                            failures.append(
                                "\(id) (restored at seq \(reply.restoredSeq)): the actor received \(got); the model sent "
                                    + "\(since) since"
                            )
                        }
                    }
                    continue
                }
            } catch {
                unreachable.insert(host)
                failed += 1
                if failures.count < 8 { failures.append("\(id): \(error)") }
                continue
            }
            if got != digest {
                failed += 1
                // Which of its recent callbacks the model did not send it, and which it sent that did not come.
                let sent = Set(seqs[id] ?? [])
                let extra = recent.filter { !sent.contains($0.seq) }.map { "\($0.seq) \($0.name)" }
                let since = recent.first?.seq ?? 0
                let received = Set(recent.map(\.seq))
                let missing = (seqs[id] ?? []).filter { $0 >= since && !received.contains($0) }
                if failures.count < 8 {
                    failures.append(
                        "\(id): the actor received \(got); the model sent \(digest); among its last \(recent.count): "
                            + "not sent \(extra.prefix(4)), not received \(missing.prefix(4))"
                    )
                }
            }
        }
        let callbacks = expected.values.map(\.count).reduce(0, +)
        return StressCheck(
            name: "each actor got its callbacks in SPEC order",
            passed: failed == 0,
            detail: failed == 0
                ? "\(expected.count) actors, \(callbacks) callbacks, every digest equal"
                    + (restoredActors > 0 ? " (\(restoredActors) restored after their host was killed)" : "")
                : "\(failed) of \(expected.count) actors differ",
            failures: failures
        )
    }

    /// With supervisor restarts, events are lost across them (a PUB/SUB publisher that dies loses what it had queued,
    /// and what its successor publishes before a SUB reconnects): counted, not failed; the reference subscriber's
    /// losses are checked to lie at restarts by the replay.
    package static func subscriberCheck(
        _ seen: [EventCollector.Seen],
        from: UInt64,
        to: UInt64,
        restarts: Int = 0
    ) -> StressCheck {
        var failures: [String] = []
        for (index, seen) in seen.enumerated() {
            if seen.first > from || seen.last < to {
                failures.append("subscriber \(index) saw \(seen.first)…\(seen.last), not all of \(from)…\(to)")
            }
            if seen.missing > 0, restarts == 0 { failures.append("subscriber \(index) missed \(seen.missing) events") }
            if !seen.duplicates.isEmpty { failures.append("subscriber \(index) saw \(seen.duplicates.count) twice") }
            if seen.disorder > 0 { failures.append("subscriber \(index) saw \(seen.disorder) out of order") }
            if seen.undecodable > 0 { failures.append("subscriber \(index) could not decode \(seen.undecodable)") }
        }
        guard restarts > 0 else {
            return StressCheck(
                name: "every subscriber saw every seq exactly once",
                passed: failures.isEmpty,
                detail: "\(seen.count) subscribers, seq \(from)…\(to)"
                    + (failures.isEmpty ? ", none lost or doubled" : ""),
                failures: failures
            )
        }
        return StressCheck(
            name: "every subscriber saw each seq at most once, in order",
            passed: failures.isEmpty,
            detail: "\(seen.count) subscribers, seq \(from)…\(to), none doubled or reordered; across \(restarts) "
                + "restarts they lost \(seen.map { String($0.missing) }.joined(separator: ", ")) events",
            failures: failures
        )
    }

    /// SPEC §14, exactly once across restarts: every reply a client saw `accepted` is a record of the recovered
    /// journal (the same command id), and no request (client id, request id) was journaled twice.
    package static func exactlyOnceCheck(
        records: [JournalEntry],
        results: [StressClientResult],
        restarts: Int
    ) -> StressCheck {
        var journaled = Set<UInt64>()
        var requests: [String: Set<UInt64>] = [:]
        var twice: [String] = []
        for record in records where record.holdsCommands || record.isRejection {
            journaled.insert(record.commandID)
            guard !record.clientID.isEmpty else { continue }
            if !requests[record.clientID, default: []].insert(record.requestID).inserted {
                twice.append("request \(record.requestID) of client \(record.clientID) is journaled twice")
            }
        }
        var accepted = 0
        var missing: [String] = []
        for result in results {
            for operation in result.operations {
                guard case .accepted(let commandID, _, _) = operation.outcome else { continue }
                accepted += 1
                if !journaled.contains(commandID) {
                    missing.append("client \(result.client): command \(commandID) was accepted, not journaled")
                }
            }
        }
        return StressCheck(
            name: "every accepted reply is journaled; nothing applied twice",
            passed: twice.isEmpty && missing.isEmpty,
            detail: "\(accepted) accepted replies in the journal, \(journaled.count) commands each journaled once"
                + (restarts > 0 ? ", across \(restarts) supervisor restarts" : ""),
            failures: Array((missing + twice).prefix(8))
        )
    }

    /// Contended, the replicas cannot foresee the replies (the replay judges each at its seq instead): only that every
    /// request was answered is required, and the races are counted.
    package static func predictionCheck(_ results: [StressClientResult], contended: Bool = false) -> StressCheck {
        let mispredicted = results.map(\.mispredictions).reduce(0, +)
        let breaches = results.flatMap(\.breaches)
        let transport = results.flatMap(\.transportFailures)
        let operations = results.map(\.operations.count).reduce(0, +)
        if contended {
            let raced = results.map(\.raced).reduce(0, +)
            return StressCheck(
                name: "every request answered; races counted",
                passed: transport.isEmpty,
                detail: "\(operations) replies, \(raced) other than the client's own replica foresaw (raced), "
                    + "\(transport.count) unanswered",
                failures: Array(transport.prefix(8))
            )
        }
        return StressCheck(
            name: "clients' replicas agree; R2 holds across clients",
            passed: mispredicted == 0 && breaches.isEmpty && transport.isEmpty,
            detail: "\(operations) replies, \(mispredicted) unpredicted, \(breaches.count) foreign frames accepted, "
                + "\(transport.count) unanswered",
            failures: Array((results.flatMap(\.mispredicted) + breaches + transport).prefix(8))
        )
    }

    /// SPEC §14: a host event says what happened to the host's process — `hostRestarted` only for a new process (a pid
    /// other than the one it last registered with), as the reference subscriber saw them. Counted: the hosts' events,
    /// and the refusals for want of a host clients had (false ones when no host was killed or stalled).
    static func hostEventsCheck(_ reference: EventCollector.Seen, refusals: Int, hostsDisturbed: Bool) -> StressCheck {
        var pids: [String: Int] = [:]
        var ups = 0
        var restarts = 0
        var failures: [String] = []
        for payload in reference.payloads where !payload.isEmpty {
            guard let event = try? BusEvent(decoding: payload), let model = try? event.model() else { continue }
            switch model {
            case .hostUp(let host, let pid):
                ups += 1
                pids[host] = pid
            case .hostRestarted(let host, let pid):
                restarts += 1
                if pids[host] == pid {
                    failures.append("seq \(event.seq): hostRestarted of \(host) with its same pid \(pid)")
                }
                pids[host] = pid
            default: continue
            }
        }
        if !hostsDisturbed, refusals > 0 {
            failures.append("\(refusals) requests refused for want of a host while every host process was alive")
        }
        return StressCheck(
            name: "host events name real restarts; no false refusals",
            passed: failures.isEmpty,
            detail: "\(ups) hostUp, \(restarts) hostRestarted (each a new pid); \(refusals) refused for want of a host"
                + (hostsDisturbed ? " (hosts were killed or stalled)" : ""),
            failures: Array(failures.prefix(5))
        )
    }

    /// No daemon died; descriptors did not grow; memory grew at most 25 % + 16 MiB from a quarter of the run to its end.
    /// Daemons in `restarted` were killed and started again on purpose: only that they are alive at the end counts.
    static func healthCheck(
        start: [ProcessSample],
        warm: [ProcessSample]?,
        end: [ProcessSample],
        restarted: Set<String> = []
    ) -> StressCheck {
        var failures: [String] = []
        for (before, after) in zip(warm ?? start, end) {
            guard !restarted.contains(after.name) else {
                if !after.alive { failures.append("\(after.name) (pid \(after.pid)) is gone") }
                continue
            }
            if !after.alive { failures.append("\(after.name) (pid \(after.pid)) is gone") }
            if after.descriptors > before.descriptors + 4 {
                failures.append("\(after.name): \(before.descriptors) → \(after.descriptors) descriptors")
            }
            if after.residentKiB > before.residentKiB + before.residentKiB / 4 + 16 * 1024 {
                failures.append("\(after.name): \(before.residentKiB) → \(after.residentKiB) KiB resident")
            }
        }
        let memory = end.map(\.residentKiB).reduce(0, +)
        return StressCheck(
            name: "no daemon crashed or leaked",
            passed: failures.isEmpty,
            detail: "\(end.count) daemons alive, \(memory / 1024) MiB resident in all"
                + (restarted.isEmpty ? "" : " (\(restarted.sorted().joined(separator: ", ")) killed on purpose)"),
            failures: failures
        )
    }
}
