import ContainmentModel

/// The wire protocol and socket roles of the bus. The runtime issue fills this in; for now it names the protocol
/// version every process will agree on.
public enum ContainmentBus {
    /// The version of the wire protocol (docs/PROTOCOL.md, once written).
    public static let protocolVersion = 1
}
