import ContainmentHost
import ContainmentModel

/// A content controller that reports to its delegate (its `delegate` property) each time it appears, with its size.
public struct TileBehavior: ControllerBehavior {
    public init() {}

    public mutating func handle(_ callback: Event, controller: ControllerRef) async {
        guard case .viewDidAppear = callback,
            let me = try? await controller.state(),
            let delegate = me.properties.delegate,
            let frame = me.frame,
            let payload = try? TileReport(tile: me.id.rawValue, width: frame.width, height: frame.height).encoded()
        else { return }
        try? await controller.send(to: delegate, TileReport.name, payload: payload)
    }
}
