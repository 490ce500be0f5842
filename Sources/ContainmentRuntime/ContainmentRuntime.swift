import ContainmentBus
import ContainmentModel

/// The supervisor, hosts and controller actors. The runtime issue fills this in.
public enum ContainmentRuntime {
    /// The protocol version the runtime speaks.
    public static let protocolVersion = ContainmentBus.protocolVersion
}
