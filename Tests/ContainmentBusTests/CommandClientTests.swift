import ContainmentBus
import ContainmentModel
import Testing
import ZeroMQ

/// The command client's checks before anything is sent.
@Suite struct CommandClientTests {
    /// A request larger than the supervisor's maxMessageBytes would cost the client its connection and never be
    /// answered: refused at once, limitExceeded, without a supervisor to send it to.
    @Test func aRequestOverTheSupervisorsLimitIsRefusedBeforeItIsSent() throws {
        let context = try Context()
        // Nothing listens on it (a TCP connect waits in the background): only the local check can answer.
        let client = try CommandClient(context: context, endpoint: "tcp://127.0.0.1:9", timeout: .seconds(60))
        client.maxMessageBytes = 1_000
        let title = String(repeating: "x", count: 2_000)
        let set = Request(.setProperties("a", [.title(title)]), by: .system)
        // Sent, it would go unanswered until the 60 s timeout (`timeout`): the refusal comes from the check.
        #expect {
            try client.submit([set])
        } throws: { error in
            guard let error = error as? RemoteError else { return false }
            return error.error.code == .limitExceeded && error.error.message.contains("at most 1000")
        }
    }
}
