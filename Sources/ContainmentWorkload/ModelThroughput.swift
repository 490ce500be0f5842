import ContainmentModel

/// The model alone on one thread: a recorded stream of random requests (valid and invalid, as the randomized tests
/// draw them) applied to a fresh state, and how fast that goes. The stream is recorded first, so drawing random
/// commands is not timed.
public struct ModelThroughput: Sendable {
    /// The steps in order: the pool's creations, then one request or atomic batch per step.
    public let steps: [[Request]]

    /// Records `count` random steps over a pool of `poolSize` controllers (created first), seeded.
    public init(seed: UInt64, count: Int, poolSize: Int = 300) {
        let pool = CommandPool.prefixed("m", count: poolSize)
        var generator = RandomCommands(seed: seed, manual: true, pool: pool)
        generator.timedTransitions = false
        var state = ContainmentState()
        var steps: [[Request]] = pool.creations(seed: seed).map { [$0] }
        for step in steps { _ = try? state.apply(batch: step) }
        while steps.count < count {
            let requests = generator.next(in: state)
            guard !requests.isEmpty else { continue }
            _ = try? state.apply(batch: requests)
            steps.append(requests)
        }
        self.steps = steps
    }

    /// What one pass over the stream did.
    public struct Tally: Sendable, Equatable {
        public var accepted = 0
        public var rejected = 0
        public var events = 0
    }

    /// Applies the whole stream to a fresh state once. `asking`: as the supervisor does once a host registered code
    /// that answers questions (SPEC §15) — every load and layout asks whether its controller's code answers — for a
    /// kind none of the stream's controllers has, so that nothing is asked: the cost of looking.
    public func run(asking: Bool = false) -> Tally {
        var state = ContainmentState()
        var tally = Tally()
        let answers = Answers(answering: ["form": Set(Question.Name.allCases)])
        for step in steps {
            do {
                if asking {
                    guard case .committed(let events) = try state.apply(batch: step, answers: answers) else {
                        preconditionFailure("no controller of the stream answers, so nothing is unanswered")
                    }
                    tally.events += events.count
                } else {
                    tally.events += try state.apply(batch: step).count
                }
                tally.accepted += 1
            } catch {
                tally.rejected += 1
            }
        }
        return tally
    }
}
