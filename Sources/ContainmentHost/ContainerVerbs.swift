import ContainmentModel

/// The standard containers' own code (SPEC §15): a navigation, tab, menu or page controller answers its verbs
/// (`ctl invoke`, or a `verbInvoked` from any controller's code) by issuing the command as itself. Its rules stay the
/// supervisor's; a bad argument or a rejected command is dropped, as a UIKit container ignores a call it cannot do.
///
/// - navigation: `push CHILD [animated]`, `pop [animated]`, `popTo CHILD [animated]`, `popToRoot [animated]`,
///   `setStack CHILD… `;
/// - tab, menu: `select INDEX|CHILD [animated]`;
/// - page: `setPages PAGE… `, `next`, `previous`.
///
/// Controller code that wants its own name in the events' `requestedBy` issues the command itself instead:
/// ``ControllerRef/push(_:on:animated:)`` with the container found by ``ControllerRef/enclosing(_:)``.
struct ContainerVerbs: ControllerBehavior {
    /// The verbs each standard container answers.
    static let verbs: [Kind: [String]] = [
        .navigation: ["push", "pop", "popTo", "popToRoot", "setStack"],
        .tab: ["select"],
        .menu: ["select"],
        .page: ["setPages", "next", "previous"],
    ]

    mutating func handle(_ callback: Event, controller: ControllerRef) async {
        guard case .verbInvoked(let id, let verb, let arguments, _) = callback,
            let command = Self.command(verb, arguments, of: id)
        else { return }
        _ = try? await controller.perform([command])
    }

    /// The command a verb of container `id` stands for; nil for a verb or arguments it does not take.
    static func command(_ verb: String, _ arguments: [String], of id: ControllerID) -> Command? {
        let animated = arguments.last == "animated"
        let operands = animated ? Array(arguments.dropLast()) : arguments
        switch (verb, operands.count) {
        case ("push", 1): return .push(ControllerID(operands[0]), on: id, animated: animated)
        case ("pop", 0): return .pop(id, animated: animated)
        case ("popTo", 1): return .popTo(ControllerID(operands[0]), in: id, animated: animated)
        case ("popToRoot", 0): return .popToRoot(id, animated: animated)
        case ("setStack", _) where !operands.isEmpty:
            return .setStack(id, operands.map { ControllerID($0) }, animated: animated)
        case ("select", 1):
            let selection = Int(operands[0]).map(Selection.index) ?? .controller(ControllerID(operands[0]))
            return .select(id, selection, animated: animated)
        case ("setPages", _) where !operands.isEmpty:
            return .setPages(id, operands.map { ControllerID($0) }, animated: animated)
        case ("next", 0): return .nextPage(id)
        case ("previous", 0): return .previousPage(id)
        default: return nil
        }
    }
}
