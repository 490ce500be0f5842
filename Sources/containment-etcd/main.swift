import ContainmentCommands
import ContainmentEtcd
import ContainmentRuntime

// `containment-etcd`: every command of `containment`, with the etcd journal's gRPC client handed in.
let etcd = EtcdSupport(
    store: { try GRPCEtcdStore(settings: $0) },
    look: { await ReplicationStatus.look($0, supervisors: $1) }
)
await EtcdSupport.$current.withValue(etcd) { await Containment.runCommandLine() }
