internal import CZeroMQ

/// The version of a libzmq library.
public struct LibraryVersion: Comparable, Hashable, Sendable, CustomStringConvertible {
    /// The major version (4 for libzmq 4.3.4).
    public let major: Int
    /// The minor version (3 for libzmq 4.3.4).
    public let minor: Int
    /// The patch version (4 for libzmq 4.3.4).
    public let patch: Int

    /// Creates a version from its components.
    public init(major: Int, minor: Int, patch: Int) {
        self.major = major
        self.minor = minor
        self.patch = patch
    }

    /// `"major.minor.patch"`.
    public var description: String {
        "\(major).\(minor).\(patch)"
    }

    /// Orders versions by major, then minor, then patch.
    public static func < (lhs: LibraryVersion, rhs: LibraryVersion) -> Bool {
        (lhs.major, lhs.minor, lhs.patch) < (rhs.major, rhs.minor, rhs.patch)
    }
}

/// The version of the libzmq library loaded at run time (`zmq_version`); spelled `ZeroMQ.version` by clients.
public var version: LibraryVersion {
    var major: CInt = 0
    var minor: CInt = 0
    var patch: CInt = 0
    zmq_version(&major, &minor, &patch)
    return LibraryVersion(major: Int(major), minor: Int(minor), patch: Int(patch))
}

/// Whether the loaded libzmq supports the CURVE security mechanism (`zmq_has("curve")`); spelled `ZeroMQ.hasCurve`.
public var hasCurve: Bool {
    hasCapability("curve")
}

/// Whether the loaded libzmq has a capability (`zmq_has`), e.g. `"ipc"`, `"curve"`, `"draft"`.
public func hasCapability(_ capability: String) -> Bool {
    zmq_has(capability) != 0
}
