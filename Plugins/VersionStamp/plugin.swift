import Foundation
import PackagePlugin

/// Stamps the `containment` executable with the git commit it is built from (`containment --version`): before every
/// build, `BuildStamp.commit` is the checkout's HEAD (`-dirty` with uncommitted changes; `unknown` outside a git
/// checkout). The file is rewritten only when the text changes, so an unchanged checkout compiles nothing again.
@main
struct VersionStamp: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) async throws -> [Command] {
        let output = context.pluginWorkDirectoryURL.appending(path: "Generated")
        let script = """
            set -eu
            out="$1/BuildStamp.swift"
            mkdir -p "$1"
            commit=$(git -C "$2" rev-parse --short=12 HEAD 2>/dev/null || echo unknown)
            if [ "$commit" != unknown ] && ! git -C "$2" diff --quiet HEAD -- 2>/dev/null; then commit="$commit-dirty"; fi
            text="/// The git commit this binary was built from (Plugins/VersionStamp).
            enum BuildStamp { static let commit = \\"$commit\\" }"
            [ "$(cat "$out" 2>/dev/null)" = "$text" ] || printf '%s\\n' "$text" >"$out"
            """
        return [
            .prebuildCommand(
                displayName: "Stamping \(target.name) with the git commit",
                executable: URL(fileURLWithPath: "/bin/sh"),
                arguments: ["-c", script, "sh", output.path, context.package.directoryURL.path],
                outputFilesDirectory: output
            )
        ]
    }
}
