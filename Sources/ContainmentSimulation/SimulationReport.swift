import ContainmentBus
import ContainmentLoad
import ContainmentModel
import ContainmentConfig
import ContainmentRuntime

/// What a simulated run came to: its size, the faults injected, and `stress`'s checks of its history against the
/// model. ``lines`` print it; the same seed prints the same lines.
package struct SimulationReport: Sendable {
    package var seed: UInt64
    /// The world's shape (``SimulationSettings/shape``).
    package var shape: String
    /// Simulated time: the run, and the settling after every fault healed.
    package var simulated: Duration
    package var settled: Duration
    package var operations: Int
    package var accepted: Int
    package var events: UInt64
    package var records: Int
    package var supervisorStarts: Int
    /// Commands refused for want of a host, and of those while every host process was live.
    package var hostRefusals: (all: Int, hostsLive: Int)
    package var steps: Int
    package var faults: [FaultKind: Int]
    package var checks: [StressCheck]
    package var trace: [String]?

    package var passed: Bool { checks.allSatisfy(\.passed) }

    /// One line, then each failed check with its first failures; `full`: every check.
    package func lines(full: Bool = false) -> [String] {
        let faultText =
            faults.isEmpty
            ? "no faults"
            : faults.sorted { $0.key < $1.key }.map { "\($0.key.rawValue) \($0.value)" }.joined(separator: ", ")
        var lines = [
            "seed \(seed): \(passed ? "passed" : "FAILED"), \(shape) world, \(Scheduler.format(simulated)) simulated (+"
                + "\(Scheduler.format(settled)) settling), \(operations) operations (\(accepted) accepted), "
                + "\(events) events, \(records) journal records, \(supervisorStarts) supervisor processes"
                + (hostRefusals.all > 0
                    ? ", \(hostRefusals.all) refused for want of a host (\(hostRefusals.hostsLive) with every host live)"
                    : "")
                + "; \(faultText)"
        ]
        for check in checks where full || !check.passed {
            lines.append("  \(check.passed ? "ok  " : "FAIL") \(check.name): \(check.detail)")
            for failure in check.failures { lines.append("       \(failure)") }
        }
        if !passed {
            lines.append("  replay it: containment simulate --seed \(seed) --trace (and this run's other options)")
        }
        return lines
    }
}

extension Simulation {
    /// `stress`'s checks of the run: the journal replayed through the model gives the events the reference subscriber
    /// saw and the replies the clients got; the final tree; every subscriber's seqs; every accepted reply journaled,
    /// nothing applied twice; the clients' replicas; each actor's callbacks; and the world's own.
    func report(settled: Duration) -> SimulationReport {
        var checks: [StressCheck] = []
        let results = clients.map(\.result)
        let records: [JournalEntry]
        do {
            if let etcd {
                records = try JournalEntry.all(inBatches: etcd.archived)
            } else {
                records = try supervisors[0].disk.durable.map { try JournalEntry(decoding: $0) }
            }
        } catch {
            records = []
            fail("the journal does not read back: \(error)")
        }
        let terms = supervisors.map(\.starts).reduce(0, +)
        let restarts = max(0, terms - 1)
        if var core = leader?.core, !records.isEmpty {
            let snapshot = core.snapshot()
            let reference = subscribers[0].seen
            let checkFrom = max(1, reference.first)
            var verifier = StressVerifier(
                checkFrom: checkFrom,
                finalSeq: snapshot.seq,
                reference: reference,
                restarts: restarts > 0
            )
            verifier.run(records: records, operations: results.flatMap(\.operations))
            checks += verifier.checks(
                records: records.count(where: \.holdsCommands),
                answers: (records.reduce(0) { $0 + $1.answerCount }, records.reduce(0) { $0 + $1.timedOutAnswers })
            )
            checks.append(verifier.compare(snapshot))
            let seen = subscribers.map(\.seen)
            checks.append(StressRun.subscriberCheck(seen, from: checkFrom, to: snapshot.seq, restarts: restarts))
            checks.append(StressRun.exactlyOnceCheck(records: records, results: results, restarts: restarts))
            checks.append(StressRun.predictionCheck(results, contended: settings.judgedByReplay))
            checks.append(actorCheck(expected: verifier.expectedDigests, seqs: verifier.callbackSeqs))
        }
        if etcd != nil {
            checks.append(
                StressCheck(
                    name: "one leader at a time: nothing sent once a supervisor's lease lapsed",
                    passed: deposedSends == 0,
                    detail: deposedSends == 0
                        ? "\(terms) terms, each supervisor silent once it lost the leadership"
                        : "\(deposedSends) messages sent by a supervisor that no longer led",
                    failures: deposed
                )
            )
        }
        if etcd != nil, settings.injectable == [.etcdElection] {
            // Elections alone: the first leader leads throughout (etcd extends the leases; the leader's renewals and
            // appends wait for the new raft leader).
            let elections = injected[.etcdElection] ?? 0
            checks.append(
                StressCheck(
                    name: "etcd's elections ridden out: no failover",
                    passed: terms == 1,
                    detail: terms == 1
                        ? "one leader through \(elections) elections"
                        : "\(terms) terms through \(elections) elections: a supervisor lost its lease to an election"
                )
            )
        }
        if let reader {
            let bounded = replyQueuePeak <= config.replyQueueBytes
            let failures = reader.problems + (bounded ? [] : ["a queue held \(replyQueuePeak) bytes"])
            checks.append(
                StressCheck(
                    name: "a client reading late: answered in order, its replies kept within replyQueueBytes",
                    passed: failures.isEmpty,
                    detail: "\(reader.snapshots) snapshots, \(reader.refusals) refused while replies waited unread; "
                        + "at most \(replyQueuePeak) bytes kept for one peer (replyQueueBytes \(config.replyQueueBytes))",
                    failures: failures
                )
            )
        }
        let slow = clients.flatMap(\.slowAnswers)
        checks.append(
            StressCheck(
                name: "once the faults healed, every request was answered within the timeouts",
                passed: slow.isEmpty,
                detail: slow.isEmpty ? "every client answered" : "\(slow.count) answers came late",
                failures: Array(slow.prefix(8))
            )
        )
        checks.append(
            StressCheck(
                name: "the world ran as written",
                passed: problems.isEmpty,
                detail: problems.isEmpty ? "nothing undecodable, the setup accepted, the world settled" : problems[0],
                failures: problems
            )
        )
        return SimulationReport(
            seed: settings.seed,
            shape: settings.shape,
            simulated: settings.duration,
            settled: settled,
            operations: results.map(\.operations.count).reduce(0, +),
            accepted: results.flatMap(\.operations).count { if case .accepted = $0.outcome { true } else { false } },
            events: leader?.core?.seq ?? 0,
            records: records.count,
            supervisorStarts: terms,
            hostRefusals: hostRefusals,
            steps: scheduler.steps,
            faults: injected,
            checks: checks,
            trace: settings.trace ? (scheduler.trace ?? []) + logs : nil
        )
    }

    /// Each controller's actor, read where it runs: the callbacks the model sent it since its creation (or since the
    /// state it was restored from), in order.
    private func actorCheck(expected: [ControllerID: CallbackDigest], seqs: [ControllerID: [UInt64]]) -> StressCheck {
        var actors: [ControllerID: (host: String, actor: SimHost.Actor)] = [:]
        for host in hosts {
            for (id, actor) in host.actors { actors[id] = (host.name, actor) }
        }
        var failures: [String] = []
        var restored = 0
        for (id, digest) in expected.sorted(by: { $0.key < $1.key }) {
            guard let (host, actor) = actors[id] else {
                failures.append("\(id): no host runs its actor")
                continue
            }
            var want = digest
            if actor.restoredSeq > 0 {
                restored += 1
                want = CallbackDigest()
                for seq in seqs[id] ?? [] where seq > actor.restoredSeq { want.add(seq: seq) }
            }
            if actor.digest != want {
                let sent = (seqs[id] ?? []).filter { $0 > actor.restoredSeq }
                let missing = Set(sent).subtracting(actor.seqs).sorted().prefix(5).map(String.init)
                let extra = Set(actor.seqs).subtracting(sent).sorted().prefix(5).map(String.init)
                failures.append(
                    "\(id) on \(host)\(actor.restoredSeq > 0 ? " (restored at \(actor.restoredSeq))" : ""): the actor "
                        + "received \(actor.digest); the model sent \(want)"
                        + (missing.isEmpty ? "" : "; not received: seq \(missing.joined(separator: ", "))")
                        + (extra.isEmpty ? "" : "; not sent: seq \(extra.joined(separator: ", "))")
                )
            }
        }
        return StressCheck(
            name: "each actor got its callbacks in SPEC order",
            passed: failures.isEmpty,
            detail: failures.isEmpty
                ? "\(expected.count) actors, every digest equal" + (restored > 0 ? " (\(restored) restored)" : "")
                : "\(failures.count) of \(expected.count) actors differ",
            failures: Array(failures.prefix(8))
        )
    }
}
