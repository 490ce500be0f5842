import ContainmentConfig
import Foundation
import Synchronization
import Testing

/// The threads the runtime starts for its sockets carry names the system shows (`top -H`, `ps -L`). Foundation's
/// `Thread.name` reaches the system only now and then on Linux (a race with the thread's start, lost about once in
/// 400 starts: the client's thread went unnamed in a CI run), so `nameCurrentThread` writes the thread's own name.
@Suite struct ThreadNameTests {
    @Test func everyThreadStartedIsNamedBeforeItsWorkRuns() {
        let misnamed = Atomic(0)
        let done = DispatchSemaphore(value: 0)
        let starts = 2_000
        for index in 0..<starts {
            Thread {
                let name = "named-\(index)"
                nameCurrentThread(name)
                let seen = try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8)
                if seen?.trimmingCharacters(in: .whitespacesAndNewlines) != name {
                    misnamed.add(1, ordering: .relaxed)
                }
                done.signal()
            }.start()
            done.wait()
        }
        #expect(misnamed.load(ordering: .relaxed) == 0, "threads not named as asked, of \(starts)")
    }

    @Test func aNameLongerThanTheSystemKeepsIsCutTo15Bytes() {
        let done = DispatchSemaphore(value: 0)
        let seen = Mutex<String?>(nil)
        Thread {
            nameCurrentThread("a-name-of-twenty-bytes")
            seen.withLock { $0 = try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8) }
            done.signal()
        }.start()
        done.wait()
        #expect(seen.withLock { $0 }?.trimmingCharacters(in: .whitespacesAndNewlines) == "a-name-of-twent")
    }
}
