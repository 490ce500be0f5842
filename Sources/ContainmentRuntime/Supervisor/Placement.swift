import ContainmentConfig
import ContainmentModel

/// Which host runs each controller, and how many each runs: where a creation is placed and whom a callback goes to.
struct Placement {
    /// The host of each controller that has one.
    private(set) var hostOf = IDTable<ControllerID, String>()
    /// How many controllers each host runs.
    private(set) var load: [String: Int] = [:]

    subscript(id: ControllerID) -> String? { hostOf[id] }

    /// Records which host runs a controller (`nil`: none any more), keeping each host's count.
    mutating func assign(_ id: ControllerID, to host: String?) {
        // One probe of the table (a million entries after a large creation): the old value comes back from the change.
        let old: String?
        if let host {
            old = hostOf.updateValue(host, forKey: id).old
        } else {
            old = hostOf[id]
            hostOf[id] = nil
        }
        if let old { load[old, default: 1] -= 1 }
        if let host { load[host, default: 0] += 1 }
    }

    /// The controllers `host` runs, by id.
    func controllers(on host: String) -> [ControllerID] {
        hostOf.filter { $0.value == host }.map(\.key).sorted()
    }

    /// Of `candidates`, the one that runs the fewest controllers (by name among equals); `nil` when there is none.
    func leastLoaded(of candidates: some Sequence<String>) -> String? {
        var best: (load: Int, name: String)?
        for name in candidates {
            let candidate = (load[name] ?? 0, name)
            if best.map({ candidate < $0 }) ?? true { best = candidate }
        }
        return best?.name
    }
}
