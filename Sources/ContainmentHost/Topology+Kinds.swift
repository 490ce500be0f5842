import ContainmentConfig

extension Topology {
    /// A topology file read as the supervisor reads it (``Topology/load(path:)``), every controller's kind checked
    /// against what its host runs: `registry`'s kinds on a host the supervisor starts as `containment host`
    /// (``Topology/checkKinds(standardHost:)``). A refusal names the file.
    package static func load(path: String, kindsOf registry: BehaviorRegistry) throws -> Topology {
        let topology = try load(path: path)
        do {
            try topology.checkKinds(standardHost: registry.kinds)
        } catch let error as ConfigError {
            throw ConfigError("\(path): \(error.description)")
        }
        return topology
    }
}
