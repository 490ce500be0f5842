import ContainmentBus
import ContainmentModel
import ContainmentTracing
import Foundation
import Instrumentation

/// A client's way for typed calls: one connection to the supervisor on one thread of its own (``ClientChannel``),
/// shared by every call of the actor system, so a call waiting for its answer holds no thread of Swift's cooperative
/// pool and calls cost no thread each. Calls are issued by the system party; a cancelled call throws `cancelled`.
///
/// A call made in a task whose `ServiceContext` carries a sampled trace continues it, as ``RuntimeClient``'s commands
/// do: the supervisor's, the host's and the method's spans follow under the client's.
package final class ClientCallTransport: MethodCallTransport {
    private let channel: ClientChannel
    /// The instrument whose trace a call continues; `nil`: the process's bootstrapped one, at each call.
    private let instrument: (any Instrument)?

    /// `instrument`: a test's stand-in for the app's bootstrapped one.
    package init(
        configPath: String?,
        environment: [String: String],
        instrument: (any Instrument)? = nil
    ) throws(ContainmentError) {
        channel = try ClientChannel.connect(configPath: configPath, environment: environment) {
            "calls-" + $0.prefix(9)
        }.channel
        self.instrument = instrument
    }

    package func call(
        _ target: ControllerID,
        method: String,
        arguments: [String]
    ) async throws(RemoteError) -> String {
        try await channel.call(target, method: method, arguments: arguments, instrument: instrument)
    }
}

extension ClientChannel {
    /// Calls `target`'s typed method on the channel's thread, issued by the system, continuing the trace of the
    /// calling task (``RuntimeClient/call(_:method:arguments:)``, the actor system's calls).
    func call(
        _ target: ControllerID,
        method: String,
        arguments: [String],
        instrument: (any Instrument)?
    ) async throws(RemoteError) -> String {
        // Begun in the caller's task: its ServiceContext is this task's, not the channel thread's.
        let trace = ClientTrace.begin(instrument: instrument ?? InstrumentationSystem.instrument, startingOne: false)
        return try await run { client throws(RemoteError) in
            try client.call(target, method: method, arguments: arguments, by: .system, trace: trace)
        }
    }
}
