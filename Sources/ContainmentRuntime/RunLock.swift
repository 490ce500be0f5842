import ContainmentConfig
import Foundation

/// One supervisor per run directory: an exclusive `flock` on `{run}/supervisor.lock`, held for the process's life
/// (the kernel drops it when the process dies, even by `kill -9`, so a crash leaves no stale lock). The file holds
/// the holder's pid, so a refusal can name it. The file itself stays: removing a lock file races with the next
/// taker.
public final class RunLock: Sendable {
    public let path: String
    private let descriptor: Int32

    /// Takes the lock, or throws naming the process that holds it. `name`: one of a replicated runtime's supervisors,
    /// which may share a run directory, one lock each (`supervisor-NAME.lock`).
    public init(runDirectory: String, name: String? = nil) throws(ConfigError) {
        path = runDirectory + (name.map { "/supervisor-\($0).lock" } ?? "/supervisor.lock")
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw ConfigError("Cannot open the lock file \(path) (errno \(errno)).")
        }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            let holder =
                (try? String(contentsOfFile: path, encoding: .utf8))?
                .trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
            close(descriptor)
            throw ConfigError(
                "Another supervisor (pid \(holder.isEmpty ? "unknown" : holder)) already serves the run directory "
                    + "\(runDirectory); stop it first (scripts/down.sh), or use another CONTAINMENT_RUN_DIR."
            )
        }
        _ = ftruncate(descriptor, 0)
        FileHandle(fileDescriptor: descriptor, closeOnDealloc: false).write(Data("\(getpid())\n".utf8))
        self.descriptor = descriptor
    }

    /// Releases the lock (the file stays; see the type's comment). Call once.
    public func release() {
        _ = ftruncate(descriptor, 0)
        flock(descriptor, LOCK_UN)
        close(descriptor)
    }
}
