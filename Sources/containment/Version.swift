/// `containment --version`: the release number and the git commit the binary was built from (`BuildStamp`, written
/// by Plugins/VersionStamp before each build).
enum ContainmentVersion {
    static let number = "0.1.0"
    static var text: String { "containment \(number) (git \(BuildStamp.commit))" }
}
