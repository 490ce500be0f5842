import Foundation
import Synchronization
import Testing

@testable import ContainmentLoad

/// A process's CPU time as the bench reads it (`ProcessSample.cpuNanos`): a thread that ended still counts. Reading
/// only the threads alive lost an ended thread's time, so the next reading could be less than the last (a checkpoint
/// writer's thread ended in a bench run, and the difference overflowed).
@Suite struct ProcessCPUTests {
    @Test func aThreadThatEndedStillCountsAndTheTimeSinceNeverGoesBack() {
        let pid = getpid()
        let before = ProcessSample.cpuNanos(of: pid)
        #expect(before > 0)
        // A thread that spins until it has had 100 ms of a CPU (its own clock, whatever the machine's load), then ends.
        let ended = DispatchSemaphore(value: 0)
        let thread = Mutex<String>("")
        Thread {
            // Its own entry: /proc/thread-self links to PID/task/TID.
            let own = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/thread-self")) ?? ""
            thread.withLock { $0 = own }
            var spent = timespec()
            repeat {
                clock_gettime(CLOCK_THREAD_CPUTIME_ID, &spent)
            } while spent.tv_sec == 0 && spent.tv_nsec < 100_000_000
            ended.signal()
        }.start()
        ended.wait()
        // Read once it is gone from /proc/PID/task (a moment after its last instruction): only the ended threads'
        // count has its time then.
        let task = "/proc/" + thread.withLock { $0 }
        #expect(task.contains("/task/"))
        // Its exit awaited: a 5 ms poll interval, at most 5 s.
        for _ in 0..<1_000 where FileManager.default.fileExists(atPath: task) { Thread.sleep(forTimeInterval: 0.005) }
        #expect(!FileManager.default.fileExists(atPath: task))
        let since = ProcessSample.cpuNanos(of: pid, since: before)
        // Its 100 ms, to a clock tick (ended threads are counted in ticks of 10 ms).
        #expect(since >= 90_000_000, "\(since) ns")
        #expect(ProcessSample.cpuNanos(of: pid, since: UInt64.max) == 0)
        #expect(ProcessSample.cpuNanos(of: -1) == 0)
    }
}
