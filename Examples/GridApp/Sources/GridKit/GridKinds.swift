import ContainmentHost

/// The app's kinds as its host registers them — the standard kinds, and `grid` and `tile` — shared by the host
/// executable and the tests that run the app in memory (`withSimulatedRuntime`).
public enum GridKinds {
    public static var registry: BehaviorRegistry {
        var kinds = BehaviorRegistry()
        kinds.register("grid", verbs: GridController.verbs, distributed: GridController.init(controller:))
        kinds.register("tile", answering: TileBehavior.questions) { TileBehavior() }
        return kinds
    }
}
