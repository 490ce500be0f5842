import ContainmentBus
import ContainmentModel

/// Seed 002's recipe editor, presented by the list that is its delegate. It keeps the recipe its presenter passes in
/// (`edit`, as seed 003's controllers pass data), shows a Done button (its view `ID/done`, top right), and when the
/// user taps Done — an input it handles (`handles: [tap]`), or a `done` action — tells its delegate it is done
/// (`done`, with the edited value). Registered as kind `editor`.
package struct EditorBehavior: ControllerBehavior {
    /// The Done button's frame in the editor's root view.
    package static let doneButton = Rect(x: 440, y: 10, width: 90, height: 44)
    /// The recipe being edited.
    private var value: [UInt8] = []

    package init() {}

    package mutating func handle(_ callback: Event, controller: ControllerRef) async {
        let done = ViewID(owner: controller.id, name: "done")
        switch callback {
        case .viewDidLoad:
            _ = try? await controller.perform([
                .addSubview(done, to: .root(controller.id)), .setFrame(done, Self.doneButton),
            ])
        case .messageReceived(_, _, "edit", let payload):
            value = payload
        case .inputReceived(_, "tap", _, done), .actionReceived(_, "done", _, _):
            guard let delegate = try? await controller.state().properties.delegate else { return }
            try? await controller.send(to: delegate, "done", payload: Self.edited(value))
        default:
            break
        }
    }

    /// The edit: the value, marked as edited (so a test tells what came back from what went in).
    package static func edited(_ value: [UInt8]) -> [UInt8] { value + Array(" (edited)".utf8) }
}

/// Seed 002's delegate: the controller that presented an editor. When its editor says `done`, it keeps the value and
/// dismisses what it presents (UIKit: the presenting controller dismisses, told by delegation). Registered as kind
/// `editorDelegate`.
package struct EditorDelegateBehavior: ControllerBehavior {
    /// The values its editors sent back, in order.
    package private(set) var saved: [[UInt8]] = []

    package init() {}

    package mutating func handle(_ callback: Event, controller: ControllerRef) async {
        guard case .messageReceived(_, _, "done", let payload) = callback else { return }
        saved.append(payload)
        try? await controller.dismiss(animated: true)
    }
}
