import Foundation

/// How to start `executable` with `arguments` so that it begins with every signal at its default and none blocked:
/// through coreutils' `env --default-signal`, which resets them and then becomes the program (the same pid).
///
/// A child inherits the signal mask of the thread that starts it and the signals its parent ignores, and the threads
/// of a Swift process block most signals (libdispatch's workers do, for its signal sources). Started directly from
/// one, a program that does not set its own mask — etcd, redis-server — never sees a SIGTERM: `down` waited for etcd
/// and killed it, and `bench peer` waited for redis-server forever. Without `/usr/bin/env`, the program itself.
public func withDefaultSignals(_ executable: String, _ arguments: [String]) -> (executable: URL, arguments: [String]) {
    let env = "/usr/bin/env"
    guard FileManager.default.isExecutableFile(atPath: env) else {
        return (URL(fileURLWithPath: executable), arguments)
    }
    return (URL(fileURLWithPath: env), ["--default-signal", executable] + arguments)
}

extension Process {
    /// Runs `executable` with `arguments` starting from every signal at its default and none blocked
    /// (``withDefaultSignals(_:_:)``).
    public func setCommandWithDefaultSignals(_ executable: String, _ arguments: [String]) {
        let command = withDefaultSignals(executable, arguments)
        executableURL = command.executable
        self.arguments = command.arguments
    }
}
