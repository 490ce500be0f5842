import ContainmentConfig
import ContainmentRuntime
import Testing

/// The trait of a test (or of every test in a suite) whose synchronous body is CPU-bound — seeds of the simulated world,
/// randomized model runs, the fuzz corpus. Such tests take turns on one thread of their own (`CPULane.executor`)
/// instead of Swift's cooperative pool.
///
/// Why: `swift test` runs every target's tests in one process, and the pool has a thread per core — two here. Two
/// CPU-bound bodies on it held both threads for minutes, so no awaiting test could resume meanwhile: the TestKit's
/// supervisor task could not even start, and its hosts "timed out" (CI, issue 43). On the lane they never hold a pool
/// thread, and never more than one core between them, so the tests of real processes keep one.
public struct CPULane: TestTrait, SuiteTrait, TestScoping {
    /// One lane for the whole test process: its tests run one at a time (a test that suspends lets the next one run).
    package static let executor = QueueTaskExecutor(label: "containment.tests.cpu-lane")

    public var isRecursive: Bool { true }

    public func provideScope(
        for test: Test,
        testCase: Test.Case?,
        performing function: @Sendable () async throws -> Void
    ) async throws {
        // A suite's own scope holds no body; its tests' cases (recursive) each get the lane.
        guard testCase != nil else { return try await function() }
        try await withTaskExecutorPreference(Self.executor) { try await function() }
    }
}

extension Trait where Self == CPULane {
    /// Runs the test's cases on the CPU lane (see `CPULane`).
    public static var cpuBound: Self { CPULane() }
}
