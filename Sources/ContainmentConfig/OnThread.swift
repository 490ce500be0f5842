import Foundation

/// Runs blocking work (a socket loop) on a thread of its own, so it never holds a thread of Swift's cooperative pool,
/// and returns its result to the awaiting task.
package func runOnThread<Value: Sendable>(
    named name: String,
    _ body: @escaping @Sendable () throws -> Value
) async throws -> Value {
    try await withCheckedThrowingContinuation { continuation in
        let thread = Thread {
            continuation.resume(with: Result<Value, any Error> { try body() })
        }
        thread.name = name
        thread.start()
    }
}
