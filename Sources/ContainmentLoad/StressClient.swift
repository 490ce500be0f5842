import ContainmentBus
import ContainmentModel
import ContainmentWorkload
import Foundation
import ZeroMQ

/// One operation as a client saw it: what it sent and what came back.
package struct StressOperation: Sendable {
    package enum Outcome: Sendable {
        /// Accepted: the command id, and the count and hash of the events in the reply (their encoded bytes); no hash
        /// when the reply named its events by seq only (a resend's answer too large to keep, ``Acceptance/elided``).
        case accepted(commandID: UInt64, eventCount: Int, eventHash: UInt64?)
        case rejected(RemoteError)

        /// What an accepted reply says.
        package init(_ accepted: Acceptance) {
            if let elided = accepted.elided {
                self = .accepted(commandID: accepted.commandID, eventCount: elided.count, eventHash: nil)
            } else {
                self = .accepted(
                    commandID: accepted.commandID,
                    eventCount: accepted.events.count,
                    eventHash: EventHash.of(accepted.events.map(\.bytes))
                )
            }
        }
    }

    package var client: Int
    package var commands: [ClientCommand]
    package var outcome: Outcome

    package init(client: Int, commands: [ClientCommand], outcome: Outcome) {
        self.client = client
        self.commands = commands
        self.outcome = outcome
    }
}

/// What one client did.
package struct StressClientResult: Sendable {
    package var client: Int
    package var operations: [StressOperation] = []
    /// Replies its replica of its part of the tree did not predict (the first few, described).
    var mispredictions = 0
    var mispredicted: [String] = []
    /// Contended: replies other than its replica foresaw (another client changed the controllers first).
    var raced = 0
    /// Commands naming other clients' controllers that were accepted: the partition (and R2) broken.
    var breaches: [String] = []
    /// Requests that got no reply at all (timeouts, a lost supervisor).
    package var transportFailures: [String] = []
    /// Refusals for want of a host before anything was judged (`hostUnavailable`, no command id), tried again.
    package var hostRefusals = 0
    var latencies: [UInt64] = []

    package init(client: Int) { self.client = client }
}

/// A client of `stress`: on its own thread, it draws random commands over its own pool of controllers (and sometimes
/// deliberately invalid ones), predicts each answer with its replica of its part of the tree, sends it through its own
/// DEALER and records the reply. Pools are disjoint and memory warnings scoped to the pool, so the replica stays exact
/// whatever the other clients do, and the command stream depends only on the seed.
package struct StressClient: Sendable {
    let index: Int
    let pool: CommandPool
    let invalidRatio: Double
    /// Sharing its pool with the other clients: its replica is what its own commands alone would make of the tree,
    /// so it still draws the same commands from the seed, but it cannot predict the replies (the journal's replay
    /// judges them).
    let contended: Bool
    var generator: RandomCommands
    var invalid: InvalidCommands
    var rng: SplitMix64
    var replica = ContainmentState()

    package init(
        index: Int,
        pool: CommandPool,
        foreign: [ControllerID],
        prefix: String,
        seed: UInt64,
        invalidRatio: Double,
        contended: Bool = false,
        constraints: Bool = false,
        moreTabs: Bool = false
    ) {
        self.index = index
        self.pool = pool
        self.invalidRatio = invalidRatio
        self.contended = contended
        let clientSeed = seed &+ UInt64(index + 1) &* 0x9E37_79B9_7F4A_7C15
        generator = RandomCommands(seed: clientSeed, manual: true, pool: pool)
        generator.timedTransitions = false
        generator.globalMemoryWarnings = false
        generator.constraints = constraints
        generator.moreTabs = moreTabs
        invalid = InvalidCommands(pool: pool, foreign: foreign, prefix: prefix)
        rng = SplitMix64(seed: clientSeed ^ 0xD1B5_4A32_D192_ED03)
    }

    /// Follows the pool's creations, as the setup sent them.
    package mutating func adopt(_ creations: [Request]) {
        for request in creations { _ = try? replica.apply(request) }
    }

    /// The next operation: requests the replica judges (or `nil`), and what to send.
    package mutating func draw() -> InvalidCommands.Pick {
        if Double.random(in: 0..<1, using: &rng) < invalidRatio { return invalid.next(using: &rng) }
        while true {
            let requests = generator.next(in: replica)
            if !requests.isEmpty {
                return InvalidCommands.Pick(commands: requests.map { ClientCommand($0) }, requests: requests)
            }
        }
    }

    /// Runs `operations` operations, or until `deadline`, or until `stop` says so.
    mutating func run(
        client: CommandClient,
        operations: Int?,
        deadline: ContinuousClock.Instant?,
        progress: StressProgress
    ) -> StressClientResult {
        var result = StressClientResult(client: index)
        let clock = ContinuousClock()
        var done = 0
        while operations.map({ done < $0 }) ?? true, deadline.map({ clock.now < $0 }) ?? true, !progress.stopping {
            let pick = draw()
            let predicted = predict(pick)
            let started = clock.now
            let outcome: StressOperation.Outcome
            do {
                let accepted = try Self.submit(pick.commands, through: client, refusals: &result.hostRefusals)
                outcome = .init(accepted)
            } catch let error where error.commandID == 0 && Self.isTransport(error) {
                result.transportFailures.append("\(pick.commands.map(\.kindName)): \(error)")
                progress.failed()
                if result.transportFailures.count >= 3 { break }
                continue
            } catch {
                outcome = .rejected(error)
            }
            result.latencies.append(UInt64((clock.now - started).nanoseconds))
            check(pick, predicted: predicted, outcome: outcome, into: &result)
            result.operations.append(StressOperation(client: index, commands: pick.commands, outcome: outcome))
            progress.count(accepted: { if case .accepted = outcome { true } else { false } }())
            done += 1
        }
        return result
    }

    /// Submits `commands`; a refusal for want of a host, before the model judged anything (a supervisor just restarted,
    /// its hosts not registered again yet), is tried again for up to ``hostWait`` from the first such refusal (not
    /// from the submission: a first answer may come late): nothing was applied, so nothing can be applied twice.
    static func submit(
        _ commands: [ClientCommand],
        through client: CommandClient,
        refusals: inout Int
    ) throws(RemoteError) -> Acceptance {
        let clock = ContinuousClock()
        var giveUp: ContinuousClock.Instant?
        while true {
            do {
                return try client.submit(commands)
            } catch let error where error.commandID == 0 && error.error.code == .hostUnavailable {
                refusals += 1
                let limit = giveUp ?? clock.now + hostWait
                giveUp = limit
                guard clock.now < limit else { throw error }
                Thread.sleep(forTimeInterval: 0.05)
            }
        }
    }

    /// How long a client waits for hosts to register again after one kill (the run never kills again before they
    /// are: see `StressRun`). With six busy loops on 2 cores, a restart took 1.1–1.9 s to have every host back, a
    /// failover (no load beside it) 2.3–2.5 s; the margin is for a whole test run beside it.
    static let hostWait: Duration = .seconds(15)

    static func isTransport(_ error: RemoteError) -> Bool {
        error.error.code == .timeout || error.error.code == .hostUnavailable
    }

    /// What the replica answers: the code and index of a rejection, or `nil` for acceptance; not judged (`.none`)
    /// for commands naming other clients' controllers.
    package mutating func predict(_ pick: InvalidCommands.Pick) -> Prediction {
        guard let requests = pick.requests else {
            return pick.commands.contains(where: \.lacksKind) ? .rejected(.malformed, 0) : .unjudged
        }
        do {
            _ = try replica.apply(batch: requests)
            return .accepted
        } catch {
            return .rejected(error.error.code, error.index)
        }
    }

    package enum Prediction {
        case accepted
        case rejected(ContainmentError.Code, Int)
        case unjudged
    }

    package func check(
        _ pick: InvalidCommands.Pick,
        predicted: Prediction,
        outcome: StressOperation.Outcome,
        into result: inout StressClientResult
    ) {
        let agrees: Bool
        switch (predicted, outcome) {
        case (_, _) where contended:
            // Other clients act on the same controllers: a reply the replica did not foresee is a race, counted.
            if case .unjudged = predicted { return }
            if case .accepted = predicted, case .accepted = outcome { return }
            if case .rejected(let code, let index) = predicted, case .rejected(let error) = outcome,
                code == error.error.code, index == error.index
            {
                return
            }
            result.raced += 1
            return
        case (.unjudged, .accepted):
            result.breaches.append("\(pick.commands.map(\.kindName)) by \(pick.commands.map(\.party)) was accepted")
            return
        case (.unjudged, .rejected): agrees = true
        case (.accepted, .accepted): agrees = true
        case (.rejected(let code, let index), .rejected(let error)):
            agrees = code == error.error.code && index == error.index
        default: agrees = false
        }
        guard !agrees else { return }
        result.mispredictions += 1
        if result.mispredicted.count < 5 {
            result.mispredicted.append("\(pick.commands.map(\.kindName)): replica said \(predicted), got \(outcome)")
        }
    }
}

/// A hash over a sequence of encoded events (or commands), each followed by a separator byte, so a reply's events
/// and the replayed ones compare cheaply.
package enum EventHash {
    package static func of(_ payloads: [[UInt8]]) -> UInt64 {
        var hash = FNV1a()
        for payload in payloads {
            hash.add(payload)
            hash.add(UInt8(0xFF))
        }
        return hash.value
    }
}
