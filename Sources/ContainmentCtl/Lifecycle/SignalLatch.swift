import Foundation
import Synchronization

/// SIGINT and SIGTERM caught, not obeyed, for as long as it lives: a command that starts daemons checks it between
/// its waits and stops what it started, rather than dying and leaving them running. When it ends, the signals'
/// default is back.
final class SignalLatch {
    private final class Caught: Sendable {
        let signal = Atomic<Int32>(0)
    }
    private let caught = Caught()
    private let sources: [any DispatchSourceSignal]

    init() {
        let caught = caught
        sources = [SIGINT, SIGTERM].map { number in
            Foundation.signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { caught.signal.store(number, ordering: .relaxed) }
            source.resume()
            return source
        }
    }

    /// The signal caught, if any: SIGINT or SIGTERM.
    var signal: Int32? {
        let number = caught.signal.load(ordering: .relaxed)
        return number == 0 ? nil : number
    }

    deinit {
        for source in sources { source.cancel() }
        for number in [SIGINT, SIGTERM] { Foundation.signal(number, SIG_DFL) }
    }
}
