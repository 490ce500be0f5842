import ContainmentConfig
import Dispatch
import Synchronization

/// A journal read on a second thread while the caller replays it: checksums and decoding overlap the model's work,
/// and at most a few chunks of records are held at once (recovery of a journal of a million records takes about
/// half the time, in bounded memory).
enum JournalStream {
    /// Reads the journal in `directory` from segment `first`, calling `body` with each chunk of records in order.
    /// Damage is thrown after the chunks before it were handled; an error of `body` stops the reading and is thrown.
    static func read(
        directory: String,
        from first: Int,
        body: ([JournalScan.Located]) throws -> Void
    ) throws -> JournalScan {
        let pipe = Pipe()
        let done = DispatchSemaphore(value: 0)
        let outcome = Mutex<Result<JournalScan, JournalDamage>?>(nil)
        DispatchQueue.global().async {
            let result = Result { () throws(JournalDamage) in
                try JournalScan.read(directory: directory, from: first) { pipe.put($0) }
            }
            outcome.withLock { $0 = result }
            pipe.finish()
            done.signal()
        }
        do {
            while let chunk = pipe.take() { try body(chunk) }
        } catch {
            pipe.cancel()
            done.wait()
            throw error
        }
        done.wait()
        // The reader set the outcome before it finished the pipe.
        guard let result = outcome.withLock({ $0 }) else { preconditionFailure("the reader ended without an outcome") }
        return try result.get()
    }

    /// A bounded queue of chunks from the reading thread to the replaying one.
    private final class Pipe: Sendable {
        private struct State {
            var chunks: [[JournalScan.Located]] = []
            var finished = false
            var cancelled = false
        }
        private let state = Mutex(State())
        private let items = DispatchSemaphore(value: 0)
        private let spaces = DispatchSemaphore(value: 4)

        /// Waits for room, then queues a chunk (dropped once the replay stopped).
        func put(_ chunk: [JournalScan.Located]) {
            spaces.wait()
            let queued = state.withLock { state in
                guard !state.cancelled else { return false }
                state.chunks.append(chunk)
                return true
            }
            if queued { items.signal() } else { spaces.signal() }
        }

        /// No more chunks will come.
        func finish() {
            state.withLock { $0.finished = true }
            items.signal()
        }

        /// The next chunk, or `nil` when the reader finished and everything was taken.
        func take() -> [JournalScan.Located]? {
            while true {
                items.wait()
                let next: [JournalScan.Located]?? = state.withLock { state in
                    if !state.chunks.isEmpty { return .some(state.chunks.removeFirst()) }
                    return state.finished ? .some(nil) : nil
                }
                if let next {
                    if next != nil { spaces.signal() }
                    return next
                }
            }
        }

        /// The replay stopped: the reader's waits end and its chunks are dropped.
        func cancel() {
            state.withLock { state in
                state.cancelled = true
                state.chunks.removeAll()
            }
            for _ in 0..<4 { spaces.signal() }
        }
    }
}
