import ContainmentBus
import Foundation
import Testing
import ZeroMQ

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
        let reply = await runtime.request(.with { $0.snapshot = Containment_V1_SnapshotRequest() })
        #expect(reply.error.code == "timeout", "\(reply)")
        #expect(reply.error.message.contains("No reply from the supervisor"))
        await runtime.outbox.close()
        context.terminate()
    }

    @Test func aCancelledRequestIsAnsweredAtOnce() async throws {
        let (context, runtime) = try Self.unanswered(timeout: .seconds(60))
        let task = Task { await runtime.request(.with { $0.snapshot = Containment_V1_SnapshotRequest() }) }
        try await Task.sleep(for: .milliseconds(50))
        task.cancel()
        let reply = await task.value
        #expect(reply.error.code == "timeout" && reply.error.message.contains("cancelled"), "\(reply)")
        await runtime.outbox.close()
        context.terminate()
    }
}
