import ContainmentBus
import ContainmentModel
import ContainmentConfig
import ContainmentRuntime
import ContainmentWorkload
import Foundation
import Synchronization
import ZeroMQ

/// One `stress` run, from the setup to the checks: against `local` (a runtime it started, stopped at the end) or the
/// runtime `config` names.
public struct StressRun {
    let command: StressSettings
    let config: RuntimeConfig
    let local: LocalRuntime?
    let clock = ContinuousClock()

    public init(settings: StressSettings, config: RuntimeConfig, local: LocalRuntime?) {
        command = settings
        self.config = config
        self.local = local
    }

    public func execute(started: ContinuousClock.Instant) throws -> StressSummary {
        let context = try Context()
        // With CURVE (attached to a secured runtime): the configuration's client key, for every connection.
        let keys = try config.clientKeys()
        let control = try CommandClient(
            context: context,
            endpoints: config.commandEndpoints,
            timeout: .seconds(30),
            curve: keys
        )
        let collectors = try (0..<command.subscribers).map { index in
            try EventCollector(
                name: "subscriber \(index)",
                context: context,
                endpoints: config.eventEndpoints,
                keepPayloads: index == 0,
                curve: keys
            )
        }
        let checkFrom = try probe(control, collectors)
        let hostNames = try control.snapshot().hosts.filter(\.up).map(\.name).sorted()
        guard !hostNames.isEmpty else { throw LoadError("no host is connected to the supervisor") }

        // Every client's pool, created by the system, spread over the hosts in turn.
        // Contended: one pool shared by every client, so their commands race on the same controllers.
        let (pools, creations) = ClientPools(
            prefix: command.prefix,
            clients: command.clients,
            controllers: command.controllers,
            contended: command.contended,
            answering: command.answering,
            seed: command.seed
        ).split
        command.note("creating \(creations.map(\.count).reduce(0, +)) controllers over \(hostNames.count) hosts")
        let commands = creations.joined().enumerated().map { index, request in
            ClientCommand(request, host: hostNames[index % hostNames.count])
        }
        for start in stride(from: 0, to: commands.count, by: 250) {
            do {
                _ = try control.submit(Array(commands[start..<min(start + 250, commands.count)]))
            } catch {
                throw LoadError("creating the controllers failed: \(error) (is --prefix \(command.prefix) in use?)")
            }
        }

        let clients = pools.enumerated().map { index, pool in
            var client = StressClient(
                index: index,
                pool: pool,
                foreign: pools.count > 1 && !command.contended
                    ? Array(pools[(index + 1) % pools.count].all.prefix(32)) : [],
                prefix: command.prefix,
                seed: command.seed,
                invalidRatio: command.invalidRatio,
                // Answering code changes what a client's replica cannot see: its replies are judged by the replay.
                contended: command.contended || command.answering,
                // Layout constraints (SPEC §16) among the rest: added, refused as unsatisfiable, removed.
                constraints: true
            )
            client.adopt(creations[command.contended ? 0 : index])
            return client
        }
        let daemons = try self.daemons(control)
        let first = daemons.map { ProcessSample(name: $0.name, pid: $0.pid) }
        command.note("\(command.clients) clients running")
        let (results, seconds, warm) = try drive(clients, collectors: collectors, daemons: daemons)

        // After restarts, a SUB may still be reconnecting to the last supervisor: probes until every subscriber hears
        // it again, so what it lost lies only at a restart.
        if local?.supervisorRestarts ?? 0 > 0 { try settle(control, collectors) }
        // Hosts killed or stalled, or a supervisor killed (they register with the new one): every one up again (and
        // given what it missed) before the checks ask them — a killed one as another process: the supervisor may not
        // have noticed a kill of the last moment yet, and still count the dead process up.
        if (local?.hostKills ?? 0) + (local?.hostStalls ?? 0) + (local?.supervisorRestarts ?? 0) > 0 {
            let deadline = clock.now + .seconds(30)
            let killed = local?.killedPIDs ?? [:]
            while try control.snapshot().hosts.contains(where: { !$0.up || killed[$0.name] == $0.pid }),
                clock.now < deadline
            {
                Thread.sleep(forTimeInterval: 0.05)
            }
        }
        // The end: the final tree, every subscriber caught up with it, the journal.
        // Animated switches still running (a tap on a navigation bar's back button pops, animated) complete by the
        // supervisor's timers, once any question their completion asks is answered: the final tree is after them.
        var snapshot = try control.snapshot()
        let settled = clock.now + .seconds(30)
        while snapshot.transitionCount > 0, clock.now < settled {
            Thread.sleep(forTimeInterval: 0.02)
            snapshot = try control.snapshot()
        }
        let finalSeq = snapshot.seq
        let deadline = clock.now + .seconds(60)
        while collectors.contains(where: { $0.latestSeq < finalSeq }), clock.now < deadline {
            Thread.sleep(forTimeInterval: 0.02)
        }
        let seen = collectors.map { $0.finish() }
        command.note("checking \(finalSeq - checkFrom + 1) events against the model")
        let records = try local?.journalEntries() ?? JournalReplay.entries(at: config.journalPath)
        let restarts = local?.supervisorRestarts ?? 0
        let hostKills = local?.hostKills ?? 0
        var verifier = StressVerifier(
            checkFrom: checkFrom,
            finalSeq: finalSeq,
            reference: seen[0],
            restarts: restarts > 0
        )
        verifier.run(records: records, operations: results.flatMap(\.operations))
        var checks = verifier.checks(
            records: records.count(where: \.holdsCommands),
            answers: (records.reduce(0) { $0 + $1.answerCount }, records.reduce(0) { $0 + $1.timedOutAnswers })
        )
        checks.append(verifier.compare(snapshot))
        checks.append(Self.subscriberCheck(seen, from: checkFrom, to: finalSeq, restarts: restarts))
        checks.append(Self.exactlyOnceCheck(records: records, results: results, restarts: restarts))
        checks.append(Self.predictionCheck(results, contended: command.contended || command.answering))
        checks.append(
            Self.hostEventsCheck(
                seen[0],
                refusals: results.reduce(0) { $0 + $1.hostRefusals },
                hostsDisturbed: hostKills > 0 || (local?.hostStalls ?? 0) > 0 || local == nil
            )
        )
        checks.append(
            callbackCheck(
                control,
                expected: verifier.expectedDigests,
                seqs: verifier.callbackSeqs,
                hostOf: verifier.replay.hostOf
            )
        )
        // The daemons now, by the processes started (a killed supervisor's successor in its place); attached: the
        // very processes of the start, so one that died is seen dead.
        let last = (local != nil ? try self.daemons(control) : daemons).map {
            ProcessSample(name: $0.name, pid: $0.pid)
        }
        var restarted: Set<String> = restarts > 0 ? ["supervisor"] : []
        // Of a replicated runtime, each supervisor may have been the leader killed.
        if local?.leaderKills ?? 0 > 0 { restarted.formUnion(["supervisor-a", "supervisor-b"]) }
        if hostKills > 0 { restarted.formUnion(local?.hostNames ?? []) }
        if let stalls = local?.hostStalls, stalls > 0 { command.note("stalled hosts \(stalls) times") }
        checks.append(Self.healthCheck(start: first, warm: warm, end: last, restarted: restarted))
        if let local {
            // A failed run's daemons' logs and journal are what explains it: kept, and where said even when quiet.
            let failed = checks.contains { !$0.passed }
            let stopped = local.stop(keepRunDirectory: failed)
            if failed {
                let kept = local.config.runDirectory
                standardError("stress: a check failed; the run directory (logs, journal) is kept: \(kept)\n")
            }
            checks.append(
                StressCheck(
                    name: "daemons stop cleanly on SIGTERM",
                    passed: stopped.isEmpty,
                    detail: stopped.isEmpty
                        ? "\(daemons.count) exited 0, no socket or pid file left" : "\(stopped.count) did not",
                    failures: stopped
                )
            )
        }
        return StressSummary(
            command: command,
            results: results,
            seconds: seconds,
            events: Int(finalSeq - checkFrom + 1),
            checks: checks,
            processes: zip(first, zip(warm ?? first, last)).map { ProcessUse(start: $0, warm: $1.0, end: $1.1) },
            total: (clock.now - started)
        )
    }

    /// Sends creations of a probe controller until every subscriber sees events; returns the seq of the first event
    /// after that, from which every subscriber must see everything.
    private func probe(_ control: CommandClient, _ collectors: [EventCollector]) throws -> UInt64 {
        let probe = Request.system(.create(ControllerID("\(command.prefix)-probe"), kind: .content))
        func send() throws -> UInt64 {
            do {
                return try control.submit([probe]).events.first?.seq ?? 0
            } catch {
                // Created once; every later probe is refused with a published ruleViolation, which serves as well.
                guard error.seq > 0 else { throw LoadError("the probe command failed: \(error)") }
                return error.seq
            }
        }
        let deadline = clock.now + .seconds(10)
        while collectors.contains(where: { $0.latestSeq == 0 }) {
            guard clock.now < deadline else { throw LoadError("the subscribers receive no event") }
            _ = try send()
            Thread.sleep(forTimeInterval: 0.02)
        }
        return try send()
    }

    /// Sends probes (refused creations, each publishing a `ruleViolation`) until every subscriber has seen one.
    private func settle(_ control: CommandClient, _ collectors: [EventCollector]) throws {
        let probe = Request.system(.create(ControllerID("\(command.prefix)-probe"), kind: .content))
        let deadline = clock.now + .seconds(30)
        while clock.now < deadline {
            let seq: UInt64
            do {
                seq = try control.submit([probe]).events.first?.seq ?? 0
            } catch {
                seq = error.seq
            }
            let wait = clock.now + .milliseconds(200)
            while clock.now < wait {
                if collectors.allSatisfy({ $0.latestSeq >= seq }) { return }
                Thread.sleep(forTimeInterval: 0.01)
            }
        }
        throw LoadError("the subscribers do not hear the restarted supervisor")
    }

    /// The supervisor and the hosts, with their process ids (from the pid file and the snapshot).
    private func daemons(_ control: CommandClient) throws -> [(name: String, pid: Int32)] {
        if let local { return local.daemons }
        let pidFile = config.runDirectory + "/supervisor.pid"
        let supervisor = (try? String(contentsOfFile: pidFile, encoding: .utf8)).flatMap {
            Int32($0.trimmingCharacters(in: .whitespacesAndNewlines))
        }
        let hosts = try control.snapshot().hosts.filter(\.up).sorted { $0.name < $1.name }.map { ($0.name, $0.pid) }
        return (supervisor.map { [("supervisor", $0)] } ?? []) + hosts
    }

    /// Runs the clients on their own threads and shows progress; returns their results, how long they ran, and
    /// the daemons' use a quarter of the way in (the baseline of the leak check).
    private func drive(
        _ clients: [StressClient],
        collectors: [EventCollector],
        daemons: [(name: String, pid: Int32)]
    ) throws -> ([StressClientResult], Double, [ProcessSample]?) {
        let progress = StressProgress()
        let results = Mutex<[StressClientResult]>([])
        let failure = Mutex<String?>(nil)
        let group = DispatchGroup()
        let context = try Context()
        // Every supervisor's: a replicated runtime's clients follow its leader.
        let endpoints = config.commandEndpoints
        let keys = try config.clientKeys()
        let perClient = command.ops.map { ops in
            (0..<clients.count).map { ops / clients.count + ($0 < ops % clients.count ? 1 : 0) }
        }
        let start = clock.now
        let deadline: ContinuousClock.Instant? =
            command.ops == nil ? start + .milliseconds(Int64(command.duration * 1000)) : nil
        for (index, client) in clients.enumerated() {
            group.enter()
            let operations = perClient?[index]
            Thread.detachNewThread {
                var client = client
                do {
                    let connection = try CommandClient(
                        context: context,
                        endpoints: endpoints,
                        timeout: .seconds(30),
                        curve: keys
                    )
                    let result = client.run(
                        client: connection,
                        operations: operations,
                        deadline: deadline,
                        progress: progress
                    )
                    results.withLock { $0.append(result) }
                } catch {
                    failure.withLock { $0 = "client \(index): \(error)" }
                    progress.requestStop()
                }
                group.leave()
            }
        }
        let terminal = isatty(STDERR_FILENO) == 1
        var lastPrint = start
        var warm: [ProcessSample]?
        let total = command.ops.map(Double.init) ?? command.duration
        let killEvery = command.killSupervisorEvery.map { Duration.milliseconds(Int64($0 * 1_000)) }
        var lastKill = start
        let killLeaderEvery = command.killLeaderEvery.map { Duration.milliseconds(Int64($0 * 1_000)) }
        var lastLeaderKill = start
        let killHostEvery = command.killHostEvery.map { Duration.milliseconds(Int64($0 * 1_000)) }
        var lastHostKill = start
        var hostRandom = SplitMix64(seed: command.seed ^ 0x5EED_0F04_0570)
        let stopHostEvery = command.stopHostEvery.map { Duration.milliseconds(Int64($0 * 1_000)) }
        var lastHostStall = start
        var stalled: (host: String, until: ContinuousClock.Instant)?
        // A supervisor (or leader) is killed again only once the one serving after the last kill has every host
        // registered: on a machine too slow to come back within the interval, kills would otherwise follow each other
        // before any host is back, and clients find no host for as long as the kills go on. `recovering` is when the
        // last kill was, until then.
        var recovering: ContinuousClock.Instant?
        while group.wait(timeout: .now() + 0.25) == .timedOut {
            if let local, let killedAt = recovering, local.hostsNotUp(context: context)?.isEmpty == true {
                recovering = nil
                let back = Double((clock.now - killedAt).nanoseconds) / 1e9
                command.note(String(format: "every host registered again %.2f s after the kill", back))
            }
            if let local, let killEvery, recovering == nil, clock.now - lastKill >= killEvery, !progress.stopping {
                lastKill = clock.now
                do {
                    try local.restartSupervisor()
                    recovering = lastKill
                    command.note("killed the supervisor (SIGKILL) and started it again (\(local.supervisorRestarts))")
                } catch {
                    failure.withLock { $0 = "restarting the supervisor: \(error)" }
                    progress.requestStop()
                }
            }
            if let local, let killLeaderEvery, recovering == nil, clock.now - lastLeaderKill >= killLeaderEvery,
                !progress.stopping
            {
                lastLeaderKill = clock.now
                do {
                    let leader = try local.leader()
                    if try local.killLeader() {
                        recovering = lastLeaderKill
                        command.note(
                            "killed the leader, supervisor \(leader ?? "?") (SIGKILL), and started it again as a standby"
                                + " (\(local.leaderKills))"
                        )
                    }
                } catch {
                    failure.withLock { $0 = "killing the leader: \(error)" }
                    progress.requestStop()
                }
            }
            if let local, let killHostEvery, clock.now - lastHostKill >= killHostEvery, !progress.stopping {
                lastHostKill = clock.now
                // The hosts are never empty (--hosts is at least 1).
                let host = local.hostNames.randomElement(using: &hostRandom)!
                local.killHost(host)
                command.note("killed host \(host) (SIGKILL); its supervisor starts it again (\(local.hostKills))")
            }
            if let local, let stopHostEvery, !progress.stopping {
                if let (host, until) = stalled, clock.now >= until {
                    local.resumeHost(host)
                    stalled = nil
                }
                if stalled == nil, clock.now - lastHostStall >= stopHostEvery {
                    lastHostStall = clock.now
                    // The hosts are never empty (--hosts is at least 1).
                    let host = local.hostNames.randomElement(using: &hostRandom)!
                    local.stallHost(host)
                    // Stalled for half the interval: long enough to be declared down in the runs that matter.
                    stalled = (host, clock.now + stopHostEvery / 2)
                    command.note("stalled host \(host) (SIGSTOP) for \(stopHostEvery / 2)")
                }
            }
            let elapsed = Double((clock.now - start).nanoseconds) / 1e9
            let done = command.ops == nil ? elapsed : Double(progress.done)
            if warm == nil, done >= total / 4 { warm = daemons.map { ProcessSample(name: $0.name, pid: $0.pid) } }
            guard !command.quiet, clock.now - lastPrint >= (terminal ? .seconds(1) : .seconds(5)) else { continue }
            lastPrint = clock.now
            let line = String(
                format: "%6.1f s  %9d ops  %7.0f ops/s  %5.1f%% accepted  seq %llu  %d transport failures",
                elapsed,
                progress.done,
                Double(progress.done) / max(elapsed, 0.001),
                100 * Double(progress.accepted) / Double(max(progress.done, 1)),
                collectors.map(\.latestSeq).min() ?? 0,
                progress.transportFailures
            )
            standardError(terminal ? "\r\(line)" : "stress: \(line)\n")
        }
        if terminal, !command.quiet { standardError("\n") }
        if let local, let (host, _) = stalled { local.resumeHost(host) }
        if let message = failure.withLock({ $0 }) { throw LoadError(message) }
        let seconds = Double((clock.now - start).nanoseconds) / 1e9
        return (results.withLock { $0 }.sorted { $0.client < $1.client }, seconds, warm)
    }

    /// Asks every controller's actor what it received, and compares with the model's callbacks for it.
}
