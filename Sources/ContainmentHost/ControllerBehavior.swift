import ContainmentModel

/// What a controller does: user code a host wraps in the controller's actor.
///
/// A behavior receives every callback of its controller in SPEC order, one at a time, and acts through
/// ``ControllerRef`` — adding children, setting frames, embedding — as its controller, whichever process runs the
/// target. Register custom kinds with a ``BehaviorRegistry``.
public protocol ControllerBehavior: Sendable {
    /// One callback (`loadView`, `viewWillAppear`, `viewWillLayoutSubviews`, …), in order.
    mutating func handle(_ callback: Event, controller: ControllerRef) async

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
    public mutating func restored(_ state: ControllerState, controller: ControllerRef) async {}
    public mutating func answer(_ question: Question, controller: ControllerRef) async -> Answer { .nothing }
}

/// A content controller: it has no children to lay out and no views of its own beyond its root.
public struct ContentBehavior: ControllerBehavior {
    public init() {}
    public mutating func handle(_ callback: Event, controller: ControllerRef) async {}
}
