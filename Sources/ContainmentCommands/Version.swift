import ContainmentConfig
import ContainmentRuntime

/// `containment --version`: the release number and the git commit the binary was built from (`BuildStamp`, written
/// by Plugins/VersionStamp before each build).
enum ContainmentVersion {
    static var text: String { "\(Containment.programName) \(ContainmentRelease.number) (git \(BuildStamp.commit))" }
}
