import ContainmentCommands

// `containment`: every command, without etcd's client (`containment-etcd` has it).
await Containment.runCommandLine()
