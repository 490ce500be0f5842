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

    /// Applies the whole stream to a fresh state once.
    public func run() -> Tally {
        var state = ContainmentState()
        var tally = Tally()
        for step in steps {
            do {
                tally.events += try state.apply(batch: step).count
                tally.accepted += 1
            } catch {
                tally.rejected += 1
            }
        }
        return tally
    }
}
