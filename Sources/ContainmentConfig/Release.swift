/// The release number the programs report with `--version` (beside the git commit each is built from).
package enum ContainmentRelease {
    package static let number = "0.1.0"
}
