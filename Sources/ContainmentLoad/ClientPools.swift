import ContainmentModel
import ContainmentWorkload

/// The controllers a load's clients draw over (`stress`, and `simulate`'s world), and the requests that create them.
public struct ClientPools: Sendable {
    /// The kind of an answering load's content controllers (`stress --answering`): forms, whose code answers.
    public static let answeringKind: Kind = "form"
    /// Each client's pool, in client order.
    public let pools: [CommandPool]
    /// The creations of the pools' controllers: one list per pool (contended, one list for all).
    public let creations: [[Request]]

    /// Each client its own pool of `controllers / clients` controllers (at least `minimum`), prefixed with `prefix`
    /// and its index; contended, one pool of `controllers` (at least `minimum`) that every client draws over, so
    /// their commands race on the same controllers. Answering, the content controllers are forms, whose code answers
    /// their loads and layouts.
    public init(
        prefix: String,
        clients: Int,
        controllers: Int,
        contended: Bool,
        answering: Bool,
        seed: UInt64,
        minimum: Int = 0
    ) {
        let contentKind: Kind = answering ? Self.answeringKind : .content
        if contended {
            var shared = CommandPool.prefixed(prefix, count: max(minimum, controllers))
            shared.contentKind = contentKind
            pools = Array(repeating: shared, count: clients)
            creations = [shared.creations(seed: seed)]
            return
        }
        let perClient = max(minimum, controllers / max(1, clients))
        pools = (0..<clients).map { index in
            var pool = CommandPool.prefixed("\(prefix)\(index)", count: perClient)
            pool.contentKind = contentKind
            return pool
        }
        creations = pools.enumerated().map { index, pool in pool.creations(seed: seed &+ UInt64(index)) }
    }

    /// The pools and the creations, as a pair.
    public var split: (pools: [CommandPool], creations: [[Request]]) { (pools, creations) }
}
