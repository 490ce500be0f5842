import ContainmentBus
import ContainmentModel

/// The checks a run makes beside the replay: every actor's callbacks, the subscribers, the clients' replicas, and the
/// daemons' health.
extension StressRun {
    /// A host that cannot answer once is not asked again (its actors count as failed), so a dead host costs one
    /// timeout, not one per controller.
    func callbackCheck(
        _ control: CommandClient,
        expected: [ControllerID: CallbackDigest],
        hostOf: [ControllerID: String]
    ) -> StressCheck {
        var failures: [String] = []
        var failed = 0
        var unreachable: Set<String> = []
        for (id, digest) in expected.sorted(by: { $0.key < $1.key }) {
            let host = hostOf[id] ?? ""
            let got: CallbackDigest
            do {
                guard !unreachable.contains(host) else {
                    throw ContainmentError(.hostUnavailable, "host \(host) did not answer")
                }
                let reply = try control.inspect(id)
                got = CallbackDigest(count: reply.receivedCount, hash: reply.receivedDigest)
            } catch {
                unreachable.insert(host)
                failed += 1
                if failures.count < 8 { failures.append("\(id): \(error)") }
                continue
            }
            if got != digest {
                failed += 1
                if failures.count < 8 { failures.append("\(id): the actor received \(got); the model sent \(digest)") }
            }
        }
        let callbacks = expected.values.map(\.count).reduce(0, +)
        return StressCheck(
            name: "each actor got its callbacks in SPEC order",
            passed: failed == 0,
            detail: failed == 0
                ? "\(expected.count) actors, \(callbacks) callbacks, every digest equal"
                : "\(failed) of \(expected.count) actors differ",
            failures: failures
        )
    }

    static func subscriberCheck(_ seen: [EventCollector.Seen], from: UInt64, to: UInt64) -> StressCheck {
        var failures: [String] = []
        for (index, seen) in seen.enumerated() {
            if seen.first > from || seen.last < to {
                failures.append("subscriber \(index) saw \(seen.first)…\(seen.last), not all of \(from)…\(to)")
            }
            if seen.missing > 0 { failures.append("subscriber \(index) missed \(seen.missing) events") }
            if !seen.duplicates.isEmpty { failures.append("subscriber \(index) saw \(seen.duplicates.count) twice") }
            if seen.disorder > 0 { failures.append("subscriber \(index) saw \(seen.disorder) out of order") }
            if seen.undecodable > 0 { failures.append("subscriber \(index) could not decode \(seen.undecodable)") }
        }
        return StressCheck(
            name: "every subscriber saw every seq exactly once",
            passed: failures.isEmpty,
            detail: "\(seen.count) subscribers, seq \(from)…\(to)" + (failures.isEmpty ? ", none lost or doubled" : ""),
            failures: failures
        )
    }

    static func predictionCheck(_ results: [StressClientResult]) -> StressCheck {
        let mispredicted = results.map(\.mispredictions).reduce(0, +)
        let breaches = results.flatMap(\.breaches)
        let transport = results.flatMap(\.transportFailures)
        let operations = results.map(\.operations.count).reduce(0, +)
        return StressCheck(
            name: "clients' replicas agree; R2 holds across clients",
            passed: mispredicted == 0 && breaches.isEmpty && transport.isEmpty,
            detail: "\(operations) replies, \(mispredicted) unpredicted, \(breaches.count) foreign frames accepted, "
                + "\(transport.count) unanswered",
            failures: Array((results.flatMap(\.mispredicted) + breaches + transport).prefix(8))
        )
    }

    /// No daemon died; descriptors did not grow; memory grew at most 25 % + 16 MiB from a quarter of the run to its end.
    static func healthCheck(start: [ProcessSample], warm: [ProcessSample]?, end: [ProcessSample]) -> StressCheck {
        var failures: [String] = []
        for (before, after) in zip(warm ?? start, end) {
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
            detail: "\(end.count) daemons alive, \(memory / 1024) MiB resident in all",
            failures: failures
        )
    }
}
