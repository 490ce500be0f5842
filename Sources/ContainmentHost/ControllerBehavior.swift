import ContainmentModel

/// What a controller does: user code a host wraps in the controller's actor.
///
/// A behavior receives every callback of its controller in SPEC order, one at a time, and acts through
/// ``ControllerRef`` — adding children, setting frames, embedding — as its controller, whichever process runs the
/// target. Register custom kinds with a ``BehaviorRegistry``.
///
/// Write it as a UIKit engineer writes a view controller (seed 003: "override UIViewController methods"): implement the
/// override points it needs — ``viewWillAppear(animated:controller:)``, ``didMove(toParent:controller:)``,
/// ``viewWillLayoutSubviews(controller:)``, … — each empty unless implemented; ``handle(_:controller:)`` receives every
/// callback, those too, right after its override point, for what has none (messages, actions, verbs, delegates).
public protocol ControllerBehavior: Sendable {
    /// Every callback (`loadView`, `viewWillAppear`, `messageReceived`, `verbInvoked`, …), in order; a callback with
    /// an override point comes here after it. Does nothing unless implemented.
    mutating func handle(_ callback: Event, controller: ControllerRef) async

    /// UIKit's `viewDidLoad()`: the controller's view is loaded (after `loadView`'s answer, if its kind answers it).
    mutating func viewDidLoad(controller: ControllerRef) async
    /// UIKit's `viewWillAppear(_:)`. The callback's other flags (moving to a parent, being presented) reach
    /// ``handle(_:controller:)`` as `.viewWillAppear(_, flags)`.
    mutating func viewWillAppear(animated: Bool, controller: ControllerRef) async
    /// UIKit's `viewDidAppear(_:)`.
    mutating func viewDidAppear(animated: Bool, controller: ControllerRef) async
    /// UIKit's `viewWillDisappear(_:)`.
    mutating func viewWillDisappear(animated: Bool, controller: ControllerRef) async
    /// UIKit's `viewDidDisappear(_:)`.
    mutating func viewDidDisappear(animated: Bool, controller: ControllerRef) async
    /// UIKit's `willMove(toParent:)`: `nil` when the controller is about to leave its parent.
    mutating func willMove(toParent parent: ControllerID?, controller: ControllerRef) async
    /// UIKit's `didMove(toParent:)`: `nil` once it has left its parent.
    mutating func didMove(toParent parent: ControllerID?, controller: ControllerRef) async
    /// UIKit's `viewWillLayoutSubviews()` (a kind that answers the question lays out in ``answer(_:controller:)``).
    mutating func viewWillLayoutSubviews(controller: ControllerRef) async
    /// UIKit's `viewDidLayoutSubviews()`.
    mutating func viewDidLayoutSubviews(controller: ControllerRef) async
    /// UIKit's `didReceiveMemoryWarning()`.
    mutating func didReceiveMemoryWarning(controller: ControllerRef) async
    /// UIKit's `viewWillTransition(to:with:)`: the controller's root view is about to take `size`.
    mutating func viewWillTransition(to size: Size, controller: ControllerRef) async
    /// A custom container's `setViewControllers(_:)`: the children a topology lists under it (`ChildAssignment`),
    /// in order, for its code to embed — `controller.embed(child, frame:)` for each, or a container's own way. Until
    /// it does, they have no parent. Also a call of the verb (`ctl invoke C setViewControllers a b`).
    mutating func setViewControllers(_ children: [ControllerID], controller: ControllerRef) async

    /// The first call of a behavior whose host process replaces one that died: its controller's state now (parent,
    /// children, appearance, view loaded and frame, properties). Only later callbacks follow. Does nothing unless
    /// implemented.
    mutating func restored(_ state: ControllerState, controller: ControllerRef) async

    /// The runtime asks before it goes on (SPEC §15), for the kinds registered as answering `question`'s name:
    /// - `loadView`: the commands that build the controller's views (`addSubview` of its named subviews, their frames),
    ///   applied before `viewDidLoad`;
    /// - `viewWillLayoutSubviews`: the commands that lay out its views and its children's root views, applied before
    ///   the container's own layout and `viewDidLayoutSubviews`;
    /// - `pageAfter` / `pageBefore`, asked of a page container's `dataSource`: the page (`Answer.page`), and any
    ///   commands to run first (creating it).
    ///
    /// The commands are issued as this controller, in the transaction that asked, which waits for this answer (at
    /// most `answerTimeoutMs`, then it goes on as if nothing was returned). Return them rather than issuing them
    /// through ``ControllerRef``: a command issued on its own is a transaction of its own. The answer comes in turn
    /// with the controller's callbacks, after those delivered before; a command of this controller's own that asks
    /// it is not waited for. Its callbacks (`loadView` …) are delivered as usual once the command is applied.
    /// Answers nothing unless implemented.
    mutating func answer(_ question: Question, controller: ControllerRef) async -> Answer
}

extension ControllerBehavior {
    public mutating func handle(_ callback: Event, controller: ControllerRef) async {}
    public mutating func restored(_ state: ControllerState, controller: ControllerRef) async {}
    public mutating func answer(_ question: Question, controller: ControllerRef) async -> Answer { .nothing }
}

/// A content controller: it has no children to lay out and no views of its own beyond its root.
public struct ContentBehavior: ControllerBehavior {
    public init() {}
}
