import ContainmentHost
import GridKit

/// The app's host process: the standard kinds, and `grid` and `tile` (``GridKinds``).
@main
struct GridHost: HostApp {
    static var kinds: BehaviorRegistry { GridKinds.registry }
}
