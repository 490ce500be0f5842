import ContainmentHost

/// The app's kinds as its host registers them — the standard kinds, and `grid` and `tile` — shared by the host
/// executable and the tests that run the app in memory (`withSimulatedRuntime`).
///
/// The grid defines a protocol for its children (SPEC §16, seed 000): each must answer `tapped`, as a tile does. The
/// supervisor refuses any other child (`protocolMismatch`): a plain content controller cannot join the board.
public enum GridKinds {
    public static var registry: BehaviorRegistry {
        var kinds = BehaviorRegistry()
        kinds.register("grid", verbs: GridController.verbs, distributed: GridController.init(controller:))
        kinds.require(GridController.childVerbs, ofChildrenOf: "grid")
        kinds.register("tile", verbs: TileBehavior.verbs, answering: TileBehavior.questions) { TileBehavior() }
        return kinds
    }
}
