import ContainmentConfig
import Foundation
import Logging
import Synchronization
import ZeroMQ

/// A supervisor's whole loop — ``SupervisorLoop`` with its sockets, its journal (synced per `journalSync: batch`)
/// and its driver — serving in this process, on a thread of its own, from a fresh run directory, until ``stop()``.
/// What `bench loop` drives: it starts no process, so valgrind can count the loop thread's instructions
/// (`scripts/callgrind-loop.sh`: everything inside `SupervisorLoop.run`). Any host may register (`acceptUnknownHosts`);
/// each subscriber's queue holds up to 1,000,000 events.
package final class InProcessSupervisor {
    /// Its command socket (ipc, in its run directory).
    package let endpoint: String
    /// Its event socket (ipc, in its run directory).
    package let eventEndpoint: String
    private let runDirectory: String
    private let context: Context
    private let ended = DispatchSemaphore(value: 0)
    private var stopped = false

    /// Starts serving from a new run directory under `directory`, and returns once its sockets are bound.
    package init(directory: String) throws {
        runDirectory = directory + "/supervisor-\(getpid())-\(UInt32.random(in: 0..<UInt32.max))"
        try FileManager.default.createDirectory(atPath: runDirectory, withIntermediateDirectories: true)
        var config = RuntimeConfig(runDirectory: runDirectory)
        config.acceptUnknownHosts = true
        // A subscriber that falls behind (bench loop's, under valgrind) loses nothing up to the largest queue allowed:
        // every run sends the same events, so callgrind counts the same work.
        config.subscriberQueue = 1_000_000
        endpoint = config.commandEndpoint
        eventEndpoint = config.eventEndpoint
        context = try Context()
        let (context, ended, ready) = (context, ended, DispatchSemaphore(value: 0))
        let failure = Mutex<String?>(nil)
        Thread { [config] in
            nameCurrentThread("supervisor")
            var logger = Logger(label: "containment.in-process-supervisor")
            logger.logLevel = .error
            do {
                let loop = try SupervisorLoop(context: context, config: config, logger: logger)
                ready.signal()
                loop.run()
            } catch {
                failure.withLock { $0 = "\(error)" }
                ready.signal()
            }
            ended.signal()
        }.start()
        ready.wait()
        if let failure = failure.withLock({ $0 }) {
            stop()
            throw ConfigError("the in-process supervisor did not start: \(failure)")
        }
    }

    /// Stops the loop (its context shut down), waits for its thread, and removes its run directory.
    package func stop() {
        guard !stopped else { return }
        stopped = true
        context.shutdown()
        ended.wait()
        context.terminate()
        try? FileManager.default.removeItem(atPath: runDirectory)
    }

    deinit { stop() }
}
