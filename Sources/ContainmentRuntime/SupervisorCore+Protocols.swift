import ContainmentConfig
import ContainmentModel

extension SupervisorCore {
    /// SPEC §16's child protocols as the hosts registered them, for the model to judge `addChild` by: for each kind,
    /// the verbs any host registered for it and the verbs it requires of its children. A host that is down counts by
    /// its last Hello (its kinds are still what it runs); hosts in name order, the first to require verbs of a kind
    /// giving them.
    mutating func updateKindProtocols() {
        var kinds: [Kind: KindProtocol] = [:]
        for record in hosts.values.sorted(by: { $0.name < $1.name }) {
            for (kind, verbs) in record.verbs ?? [:] {
                kinds[Kind(kind), default: KindProtocol()].verbs.formUnion(verbs)
            }
            for (kind, required) in record.requires where !required.isEmpty {
                if kinds[Kind(kind)]?.requires.isEmpty ?? true {
                    kinds[Kind(kind), default: KindProtocol()].requires = required
                }
            }
        }
        if state.kindProtocols != kinds { state.kindProtocols = kinds }
    }
}
