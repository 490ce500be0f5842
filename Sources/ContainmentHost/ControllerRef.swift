import ContainmentBus
import ContainmentClient
import ContainmentModel

/// A controller's handle on the runtime: every command it issues goes to the supervisor as this controller, so the
/// rules are checked against who is really asking, whichever process runs the controllers it names.
public struct ControllerRef: Sendable {
    public let id: ControllerID
    let runtime: HostRuntime
    /// The system through which this controller calls other controllers' typed methods, as itself:
    /// `try GridController.resolve(id: "board", using: controller.actorSystem)`.
    public let actorSystem: ContainmentActorSystem

    init(id: ControllerID, runtime: HostRuntime) {
        self.id = id
        self.runtime = runtime
        actorSystem = ContainmentActorSystem(transport: HostCallTransport(runtime: runtime, caller: id), controller: id)
    }

    /// Applies commands as one transaction, issued by this controller; returns the events or throws the rejection.
    @discardableResult
    public func perform(_ commands: [Command]) async throws(RemoteError) -> [Event] {
        try await runtime.request(.perform(commands.map { Request($0, by: .controller(id)) })).events()
    }

    public func addChild(_ child: ControllerID) async throws(RemoteError) {
        try await perform([.addChild(child, to: id)])
    }

    public func setFrame(of view: ViewID, to frame: Rect) async throws(RemoteError) {
        try await perform([.setFrame(view, frame)])
    }

    /// The seeds' `displayContentController:` as one transaction.
    public func embed(_ child: ControllerID, in superview: ViewID? = nil, frame: Rect) async throws(RemoteError) {
        try await perform(
            SeedListings.displayContentController(child, in: id, superview: superview, frame: frame).map(\.command)
        )
    }

    /// The seeds' `hideContentController:` as one transaction.
    public func unembed(_ child: ControllerID) async throws(RemoteError) {
        try await perform(SeedListings.hideContentController(child, in: id).map(\.command))
    }

    /// Adds constraints between this controller's views and its children's root views (SPEC §16), as one transaction:
    /// each an id and SPEC §16's spelling, `["w": "child.width == 0.5 * me.width", "x": "child.centerX == me.centerX"]`
    /// in the order given. Returns the events (the frames the solver set among them); an expression that does not
    /// read is `malformed` before anything is sent.
    @discardableResult
    public func constrain(_ constraints: KeyValuePairs<String, String>) async throws(RemoteError) -> [Event] {
        var commands: [Command] = []
        for (constraintID, expression) in constraints {
            do {
                commands.append(.constrain(id, id: constraintID, try LayoutConstraint(parsing: expression)))
            } catch {
                throw RemoteError(error)
            }
        }
        return try await perform(commands)
    }

    /// Removes this controller's constraints (SPEC §16).
    public func unconstrain(_ constraintIDs: String...) async throws(RemoteError) {
        try await perform(constraintIDs.map { .unconstrain(id, id: $0) })
    }

    /// Transitions between two of this controller's children (SPEC §5, UIKit's
    /// `transition(from:to:duration:options:animations:completion:)`): `to`'s root view takes `from`'s place in its
    /// superview, at `frame` when given (else at its own frame); `duration` 0 completes at once, otherwise the
    /// supervisor completes it when the duration has passed.
    public func transition(
        from: ControllerID,
        to: ControllerID,
        duration: Double = 0,
        frame: Rect? = nil
    ) async throws(RemoteError) {
        try await perform([.transition(in: id, from: from, to: to, duration: duration, frame: frame)])
    }

    /// Presents `presented` on this controller (SPEC §7); `style` overrides the presented controller's own.
    public func present(
        _ presented: ControllerID,
        style: ModalPresentationStyle? = nil,
        animated: Bool = false
    )
        async throws(RemoteError)
    {
        try await perform([.present(presented, on: id, style: style, animated: animated)])
    }

    /// Dismisses what this controller presents, or this controller when it is presented.
    public func dismiss(animated: Bool = false) async throws(RemoteError) {
        try await perform([.dismiss(id, animated: animated)])
    }

    /// Pushes a controller onto `navigation` (SPEC §8), by default this controller: a controller of a navigation
    /// controller's subtree may ask it too (SPEC §15, seed 003's master pushing its detail), and its events then name
    /// this controller in `requestedBy`. ``enclosing(_:)`` finds UIKit's `navigationController`.
    public func push(
        _ pushed: ControllerID,
        on navigation: ControllerID? = nil,
        animated: Bool = false
    )
        async throws(RemoteError)
    {
        try await perform([.push(pushed, on: navigation ?? id, animated: animated)])
    }

    /// Pops the top of `navigation`, by default this controller (SPEC §15: or a navigation controller above it).
    public func pop(_ navigation: ControllerID? = nil, animated: Bool = false) async throws(RemoteError) {
        try await perform([.pop(navigation ?? id, animated: animated)])
    }

    /// Pops `navigation`'s stack, by default this controller's, down to its root.
    public func popToRoot(_ navigation: ControllerID? = nil, animated: Bool = false) async throws(RemoteError) {
        try await perform([.popToRoot(navigation ?? id, animated: animated)])
    }

    /// The nearest controller of `kind` at or above this one by parent links, this one included: UIKit's
    /// `navigationController` for `.navigation`, `tabBarController` for `.tab`; nil when there is none.
    public func enclosing(_ kind: Kind) async throws(RemoteError) -> ControllerID? {
        let tree = try await snapshot()
        var current: ControllerID? = id
        while let node = current, let record = tree.controller(node) {
            if record.kind == kind { return node }
            current = record.parent
        }
        return nil
    }

    /// As a tab, menu or split controller: its children.
    public func setChildren(_ children: [ControllerID]) async throws(RemoteError) {
        try await perform([.setChildren(id, children)])
    }

    /// Selects a child of `container`, a tab or menu controller: by default this controller, or one above it
    /// (SPEC §15: a content controller selects another tab).
    public func select(_ selection: Selection, in container: ControllerID? = nil) async throws(RemoteError) {
        try await perform([.select(container ?? id, selection)])
    }

    /// The visible pages of `container`, a page controller: by default this controller, or one above it.
    public func setPages(
        _ pages: [ControllerID],
        direction: PageDirection = .forward,
        in container: ControllerID? = nil
    ) async throws(RemoteError) {
        try await perform([.setPages(container ?? id, pages, direction: direction)])
    }

    /// Turns the pages of `container` (by default this controller) forward or back, as its data source says.
    public func turnPage(forward: Bool, in container: ControllerID? = nil) async throws(RemoteError) {
        try await perform([forward ? .nextPage(container ?? id) : .previousPage(container ?? id)])
    }

    /// Sends a message to a related controller or this controller's delegate (SPEC §11): it receives
    /// `messageReceived` in order with its other callbacks.
    public func send(to target: ControllerID, _ name: String, payload: [UInt8] = []) async throws(RemoteError) {
        try await perform([.send(from: id, to: target, name: name, payload: payload)])
    }

    /// Changes this controller's properties (SPEC §13): its title, navigation and tab items, delegate, …
    public func setProperties(_ changes: [PropertyChange]) async throws(RemoteError) {
        try await perform([.setProperties(id, changes)])
    }

    /// Publishes this controller's own state — what a custom container shows of itself (a carousel's selection) —
    /// replacing what it published before: `tree`, the inspector, snapshots and every subscriber's
    /// `propertiesChanged` carry it, and a new process of its host reads it back from `restored(_:controller:)`'s
    /// state (`properties.state`). At most 64 entries, keys of at most 128 bytes and not empty, values of at most
    /// 4,096; beyond, `malformed`.
    public func publishState(_ state: [String: String]) async throws(RemoteError) {
        try await perform([.setProperties(id, [.state(state)])])
    }

    /// Turns editing on or off for this controller, or for a child of it (SPEC §13).
    public func setEditing(
        _ editing: Bool,
        of target: ControllerID? = nil,
        animated: Bool = false
    )
        async throws(RemoteError)
    {
        try await perform([.setEditing(target ?? id, editing, animated: animated)])
    }

    /// This controller's state now: its properties (its `delegate`…), parent, children, appearance, frame.
    public func state() async throws(RemoteError) -> ControllerState {
        guard let me = try await snapshot().controller(id) else {
            throw RemoteError(ContainmentError(.unknownController, "\(id) is not in the tree."))
        }
        return me
    }

    /// The whole tree now: every controller and every loaded view.
    public func snapshot() async throws(RemoteError) -> TreeSnapshot {
        try await runtime.request(.snapshot).snapshot()
    }
}
