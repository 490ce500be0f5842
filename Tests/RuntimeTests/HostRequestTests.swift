import ContainmentBus
import Foundation
import Testing
import ZeroMQ

@testable import ContainmentHost
@testable import ContainmentConfig
@testable import ContainmentRuntime

/// A host's requests (controller code acting through the runtime) have a deadline and can be cancelled: neither
/// leaves a controller's task waiting for ever on a supervisor that does not answer.
@Suite struct HostRequestTests {
    /// A host runtime whose outbox leads nowhere: nothing will ever answer.
    static func unanswered(timeout: Duration) throws -> (Context, HostRuntime) {
        let context = try Context()
        let outbox = try Outbox(context: context, endpoint: "inproc://nobody-\(UUID().uuidString)")
        return (context, HostRuntime(name: "h", outbox: outbox, timeout: timeout))
    }

    @Test func aRequestWithoutAReplyIsAnsweredTimeoutAtItsDeadline() async throws {
        let (context, runtime) = try Self.unanswered(timeout: .milliseconds(100))
        let refusal = try #require(await runtime.request(.snapshot).refusal?.error)
        #expect(refusal.code == .timeout, "\(refusal)")
        #expect(refusal.message.contains("No reply from the supervisor"))
        await runtime.outbox.close()
        context.terminate()
    }

    @Test func aCancelledRequestIsAnsweredAtOnce() async throws {
        let (context, runtime) = try Self.unanswered(timeout: .seconds(60))
        let task = Task { await runtime.request(.snapshot) }
        // Cancelled while it waits for its reply (its 60 s deadline far off).
        #expect(try await Poll.until { runtime.replies.waitingCount == 1 })
        task.cancel()
        let refusal = try #require(await task.value.refusal?.error)
        #expect(refusal.code == .timeout && refusal.message.contains("cancelled"), "\(refusal)")
        await runtime.outbox.close()
        context.terminate()
    }

    /// What the actors hand the host loop is typed: a message for the supervisor or the stop, and nothing else is
    /// taken for either (a message whose bytes happen to spell a command is still a message).
    @Test func theLoopsMailIsTyped() {
        let message = Array("stop".utf8)
        #expect(LoopMail(LoopMail.forward(message).frames) == .forward(message))
        #expect(LoopMail(LoopMail.stop.frames) == .stop)
        #expect(LoopMail([message]) == nil)
        #expect(LoopMail([[2], message]) == nil)
        #expect(LoopMail([]) == nil)
    }

    /// The dispatcher counts every job done, so the host loop reads the supervisor again once it has caught up.
    @Test func theDispatcherCountsTheJobsItFinished() async throws {
        let (context, runtime) = try Self.unanswered(timeout: .seconds(1))
        let finished = FinishedJobs()
        let (jobs, continuation) = AsyncStream<HostJob>.makeStream()
        for _ in 0..<3 { continuation.yield(.deliver([])) }
        continuation.finish()
        await Dispatcher(
            runtime: runtime,
            kinds: .builtIn,
            logger: .init(label: "t"),
            historyLimit: 1,
            mailboxCapacity: 1
        )
        .run(jobs, finished: finished)
        #expect(finished.take() == 3)
        #expect(finished.take() == 0, "each job told once")
        await runtime.outbox.close()
        context.terminate()
    }
}
