/// A topology's children of a custom container, handed to the container's code: a call of its `setViewControllers`
/// verb by the system, with the children's ids in order — what a custom container's `setViewControllers(_:)` is in
/// UIKit. The container's code embeds them itself (`addChild`, its frames and subviews, `didMove`), or some of them,
/// or none; until it does, they have no parent.
///
/// Every kind answers the verb: its override point (`setViewControllers(_:controller:)`) does nothing unless
/// implemented, so the supervisor takes the call without asking the host's registered verbs.
public enum ChildAssignment {
    /// The verb's name.
    public static let verb = "setViewControllers"

    /// The call handing `children` to `container`'s code, to be issued by the system.
    public static func command(_ container: ControllerID, _ children: [ControllerID]) -> Command {
        .invoke(container, verb: verb, arguments: children.map(\.rawValue))
    }

    /// The children `callback` hands its controller, when it is this verb's call.
    public static func children(in callback: Event) -> [ControllerID]? {
        guard case .verbInvoked(_, let name, let arguments, _) = callback, name == verb else { return nil }
        return arguments.map { ControllerID($0) }
    }
}
