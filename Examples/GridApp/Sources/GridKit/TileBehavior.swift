import ContainmentHost
import ContainmentModel

/// A content controller that reports to its delegate (its `delegate` property) each time it appears, with its size.
///
/// Its code builds its own view (SPEC §15): asked `loadView`, it returns a `label` subview; asked
/// `viewWillLayoutSubviews`, the label's frame — inset by ``labelInset`` across the top, ``labelHeight`` high. Both
/// take effect in the command that loads or resizes it, before `viewDidLoad` and `viewDidLayoutSubviews`.
public struct TileBehavior: ControllerBehavior {
    /// The questions its code answers, as its host registers them.
    public static let questions: Set<Question.Name> = [.loadView, .viewWillLayoutSubviews]
    /// Its verb, the grid's protocol for its children: `tapped` reports to its delegate again.
    public static let verbs = ["tapped"]
    public static let labelInset = 8.0
    public static let labelHeight = 24.0

    public init() {}

    /// Its label's frame in a root view of `size`.
    public static func labelFrame(in size: Size) -> Rect {
        Rect(x: labelInset, y: labelInset, width: max(0, size.width - 2 * labelInset), height: labelHeight)
    }

    public mutating func answer(_ question: Question, controller: ControllerRef) async -> Answer {
        let label = ViewID(owner: controller.id, name: "label")
        switch question {
        case .loadView: return Answer(commands: [.addSubview(label, to: .root(controller.id))])
        case .viewWillLayoutSubviews(_, let size):
            return Answer(commands: [.setFrame(label, Self.labelFrame(in: size))])
        default: return .nothing
        }
    }

    /// UIKit's override point: it reports each time it appears.
    public func viewDidAppear(animated: Bool, controller: ControllerRef) async {
        await report(controller)
    }

    /// Its verb, `tapped`: it reports again.
    public func handle(_ callback: Event, controller: ControllerRef) async {
        guard case .verbInvoked(_, "tapped", _, _) = callback else { return }
        await report(controller)
    }

    /// Its size, to its delegate.
    private func report(_ controller: ControllerRef) async {
        guard let me = try? await controller.state(),
            let delegate = me.properties.delegate,
            let frame = me.frame,
            let payload = try? TileReport(tile: me.id.rawValue, width: frame.width, height: frame.height).encoded()
        else { return }
        try? await controller.send(to: delegate, TileReport.name, payload: payload)
    }
}
