import ContainmentHost
import ContainmentModel

/// A custom container that lays its children out in two columns (``GridLayout``), as their parent — the one party
/// allowed to set their frames (SPEC §3).
///
/// Its public method, `insert CHILD INDEX` (a verb: `ctl invoke GRID insert CHILD INDEX`), embeds a controller at
/// that place of its order (the seeds' displayContentController) and lays every child out again. It counts the
/// ``TileReport``s its tiles send it, in its title ("Board: 3 tiles appeared").
public struct GridBehavior: ControllerBehavior {
    /// The verbs it answers.
    public static let verbs = ["insert"]

    /// Its children, in layout order.
    private var order: [ControllerID] = []
    /// The tiles that reported.
    private var appeared: Set<String> = []

    public init() {}

    public mutating func handle(_ callback: Event, controller: ControllerRef) async {
        switch callback {
        case .viewWillLayoutSubviews:
            await layOut(controller)
        case .verbInvoked(_, "insert", let arguments, _) where arguments.count == 2:
            let child = ControllerID(arguments[0])
            guard let index = Int(arguments[1]), index >= 0 else { return }
            order.removeAll { $0 == child }
            order.insert(child, at: min(index, order.count))
            _ = try? await controller.perform(
                SeedListings.displayContentController(child, in: controller.id, frame: .zero).map(\.command)
            )
            await layOut(controller)
        case .messageReceived(_, _, TileReport.name, let payload):
            guard let report = TileReport(payload: payload) else { return }
            appeared.insert(report.tile)
            try? await controller.setProperties([.title("Board: \(appeared.count) tiles appeared")])
        default:
            break
        }
    }

    /// A new host process: the order is read back from the frames it gave its children.
    public mutating func restored(_ state: ControllerState, controller: ControllerRef) async {
        guard let snapshot = try? await controller.snapshot() else { return }
        let embedded = snapshot.embeddedChildren(of: controller.id)
        order = GridLayout.order(
            of: embedded,
            frames: Dictionary(
                uniqueKeysWithValues: embedded.compactMap { id in
                    snapshot.views[.root(id)].map { (id, $0.frame) }
                }
            )
        )
    }

    /// Each embedded child in its cell, in order; children embedded by someone else go last.
    private mutating func layOut(_ controller: ControllerRef) async {
        guard let snapshot = try? await controller.snapshot(), let frame = snapshot.controller(controller.id)?.frame
        else { return }
        let embedded = snapshot.embeddedChildren(of: controller.id)
        order = order.filter(embedded.contains) + embedded.filter { !order.contains($0) }
        let frames = GridLayout.frames(count: order.count, in: frame)
        let commands = zip(order, frames).map { child, cell in Command.setFrame(.root(child), cell) }
        guard !commands.isEmpty else { return }
        _ = try? await controller.perform(commands)
    }
}
