import Foundation
import Synchronization
import Testing
import ZeroMQ

@Suite("Interrupted calls")
struct InterruptionTests {
    /// What the interrupted thread reports back.
    private final class Report: Sendable {
        let thread = Mutex<pthread_t?>(nil)
        let pollResult = Mutex<Result<Int, ZMQError>?>(nil)
        let receiveResult = Mutex<Result<[[UInt8]]?, ZMQError>?>(nil)
        let finished = DispatchSemaphore(value: 0)
    }

    @Test("poll and receive interrupted by signals (EINTR) are retried, not reported")
    func signalsAreRetried() throws {
        // A no-op handler: SIGUSR1 would otherwise end the process. Blocking poll(2) calls inside libzmq return
        // EINTR when the handler runs on their thread, whatever SA_RESTART says.
        signal(SIGUSR1) { _ in }
        let context = try Context()
        let report = Report()
        let thread = Thread {
            // The test runner blocks most signals in its threads; let SIGUSR1 through on this one only.
            var signals = sigset_t()
            sigemptyset(&signals)
            sigaddset(&signals, SIGUSR1)
            pthread_sigmask(SIG_UNBLOCK, &signals, nil)
            report.pollResult.withLock { result in
                result = Result { () throws(ZMQError) in
                    let idle = try context.socket(.pull)
                    try idle.bind("inproc://idle")
                    var poller = Poller()
                    poller.register(idle)
                    report.thread.withLock { $0 = pthread_self() }
                    return try poller.poll(timeout: .milliseconds(300)).count
                }
            }
            report.receiveResult.withLock { result in
                result = Result { () throws(ZMQError) in
                    let pull = try context.testSocket(.pull)
                    try pull.bind("inproc://interrupted")
                    return try pull.receive()
                }
            }
            report.finished.signal()
        }
        thread.start()

        var target: pthread_t?
        while target == nil {
            Thread.sleep(forTimeInterval: 0.005)  // the poll interval, until the thread says it is polling
            target = report.thread.withLock { $0 }
        }
        for _ in 0..<10 {
            if let target {
                pthread_kill(target, SIGUSR1)
            }
            // Time under test: signals spread over the 300 ms poll, each one an EINTR it must ride out.
            Thread.sleep(forTimeInterval: 0.05)
        }
        let push = try context.testSocket(.push)
        try push.connect("inproc://interrupted")
        try push.send("after the signals")
        report.finished.wait()

        #expect(report.pollResult.withLock { $0 } == .success(0))
        #expect(report.receiveResult.withLock { $0 } == .success(frames("after the signals")))
    }
}
