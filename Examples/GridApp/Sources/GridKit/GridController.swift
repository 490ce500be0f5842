import ContainmentClient
import ContainmentHost
import ContainmentModel
import Distributed

/// A custom container that lays its children out in two columns (``GridLayout``), as their parent — the one party
/// allowed to set their frames (SPEC §3).
///
/// Its public method, ``insert(child:at:)``, is typed: any process calls it through a reference,
/// `try GridController.resolve(id: "board", using: system).insert(child: "a", at: 0)`, and gets the grid's order or
/// a typed error. Operators reach the same method with a verb: `containment ctl invoke board insert a 0`. It counts
/// the ``TileReport``s its tiles send it, in its title ("Board: 3 tiles appeared"), and publishes its order and its
/// feature as its own state (``ControllerRef/publishState(_:)``), which `tree` shows and its next process reads back.
public distributed actor GridController: DistributedController {
    public typealias ActorSystem = ContainmentActorSystem

    /// The verbs it answers beside its typed methods.
    public static let verbs = ["insert"]
    /// What it requires of its children (SPEC §16's child protocol): a `tapped` verb, which a tile answers.
    public static let childVerbs = ["tapped"]

    private let controller: ControllerRef
    /// Its children, in layout order.
    private var order: [ControllerID] = []
    /// The tiles that reported.
    private var appeared: Set<String> = []
    /// The child its constraints feature.
    private var featured: ControllerID?

    public init(controller: ControllerRef) {
        self.controller = controller
        actorSystem = controller.actorSystem
    }

    /// Embeds `child` at `index` of its order (the seeds' displayContentController), or moves it there if it is
    /// embedded already, and lays every child out again; returns its children in order, laid out. Throws
    /// `indexOutOfRange` for a negative index, and the runtime's refusal of the embedding (`unknownController` for
    /// a child that does not exist, …), its order unchanged.
    public distributed func insert(child: ControllerID, at index: Int) async throws -> [ControllerID] {
        guard index >= 0 else {
            throw RemoteError(ContainmentError(.indexOutOfRange, "\(controller.id) has no place \(index)."))
        }
        if !order.contains(child) { try await controller.embed(child, frame: .zero) }
        order.removeAll { $0 == child }
        order.insert(child, at: min(index, order.count))
        try await layOut()
        try await publish()
        return order
    }

    /// Features `child`, one of its children: as wide as half the grid and centred across it, by layout constraints
    /// (SPEC §16, ``ControllerRef/constrain(_:)``) that hold through every later layout and resize; its cell still gives
    /// it its top and height. `nil` features none. Throws the runtime's refusal (`frameAuthority` for a child that is
    /// not its own), the feature unchanged.
    public distributed func feature(child: ControllerID?) async throws {
        guard child != featured else { return }
        if let child {
            try await controller.constrain([
                "feature-\(child)-width": "\(child).width == 0.5 * \(controller.id).width",
                "feature-\(child)-center": "\(child).centerX == \(controller.id).centerX",
            ])
        }
        // The old feature's constraints may have left with their child (SPEC §16): nothing to remove then.
        if let old = featured { try? await controller.unconstrain("feature-\(old)-width", "feature-\(old)-center") }
        featured = child
        try await publish()
    }

    /// Its children, in layout order.
    public distributed func children() -> [ControllerID] {
        order
    }

    /// UIKit's `setViewControllers(_:)` of a custom container: the children a topology lists under it
    /// (`parent: board`), embedded in that order after those it has, then laid out.
    public func setViewControllers(_ children: [ControllerID], controller: ControllerRef) async {
        for child in children { _ = try? await insert(child: child, at: order.count) }
    }

    /// UIKit's override point: its children's cells, each time it lays out.
    public func viewWillLayoutSubviews(controller: ControllerRef) async {
        try? await layOut()
    }

    /// The callbacks without an override point: its string verb, and its tiles' reports.
    public func handle(_ callback: Event, controller: ControllerRef) async {
        switch callback {
        case .verbInvoked(_, "insert", let arguments, _) where arguments.count == 2:
            guard let index = Int(arguments[1]) else { return }
            _ = try? await insert(child: ControllerID(arguments[0]), at: index)
        case .messageReceived(_, _, TileReport.name, let payload):
            guard let report = TileReport(payload: payload) else { return }
            appeared.insert(report.tile)
            try? await controller.setProperties([.title("Board: \(appeared.count) tiles appeared")])
        default:
            break
        }
    }

    /// A new host process: the order and the feature are read back from the state it published, else (a grid that
    /// published none yet) from the frames it gave its children.
    public func restored(_ state: ControllerState, controller: ControllerRef) async {
        if let published = state.properties.state["order"] {
            order = published.split(separator: ",").map { ControllerID(String($0)) }
            featured = state.properties.state["featured"].map { ControllerID($0) }
            return
        }
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

    /// Shows its order and its feature to `tree`, the inspector and every subscriber (and to its next process).
    private func publish() async throws(RemoteError) {
        var state = ["order": order.map(\.rawValue).joined(separator: ",")]
        if let featured { state["featured"] = featured.rawValue }
        try await controller.publishState(state)
    }

    /// Each embedded child in its cell, in order; children embedded by someone else go last.
    private func layOut() async throws(RemoteError) {
        let snapshot = try await controller.snapshot()
        guard let frame = snapshot.controller(controller.id)?.frame else { return }
        let embedded = snapshot.embeddedChildren(of: controller.id)
        order = order.filter(embedded.contains) + embedded.filter { !order.contains($0) }
        let frames = GridLayout.frames(count: order.count, in: frame)
        let commands = zip(order, frames).map { child, cell in Command.setFrame(.root(child), cell) }
        guard !commands.isEmpty else { return }
        try await controller.perform(commands)
    }
}
