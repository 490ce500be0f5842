import ContainmentHost
import GridKit

/// The app's host process: the standard kinds, and `grid` and `tile`.
@main
struct GridHost: HostApp {
    static var kinds: BehaviorRegistry {
        var kinds = BehaviorRegistry()
        kinds.register("grid", verbs: GridController.verbs, distributed: GridController.init(controller:))
        kinds.register("tile", answering: TileBehavior.questions) { TileBehavior() }
        return kinds
    }
}
