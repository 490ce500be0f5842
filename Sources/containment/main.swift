import ArgumentParser
import ContainmentCommands
import Foundation

// `containment`: every command, without etcd's client (`containment-etcd` has it). A command that is not async
// (`bench`, `journal`, …) runs on the main thread as it is; an async one in a task, the main thread handed to Dispatch
// as an `await` at the top level would hand it. valgrind 3.19 cannot follow a process whose main thread went to
// Dispatch (the next thread it starts crashes valgrind), and scripts/callgrind-core.sh counts `bench core` under it.
// A command line that does not parse goes the async way, where `runCommandLine` says why.
if var command = try? Containment.parseAsRoot(), !(command is any AsyncParsableCommand) {
    do {
        try command.run()
    } catch {
        Containment.exit(withError: error)
    }
    exit(0)
} else {
    Task {
        await Containment.runCommandLine()
        exit(0)
    }
    dispatchMain()
}
