import Foundation

/// The run directory's files: made before the daemons start, removed when they stop.
package enum RunDirectory {
    package static func prepare(_ path: String) throws {
        do {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        } catch {
            throw ConfigError("Cannot create the run directory \(path): \(error.localizedDescription)")
        }
    }

    package static func writePID(to path: String) throws {
        do {
            try "\(getpid())\n".write(toFile: path, atomically: true, encoding: .utf8)
        } catch {
            throw ConfigError("Cannot write the pid file \(path): \(error.localizedDescription)")
        }
    }

    package static func remove(_ path: String) {
        try? FileManager.default.removeItem(atPath: path)
    }

    /// Removes a pid file only if it still names this process: a daemon removes only the files it created.
    package static func removePID(_ path: String) {
        let text = (try? String(contentsOfFile: path, encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines)
        guard text == String(getpid()) else { return }
        remove(path)
    }

    /// libzmq leaves an `ipc://` socket file behind when its context ends without an explicit unbind.
    package static func removeSocket(_ endpoint: String) {
        guard endpoint.hasPrefix("ipc://") else { return }
        remove(String(endpoint.dropFirst("ipc://".count)))
    }
}
