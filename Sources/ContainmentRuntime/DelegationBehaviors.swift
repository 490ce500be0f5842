import ContainmentBus
import ContainmentModel

/// Seed 002's recipe editor, presented by the list that is its delegate. Told what to edit (`edit`, from its
/// presenter, as seed 003's controllers pass data in), it edits it and tells its delegate it is done (`done`, with
/// the edited value) — as a user who types and taps Done at once. Registered as kind `editor`.
public struct EditorBehavior: ControllerBehavior {
    public init() {}

    public mutating func handle(_ callback: Event, controller: ControllerRef) async {
        guard case .messageReceived(_, _, "edit", let payload) = callback else { return }
        guard let delegate = try? await controller.state().properties.delegate, !delegate.isEmpty else { return }
        try? await controller.send(to: ControllerID(delegate), "done", payload: Self.edited(payload))
    }

    /// The edit: the value, marked as edited (so a test tells what came back from what went in).
    public static func edited(_ value: [UInt8]) -> [UInt8] { value + Array(" (edited)".utf8) }
}

/// Seed 002's delegate: the controller that presented an editor. When its editor says `done`, it keeps the value and
/// dismisses what it presents (UIKit: the presenting controller dismisses, told by delegation). Registered as kind
/// `editorDelegate`.
public struct EditorDelegateBehavior: ControllerBehavior {
    /// The values its editors sent back, in order.
    public private(set) var saved: [[UInt8]] = []

    public init() {}

    public mutating func handle(_ callback: Event, controller: ControllerRef) async {
        guard case .messageReceived(_, _, "done", let payload) = callback else { return }
        saved.append(payload)
        try? await controller.dismiss(animated: true)
    }
}
