import ContainmentBus
import ContainmentModel
import ContainmentTracing
import Foundation
import Instrumentation

/// A client of a running Containment runtime: it submits commands to the supervisor, which checks them against the
/// rules, journals and applies them, and reads the tree.
///
/// Every request carries this client's id and a request id, and is sent again (the same ids) while no answer comes,
/// until the settings' `requestTimeoutMs`: a command is applied once, however often it is sent, even across a
/// supervisor restart. With CURVE (runtime.yaml's `curve`), it uses the client key the settings name.
///
/// Its methods are `async`: the client's one socket is used by one thread of its own, which runs the requests of
/// every task sharing the client in turn, so a request waiting for its answer holds no thread of Swift's cooperative
/// pool. A request whose task is cancelled throws `cancelled` at once (one already sent may still be applied, once).
///
/// A command performed in a task whose `ServiceContext` carries a sampled trace — the app bootstrapped
/// swift-distributed-tracing's `InstrumentationSystem` with a W3C instrument (swift-otel's, say) and is inside one
/// of its spans — continues that trace: the supervisor, the hosts and the actors keep their spans of it under the
/// client's (docs/PROTOCOL.md, "Tracing"), which `containment trace` prints and `containment-web traces` exports
/// into the app's own trace. So does a typed call (``call(_:method:arguments:)``), down to the method's span in the
/// controller's actor. Without one, nothing is traced.
public final class RuntimeClient: Sendable {
    private let channel: ClientChannel
    /// The instrument whose trace a command continues; `nil`: the process's bootstrapped one, at each command.
    private let instrument: (any Instrument)?

    /// This client's id, which makes a resend answered rather than applied again.
    public let clientID: String

    /// Connects to the runtime that the settings at `configPath` describe (else `CONTAINMENT_CONFIG`'s, else the
    /// defaults for `CONTAINMENT_RUN_DIR`). Throws `hostUnavailable` when no supervisor listens there, and a
    /// `malformed` error naming the setting when the settings are not valid.
    public convenience init(
        configPath: String? = nil,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws(ContainmentError) {
        try self.init(configPath: configPath, environment: environment, instrument: nil)
    }

    /// The same, continuing the traces `instrument` injects (a test's stand-in for the app's bootstrapped one).
    package init(
        configPath: String? = nil,
        environment: [String: String] = ProcessInfo.processInfo.environment,
        instrument: (any Instrument)?
    ) throws(ContainmentError) {
        // Its thread is named after the client (a thread name keeps 15 bytes): `client-` and 8 of its id.
        (channel, clientID) = try ClientChannel.connect(configPath: configPath, environment: environment) {
            "client-" + $0.prefix(8)
        }
        self.instrument = instrument
    }

    /// Applies `requests` as one transaction and returns the events they caused, or throws the rejection (the error
    /// code, and the index of the command refused). `hosts` places the controllers a `create` makes: a host of the
    /// topology each; without one the supervisor picks the least loaded host that runs its kind.
    @discardableResult
    public func perform(
        _ requests: [Request],
        hosts: [ControllerID: String] = [:]
    ) async throws(RemoteError) -> [Event] {
        // Begun here, in the caller's task: its ServiceContext is this task's, not the channel thread's.
        let trace = ClientTrace.begin(instrument: instrument ?? InstrumentationSystem.instrument, startingOne: false)
        return try await channel.run { client throws(RemoteError) in
            try client.submit(requests, hosts: hosts, trace: trace).modelEvents()
        }
    }

    /// Applies `commands`, issued by the system (an operator's commands, as `ctl`'s), as one transaction.
    @discardableResult
    public func perform(
        _ commands: [Command],
        hosts: [ControllerID: String] = [:]
    ) async throws(RemoteError) -> [Event] {
        try await perform(commands.map(Request.system), hosts: hosts)
    }

    /// The whole tree now.
    public func snapshot() async throws(RemoteError) -> TreeSnapshot {
        try await channel.run { client throws(RemoteError) in try client.modelSnapshot() }
    }
}

extension RuntimeClient {
    /// Waits until the runtime is idle (as `containment ctl wait-idle`): no timed switch running, no command waiting
    /// for controllers' code to answer, no callback waiting for a host that is up, and every controller's actor done
    /// with what it was given without its code acting — so what code does in answer to a command has happened too.
    /// `timeout` when still busy after `timeout`, naming what still moved.
    public func waitUntilIdle(timeout: Duration) async throws(RemoteError) {
        let outcome = try await channel.run { client throws(RemoteError) in try client.idleOutcome(timeout: timeout) }
        if case .busy(let reason) = outcome {
            throw RemoteError(ContainmentError(.timeout, "Not idle after \(timeout): \(reason)."))
        }
    }

    /// The callbacks `controller`'s actor received, oldest first, as its host reports them: the last
    /// `callbackHistory` (runtime.yaml, 64 by default). `hostUnavailable` when its host is not connected.
    public func callbacks(of controller: ControllerID) async throws(RemoteError) -> [Event] {
        try await channel.run { client throws(RemoteError) in try client.callbackEvents(of: controller) }
    }
}

/// What a controller can be called with, as its host registered its kind (`containment methods`).
public struct ControllerMethods: Sendable, Equatable {
    public var controller: ControllerID
    public var kind: Kind
    /// The host that runs it.
    public var host: String
    /// Its kind's string verbs (an `invoke` command; `ctl invoke`).
    public var verbs: [String]
    /// Its kind's typed methods, by declared name (``RuntimeClient/call(_:method:arguments:)``; `ctl call`).
    public var methods: [MethodDescription]
}

extension RuntimeClient {
    /// What `controller` can be called with: its kind's verbs and typed methods with their JSON Schemas.
    /// `unknownController`; `hostUnavailable` when its host has not registered.
    public func methods(of controller: ControllerID) async throws(RemoteError) -> ControllerMethods {
        let report = try await channel.run { client throws(RemoteError) in try client.methods(of: controller) }
        return ControllerMethods(
            controller: report.controller,
            kind: Kind(report.kind),
            host: report.host,
            verbs: report.verbs,
            methods: report.methods
        )
    }

    /// Calls `controller`'s typed method `method` by its declared name (`insert(child:at:)`) with `arguments`, one
    /// JSON text per parameter in order (`MethodDescription.arguments(fromJSON:)` makes them from one object),
    /// issued by the system; returns its result's JSON text. Throws as a typed call does (``ContainmentActorSystem``).
    public func call(
        _ controller: ControllerID,
        method: String,
        arguments: [String]
    ) async throws(RemoteError) -> String {
        try await channel.call(controller, method: method, arguments: arguments, instrument: instrument)
    }
}

/// The requests above as the channel's thread runs them, their wire errors made typed.
extension CommandClient {
    fileprivate func modelSnapshot() throws(RemoteError) -> TreeSnapshot {
        do {
            return try snapshot().model()
        } catch {
            throw RemoteError(error)
        }
    }

    fileprivate func idleOutcome(timeout: Duration) throws(RemoteError) -> IdleOutcome {
        do {
            return try waitUntilIdle(timeout: timeout)
        } catch {
            throw RemoteError(error)
        }
    }

    fileprivate func callbackEvents(of controller: ControllerID) throws(RemoteError) -> [Event] {
        do {
            var events: [Event] = []
            for callback in try inspect(controller).callbacks { events.append(try callback.model()) }
            return events
        } catch {
            throw RemoteError(error)
        }
    }
}
