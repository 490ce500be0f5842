import Dispatch
import ContainmentClient
import ContainmentModel
import Distributed

/// `counter`: a controller with typed methods, for the runtime's own tests and `containment bench`'s typed-call row.
package distributed actor CounterController: DistributedController {
    package typealias ActorSystem = ContainmentActorSystem

    private let controller: ControllerRef
    private var total = 0

    package init(controller: ControllerRef) {
        self.controller = controller
        actorSystem = controller.actorSystem
    }

    /// Adds `amount` to its total; returns the total.
    package distributed func add(_ amount: Int) -> Int {
        total += amount
        return total
    }

    /// The machine's monotonic time, in nanoseconds since boot, when the method runs in its actor
    /// (`DispatchTime.uptimeNanoseconds`: one clock for every process of the machine): `bench calls` measures from a
    /// caller's send to here.
    package distributed func runsAt() -> UInt64 {
        DispatchTime.now().uptimeNanoseconds
    }

    /// Its total.
    package distributed func value() -> Int {
        total
    }

    /// Titles itself "pausing" (so a test sees the method has begun), then holds its actor for `milliseconds`: a
    /// method still running when its host dies.
    package distributed func pause(milliseconds: Int) async throws {
        try await controller.setProperties([.title("pausing")])
        try await Task.sleep(for: .milliseconds(milliseconds))
    }

    /// Throws an error of the app's own: its caller receives `methodFailed`.
    package distributed func fail(_ reason: String) throws {
        throw CounterFailure(reason: reason)
    }

    /// Its string verb `add AMOUNT` (`ctl invoke`): what ``add(_:)`` does, without an answer.
    package func handle(_ callback: Event, controller: ControllerRef) async {
        guard case .verbInvoked(_, "add", let arguments, _) = callback, arguments.count == 1,
            let amount = Int(arguments[0])
        else { return }
        total += amount
    }

    /// The verbs it answers beside its typed methods.
    package static let verbs = ["add"]
}

package struct CounterFailure: Error, CustomStringConvertible {
    package let reason: String
    package var description: String { "the counter failed: \(reason)" }
}
