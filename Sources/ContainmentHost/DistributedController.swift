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
/// ``BehaviorRegistry/register(_:verbs:answering:distributed:)``; the host makes one per controller of its kind, and
/// registers its methods by declared name (`insert(child:at:)`), each with its parameters' and result's JSON Schemas:
/// `containment methods CONTROLLER` lists them, and `containment ctl call`, the Python client's `call` and any
/// language's client call them by that name (docs/PROTOCOL.md, "Typed method calls"). Overloads of one name cannot be
/// told apart by it: give distinct names. Linux only: the names are read from the executable's ELF sections.
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
///
/// Its override points are ``ControllerBehavior``'s — `viewWillAppear(animated:controller:)`, `didMove(toParent:controller:)`,
/// … — each empty unless implemented, with `handle` receiving every callback after its override point.
public protocol DistributedController: DistributedActor where ActorSystem == ContainmentActorSystem {
    /// Every callback, in order (as ``ControllerBehavior/handle(_:controller:)``); a call of one of its methods is not
    /// one of them: the method runs instead. Does nothing unless implemented.
    func handle(_ callback: Event, controller: ControllerRef) async

    /// The runtime asks before it goes on (as ``ControllerBehavior/answer(_:controller:)``: `loadView`,
    /// `viewWillLayoutSubviews`, `pageAfter`, `pageBefore`), for the kinds registered as answering the question.
    /// Answers nothing unless implemented.
    func answer(_ question: Question, controller: ControllerRef) async -> Answer

    /// UIKit's `viewDidLoad()` (as ``ControllerBehavior/viewDidLoad(controller:)``).
    func viewDidLoad(controller: ControllerRef) async
    /// UIKit's `viewWillAppear(_:)`.
    func viewWillAppear(animated: Bool, controller: ControllerRef) async
    /// UIKit's `viewDidAppear(_:)`.
    func viewDidAppear(animated: Bool, controller: ControllerRef) async
    /// UIKit's `viewWillDisappear(_:)`.
    func viewWillDisappear(animated: Bool, controller: ControllerRef) async
    /// UIKit's `viewDidDisappear(_:)`.
    func viewDidDisappear(animated: Bool, controller: ControllerRef) async
    /// UIKit's `willMove(toParent:)`.
    func willMove(toParent parent: ControllerID?, controller: ControllerRef) async
    /// UIKit's `didMove(toParent:)`.
    func didMove(toParent parent: ControllerID?, controller: ControllerRef) async
    /// UIKit's `viewWillLayoutSubviews()`.
    func viewWillLayoutSubviews(controller: ControllerRef) async
    /// UIKit's `viewDidLayoutSubviews()`.
    func viewDidLayoutSubviews(controller: ControllerRef) async
    /// UIKit's `didReceiveMemoryWarning()`.
    func didReceiveMemoryWarning(controller: ControllerRef) async
    /// UIKit's `viewWillTransition(to:with:)`.
    func viewWillTransition(to size: Size, controller: ControllerRef) async
    /// A custom container's `setViewControllers(_:)` (as ``ControllerBehavior/setViewControllers(_:controller:)``).
    func setViewControllers(_ children: [ControllerID], controller: ControllerRef) async

    /// The first call of an actor whose host process replaces one that died (as
    /// ``ControllerBehavior/restored(_:controller:)``). Does nothing unless implemented.
    func restored(_ state: ControllerState, controller: ControllerRef) async
}

extension DistributedController {
    public func handle(_ callback: Event, controller: ControllerRef) async {}
    public func restored(_ state: ControllerState, controller: ControllerRef) async {}
    public func answer(_ question: Question, controller: ControllerRef) async -> Answer { .nothing }
    public func viewDidLoad(controller: ControllerRef) async {}
    public func viewWillAppear(animated: Bool, controller: ControllerRef) async {}
    public func viewDidAppear(animated: Bool, controller: ControllerRef) async {}
    public func viewWillDisappear(animated: Bool, controller: ControllerRef) async {}
    public func viewDidDisappear(animated: Bool, controller: ControllerRef) async {}
    public func willMove(toParent parent: ControllerID?, controller: ControllerRef) async {}
    public func didMove(toParent parent: ControllerID?, controller: ControllerRef) async {}
    public func viewWillLayoutSubviews(controller: ControllerRef) async {}
    public func viewDidLayoutSubviews(controller: ControllerRef) async {}
    public func didReceiveMemoryWarning(controller: ControllerRef) async {}
    public func viewWillTransition(to size: Size, controller: ControllerRef) async {}
    public func setViewControllers(_ children: [ControllerID], controller: ControllerRef) async {}

    /// One callback as the host delivers it: to its override point, if it has one, then to `handle`.
    func receive(_ callback: Event, controller: ControllerRef) async {
        switch OverridePoint(callback) {
        case .viewDidLoad?: await viewDidLoad(controller: controller)
        case .viewWillAppear(let animated)?: await viewWillAppear(animated: animated, controller: controller)
        case .viewDidAppear(let animated)?: await viewDidAppear(animated: animated, controller: controller)
        case .viewWillDisappear(let animated)?: await viewWillDisappear(animated: animated, controller: controller)
        case .viewDidDisappear(let animated)?: await viewDidDisappear(animated: animated, controller: controller)
        case .willMove(let parent)?: await willMove(toParent: parent, controller: controller)
        case .didMove(let parent)?: await didMove(toParent: parent, controller: controller)
        case .viewWillLayoutSubviews?: await viewWillLayoutSubviews(controller: controller)
        case .viewDidLayoutSubviews?: await viewDidLayoutSubviews(controller: controller)
        case .didReceiveMemoryWarning?: await didReceiveMemoryWarning(controller: controller)
        case .viewWillTransition(let size)?: await viewWillTransition(to: size, controller: controller)
        case .setViewControllers(let children)?: await setViewControllers(children, controller: controller)
        case nil: break
        }
        await handle(callback, controller: controller)
    }
}

/// What runs a controller whose code answers typed calls: the host hands it the calls its controller receives.
protocol MethodTarget: Sendable {
    /// Runs the method `verb` names (its declared name, `insert(child:at:)`) with the call's arguments.
    func call(_ verb: String, arguments: [String]) async -> Result<String, RemoteError>
}

/// A ``DistributedController`` as the behavior of its controller.
struct DistributedBehavior<Actor: DistributedController>: ControllerBehavior, MethodTarget {
    let actor: Actor

    func handle(_ callback: Event, controller: ControllerRef) async {
        // Made by this host (the registry's maker), so always local: `whenLocal` runs the body.
        _ = await actor.whenLocal { local in await local.receive(callback, controller: controller) }
    }

    func restored(_ state: ControllerState, controller: ControllerRef) async {
        _ = await actor.whenLocal { local in await local.restored(state, controller: controller) }
    }

    func answer(_ question: Question, controller: ControllerRef) async -> Answer {
        await actor.whenLocal { local in await local.answer(question, controller: controller) } ?? .nothing
    }

    func call(_ verb: String, arguments: [String]) async -> Result<String, RemoteError> {
        await actor.actorSystem.execute(method: verb, arguments: arguments, on: actor)
    }
}

extension BehaviorRegistry {
    /// Runs controllers of `kind` as the distributed actor `make` makes for each, given its controller: make it with
    /// the controller's ``ControllerRef/actorSystem``, which gives it the controller's id. `verbs`: the string verbs
    /// its `handle` answers (`ctl invoke`), beside its typed methods; `answering`: the questions its
    /// ``DistributedController/answer(_:controller:)`` answers (SPEC §15).
    public mutating func register<Actor: DistributedController>(
        _ kind: Kind,
        verbs: [String] = [],
        answering: Set<Question.Name> = [],
        distributed make: @escaping @Sendable (ControllerRef) -> Actor
    ) {
        register(
            kind,
            verbs: verbs,
            answering: answering,
            controller: { controller in DistributedBehavior(actor: make(controller)) }
        )
        describe(kind) { await MethodCatalog.entries(of: Actor.self).map(\.description) }
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
