import ContainmentModel
import Distributed
import Foundation

/// The actor system of typed controller methods: a controller's code declares its public methods as a
/// `distributed actor` of this system (`ContainmentHost`'s `DistributedController`), and any process calls them
/// through a reference, compile-checked.
///
/// A call is not made in the caller's process even when the controller runs there: it goes to the supervisor as an
/// `invoke` that carries its arguments (each one JSON text), is checked, ordered among every other command and
/// journaled like any, reaches the controller's actor in order with its callbacks, and is answered with the method's
/// result. Its errors are `RemoteError`s: `unknownController` (the controller is gone), `hostUnavailable` (its host
/// is down, or went down before answering), `timeout` (no answer within `requestTimeoutMs`), `unknownVerb` (its kind
/// has no such method), `unauthorized` and the rules' own codes (refused), or what the method threw
/// (`methodFailed` for an error that is not the runtime's). A call made in a task that carries a sampled trace (an app
/// that bootstrapped swift-distributed-tracing's instrument) continues it down to the method's span in the actor.
///
/// ```swift
/// let system = try ContainmentActorSystem()  // as CONTAINMENT_CONFIG says
/// let grid = try GridController.resolve(id: "board", using: system)
/// let order = try await grid.insert(child: "tile3", at: 0)
/// ```
public final class ContainmentActorSystem: DistributedActorSystem {
    public typealias ActorID = ControllerID
    public typealias SerializationRequirement = any Codable
    public typealias InvocationEncoder = MethodCallEncoder
    public typealias InvocationDecoder = MethodCallDecoder
    public typealias ResultHandler = MethodResultHandler

    private let transport: any MethodCallTransport
    /// The controller whose actor this system makes, in a host: the id ``assignID(_:)`` gives it.
    private let controller: ControllerID?
    /// A probe's system (``MethodCatalog``): a call stops in `remoteCall`, its result type noted.
    private let probe: MethodProbe?

    package init(transport: any MethodCallTransport, controller: ControllerID? = nil, probe: MethodProbe? = nil) {
        self.transport = transport
        self.controller = controller
        self.probe = probe
    }

    /// A system whose calls go to the runtime the settings at `configPath` describe (else `CONTAINMENT_CONFIG`'s,
    /// else the defaults for `CONTAINMENT_RUN_DIR`), issued by the system party, as `ctl`'s commands are. It holds one
    /// connection, which its calls take in turn. Throws as ``RuntimeClient/init(configPath:environment:)`` does.
    public convenience init(
        configPath: String? = nil,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws(ContainmentError) {
        self.init(transport: try ClientCallTransport(configPath: configPath, environment: environment))
    }

    /// Always `nil`: a reference is a proxy even where the controller runs, so that every call is ordered and
    /// journaled by the supervisor.
    public func resolve<Act>(id: ControllerID, as actorType: Act.Type) throws -> Act?
    where Act: DistributedActor, Act.ID == ControllerID {
        nil
    }

    public func assignID<Act>(_ actorType: Act.Type) -> ControllerID
    where Act: DistributedActor, Act.ID == ControllerID {
        controller ?? ControllerID("local-\(UUID().uuidString)")
    }

    public func actorReady<Act>(_ actor: Act) where Act: DistributedActor, Act.ID == ControllerID {}

    public func resignID(_ id: ControllerID) {}

    public func makeInvocationEncoder() -> MethodCallEncoder {
        MethodCallEncoder()
    }

    public func remoteCall<Act, Err, Res>(
        on actor: Act,
        target: RemoteCallTarget,
        invocation: inout MethodCallEncoder,
        throwing: Err.Type,
        returning: Res.Type
    ) async throws -> Res
    where Act: DistributedActor, Act.ID == ControllerID, Err: Error, Res: Codable {
        if let probe {
            probe.result(SchemaProbe.schema(of: Res.self).schema)
            throw MethodProbe.Stop()
        }
        let result = try await transport.call(
            actor.id,
            method: name(of: target, on: actor),
            arguments: invocation.arguments
        )
        return try MethodCoding.decode(Res.self, from: result)
    }

    public func remoteCallVoid<Act, Err>(
        on actor: Act,
        target: RemoteCallTarget,
        invocation: inout MethodCallEncoder,
        throwing: Err.Type
    ) async throws
    where Act: DistributedActor, Act.ID == ControllerID, Err: Error {
        if let probe {
            probe.result(SchemaProbe.text(["type": "null"]))
            throw MethodProbe.Stop()
        }
        _ = try await transport.call(actor.id, method: name(of: target, on: actor), arguments: invocation.arguments)
    }

    /// A call's name on the wire: the method's declared name (`insert(child:at:)`), as its host registered it; the
    /// mangled name for a target whose readable form the runtime cannot give.
    private func name<Act: DistributedActor>(of target: RemoteCallTarget, on actor: Act) -> String {
        MethodCatalog.declaredName(of: target, on: Act.self) ?? target.identifier
    }

    /// Runs the method a call names on `actor`, a controller's actor of this process, with the call's arguments;
    /// returns its result as JSON text or what it threw. A host calls it for each call its controllers receive.
    package func execute<Act>(
        method name: String,
        arguments: [String],
        on actor: Act
    ) async -> Result<String, RemoteError>
    where Act: DistributedActor, Act.ActorSystem == ContainmentActorSystem {
        let method: String
        switch await MethodCatalog.target(name, of: Act.self) {
        case .success(let mangled): method = mangled
        case .failure(let error): return .failure(RemoteError(error))
        }
        var decoder = MethodCallDecoder(arguments: arguments)
        let handler = MethodResultHandler()
        do {
            try await executeDistributedTarget(
                on: actor,
                target: RemoteCallTarget(method),
                invocationDecoder: &decoder,
                handler: handler
            )
        } catch let error as RemoteError {
            return .failure(error)  // its arguments do not decode as the method's
        } catch {
            // The method is not one of the actor's: another version of the app, or another kind.
            return .failure(
                RemoteError(
                    ContainmentError(
                        .unknownVerb,
                        "\(actor.id), a \(Act.self), cannot run \(name): \(error)."
                    )
                )
            )
        }
        return handler.outcome ?? .failure(RemoteError(ContainmentError(.methodFailed, "The method gave no outcome.")))
    }
}

/// How a system's calls reach the supervisor, and as whom they are made.
package protocol MethodCallTransport: Sendable {
    /// Submits the call and waits for its outcome: the method's result as JSON text, or the error.
    func call(_ target: ControllerID, method: String, arguments: [String]) async throws(RemoteError) -> String
}
