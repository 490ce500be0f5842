import Foundation

/// Waiting for what the runtime does in its own time (a host restarting, a file a daemon writes, a figure that
/// settles): a probe asked again every `interval` until it gives a value or `timeout` passes. The runtime tests wait
/// through this (or through an event, a ready file or `waitUntilIdle`), never by sleeping a fixed time; its pause is the
/// poll interval, not a guess at how long something takes.
enum Poll {
    /// The first value `probe` gives within `timeout`; `nil` when it gave none.
    static func value<T>(
        within timeout: Duration = .seconds(30),
        every interval: Duration = .milliseconds(25),
        _ probe: () async throws -> T?
    ) async throws -> T? {
        let deadline = ContinuousClock.now + timeout
        while true {
            if let value = try await probe() { return value }
            guard ContinuousClock.now < deadline else { return nil }
            try await Task.sleep(for: interval)  // the poll interval
        }
    }

    /// Whether `condition` came to hold within `timeout`.
    @discardableResult
    static func until(
        within timeout: Duration = .seconds(30),
        every interval: Duration = .milliseconds(25),
        _ condition: () async throws -> Bool
    ) async throws -> Bool {
        try await value(within: timeout, every: interval) { try await condition() ? true : nil } ?? false
    }

    /// The same, for a thread that may not suspend (a ZeroMQ socket's own thread, a signal's target).
    static func blockingUntil(
        within timeout: Duration = .seconds(30),
        every interval: TimeInterval = 0.005,
        _ condition: () throws -> Bool
    ) rethrows -> Bool {
        let deadline = ContinuousClock.now + timeout
        while true {
            if try condition() { return true }
            guard ContinuousClock.now < deadline else { return false }
            Thread.sleep(forTimeInterval: interval)  // the poll interval
        }
    }
}
