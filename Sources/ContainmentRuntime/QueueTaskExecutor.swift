import ContainmentConfig
import Dispatch

/// A task executor whose jobs run on a serial dispatch queue of their own, off Swift's cooperative pool: a task that
/// prefers it (`Task(executorPreference:)`, `withTaskExecutorPreference`) runs there, so a pool held by CPU-bound work
/// (two threads on a two-core machine) cannot keep it from starting or resuming, nor can it hold the pool.
///
/// The jobs take turns on the one queue: a task that suspends lets the next one run.
package final class QueueTaskExecutor: TaskExecutor {
    private let queue: DispatchQueue
    private let mark = DispatchSpecificKey<Bool>()

    package init(label: String) {
        // A serial queue of its own: it targets an overcommitting root queue, which gives it a thread when it has work
        // whatever the other threads are doing.
        queue = DispatchQueue(label: label)
        queue.setSpecific(key: mark, value: true)
    }

    /// Whether the caller runs on this executor's queue.
    package var isCurrent: Bool { DispatchQueue.getSpecific(key: mark) == true }

    package func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        queue.async { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}
