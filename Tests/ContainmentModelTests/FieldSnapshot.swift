import Testing

@testable import ContainmentModel

/// A state's tree as plain fields, holding none of its controllers' or views' boxes: a test that keeps this instead of
/// a copy of the state leaves the boxes uniquely referenced, so the state changes them in place (the path a copy
/// would turn off).
struct FieldSnapshot: Equatable {
    let controllers: [ControllerID: Controller.Fields]
    let views: [ViewID: View.Fields]
    let windows: [WindowID: Window]
    let transitions: [RunningTransition]
    let presentations: [ControllerID: Presentation]
    let nextSerial: Int

    init(_ state: ContainmentState) {
        controllers = Dictionary(uniqueKeysWithValues: state.controllers.map { ($0.key, $0.value.fields) })
        views = Dictionary(uniqueKeysWithValues: state.views.map { ($0.key, $0.value.fields) })
        windows = state.windows
        transitions = state.transitions
        presentations = Dictionary(uniqueKeysWithValues: state.presentations.map { ($0.key, $0.value) })
        nextSerial = state.nextSerial
    }
}
