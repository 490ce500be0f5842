import ContainmentBus
import ContainmentClient
import ContainmentModel
import Distributed

/// A controller with typed public methods: a `distributed actor` whose `distributed func`s any process calls through
/// a reference (`resolve(id:using:)` with a `ContainmentActorSystem`), compile-checked, each call ordered and
/// journaled by the supervisor and run in order with the controller's callbacks.
///
/// It receives its callbacks as a ``ControllerBehavior`` does, one at a time, its methods' calls among them, and acts
/// through its ``ControllerRef``, which its maker is given. Register it with
/// ``BehaviorRegistry/register(_:verbs:distributed:)``; the host makes one per controller of its kind.
///
/// ```swift
/// distributed actor GridController: DistributedController {
///     typealias ActorSystem = ContainmentActorSystem
///     let controller: ControllerRef
///     private var order: [ControllerID] = []
///
///     init(controller: ControllerRef) {
///         self.controller = controller
///         actorSystem = controller.actorSystem  // its id is the controller's
///     }
///
///     distributed func insert(child: ControllerID, at index: Int) async throws -> [ControllerID] { … }
///     func handle(_ callback: Event, controller: ControllerRef) async { … }
/// }
/// ```
public protocol DistributedController: DistributedActor where ActorSystem == ContainmentActorSystem {
    /// One callback, in order (as ``ControllerBehavior/handle(_:controller:)``); a call of one of its methods is not
    /// one of them: the method runs instead.
    func handle(_ callback: Event, controller: ControllerRef) async

    /// The first call of an actor whose host process replaces one that died (as
    /// ``ControllerBehavior/restored(_:controller:)``). Does nothing unless implemented.
    func restored(_ state: ControllerState, controller: ControllerRef) async
}

extension DistributedController {
    public func restored(_ state: ControllerState, controller: ControllerRef) async {}
}

/// What runs a controller whose code answers typed calls: the host hands it the calls its controller receives.
protocol MethodTarget: Sendable {
    /// Runs the method `verb` names (a distributed target's identifier) with the call's arguments.
    func call(_ verb: String, arguments: [String]) async -> Result<String, RemoteError>
}

/// A ``DistributedController`` as the behavior of its controller.
struct DistributedBehavior<Actor: DistributedController>: ControllerBehavior, MethodTarget {
    let actor: Actor

    func handle(_ callback: Event, controller: ControllerRef) async {
        // Made by this host (the registry's maker), so always local: `whenLocal` runs the body.
        _ = await actor.whenLocal { local in await local.handle(callback, controller: controller) }
    }

    func restored(_ state: ControllerState, controller: ControllerRef) async {
        _ = await actor.whenLocal { local in await local.restored(state, controller: controller) }
    }

    func call(_ verb: String, arguments: [String]) async -> Result<String, RemoteError> {
        await actor.actorSystem.execute(method: verb, arguments: arguments, on: actor)
    }
}

extension BehaviorRegistry {
    /// Runs controllers of `kind` as the distributed actor `make` makes for each, given its controller: make it with
    /// the controller's ``ControllerRef/actorSystem``, which gives it the controller's id. `verbs`: the string verbs
    /// its `handle` answers (`ctl invoke`), beside its typed methods.
    public mutating func register<Actor: DistributedController>(
        _ kind: Kind,
        verbs: [String] = [],
        distributed make: @escaping @Sendable (ControllerRef) -> Actor
    ) {
        register(kind, verbs: verbs, controller: { controller in DistributedBehavior(actor: make(controller)) })
    }
}

/// A controller's way for typed calls: through its host's connection, issued as that controller.
struct HostCallTransport: MethodCallTransport {
    let runtime: HostRuntime
    let caller: ControllerID

    func call(_ target: ControllerID, method: String, arguments: [String]) async throws(RemoteError) -> String {
        try await runtime.request(.call(target, method: method, arguments: arguments, by: .controller(caller)))
            .callOutcome()
    }
}
