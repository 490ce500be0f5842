/// A rejection as the supervisor reports it: the error and, for a batch, the index of the failing command; for a
/// command the model judged, the command id and the seq of the `ruleViolation` event published for it.
public struct RemoteError: Error, Sendable, CustomStringConvertible {
    public let error: ContainmentError
    public let index: Int
    /// 0 when the request was refused before the model saw it (it could not be decoded, say).
    public let commandID: UInt64
    /// The seq of the `ruleViolation` event: the point of the sequence at which the command was judged; 0 as above.
    public let seq: UInt64

    public init(_ error: ContainmentError, index: Int = 0, commandID: UInt64 = 0, seq: UInt64 = 0) {
        self.error = error
        self.index = index
        self.commandID = commandID
        self.seq = seq
    }

    public var description: String { "\(error.code): \(error.message)" }
}
