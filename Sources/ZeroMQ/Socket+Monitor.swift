internal import CZeroMQ

/// An event of a socket's connections, as a monitor reports it (`zmq_socket_monitor`).
public struct SocketEvent: Sendable, Equatable {
    /// Which events to monitor, and which one happened.
    public struct Kind: OptionSet, Sendable, Hashable {
        public let rawValue: UInt16
        public init(rawValue: UInt16) { self.rawValue = rawValue }

        /// A peer connected to a bound socket (`ZMQ_EVENT_ACCEPTED`).
        public static let accepted = Kind(rawValue: UInt16(ZMQ_EVENT_ACCEPTED))
        /// A peer's connection ended (`ZMQ_EVENT_DISCONNECTED`).
        public static let disconnected = Kind(rawValue: UInt16(ZMQ_EVENT_DISCONNECTED))
        /// A connection's security handshake completed: messages flow (`ZMQ_EVENT_HANDSHAKE_SUCCEEDED`).
        public static let handshakeSucceeded = Kind(rawValue: UInt16(ZMQ_EVENT_HANDSHAKE_SUCCEEDED))
        /// The peer's ZAP handler refused this connection (`ZMQ_EVENT_HANDSHAKE_FAILED_AUTH`; the value is its status
        /// code, such as 400).
        public static let handshakeFailedAuth = Kind(rawValue: UInt16(ZMQ_EVENT_HANDSHAKE_FAILED_AUTH))
    }

    public var kind: Kind
    /// The event's value (for a connection, its file descriptor).
    public var value: UInt32
    /// The endpoint of the socket it happened on.
    public var endpoint: String

    /// Reads a monitor's message: the event (u16) and value (u32), little-endian, then the endpoint; `nil` if it is
    /// not one.
    public init?(frames: [[UInt8]]) {
        guard frames.count == 2, frames[0].count == 6 else { return nil }
        let bytes = frames[0]
        kind = Kind(rawValue: UInt16(bytes[0]) | UInt16(bytes[1]) << 8)
        value = UInt32(bytes[2]) | UInt32(bytes[3]) << 8 | UInt32(bytes[4]) << 16 | UInt32(bytes[5]) << 24
        endpoint = String(decoding: frames[1], as: UTF8.self)
    }
}

extension Socket {
    /// Reports `events` of this socket's connections on a PAIR socket bound at `endpoint` (an `inproc://` address of
    /// the same context): connect a ``SocketType/pair`` socket there and read ``SocketEvent``s from it.
    public func monitor(_ endpoint: String, events: SocketEvent.Kind) throws(ZMQError) {
        let handle = try openHandle("zmq_socket_monitor(\(endpoint))")
        try zmqCall("zmq_socket_monitor(\(endpoint))") { zmq_socket_monitor(handle, endpoint, CInt(events.rawValue)) }
    }
}
