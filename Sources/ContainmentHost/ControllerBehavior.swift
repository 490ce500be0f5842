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
}

extension ControllerBehavior {
    public mutating func restored(_ state: ControllerState, controller: ControllerRef) async {}
}

/// A content controller: it has no children to lay out and no views of its own beyond its root.
public struct ContentBehavior: ControllerBehavior {
    public init() {}
    public mutating func handle(_ callback: Event, controller: ControllerRef) async {}
}
