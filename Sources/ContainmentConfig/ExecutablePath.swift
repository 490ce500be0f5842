import Foundation

/// Where a program runs from: the first executable file of that name in a directory of `PATH`.
package enum ExecutablePath {
    /// `name`'s path on the PATH (`/usr/bin:/bin` when PATH is unset), then in `fallbacks`; nil when none is there.
    package static func find(_ name: String, orIn fallbacks: [String] = []) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return (path.split(separator: ":").map { "\($0)/\(name)" } + fallbacks)
            .first { FileManager.default.isExecutableFile(atPath: $0) }
    }
}
