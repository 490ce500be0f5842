import Foundation

/// Runs blocking work (a socket loop) on a thread of its own, so it never holds a thread of Swift's cooperative pool,
/// and returns its result to the awaiting task.
package func runOnThread<Value: Sendable>(
    named name: String,
    _ body: @escaping @Sendable () throws -> Value
) async throws -> Value {
    try await withCheckedThrowingContinuation { continuation in
        Thread {
            nameCurrentThread(name)
            continuation.resume(with: Result<Value, any Error> { try body() })
        }.start()
    }
}

/// Gives the calling thread `name` as the system shows it (`ps -L`, `top -H`, `/proc/<pid>/task/*/comm`; Linux keeps
/// its first 15 bytes). Foundation's `Thread.name` is not enough on Linux: set before `start()` it never reaches the
/// system, and set by the thread itself it reaches it only when the parent has already stored the thread's handle
/// (a race lost about once in 400 starts), so the thread writes its own `comm` file.
package func nameCurrentThread(_ name: String) {
    #if os(Linux)
    try? name.write(toFile: "/proc/thread-self/comm", atomically: false, encoding: .utf8)
    #else
    Thread.current.name = name
    #endif
}
