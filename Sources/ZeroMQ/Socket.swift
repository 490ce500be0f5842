internal import CZeroMQ

/// A ZeroMQ socket, created by ``Context/socket(_:)``.
///
/// libzmq sockets are not thread-safe. This class is deliberately **not** `Sendable` (and the conformance is
/// declared unavailable), so Swift 6's strict concurrency checking rejects, at compile time, any code that could
/// use one socket from two threads or tasks at once: a socket can only be *transferred* to another isolation domain
/// (as a `sending` value, e.g. captured by a new `Task`), after which the original domain can no longer touch it.
/// That transfer goes through the concurrency runtime, which provides the full memory barrier libzmq requires when
/// a socket migrates between threads.
///
/// The socket keeps its ``Context`` alive. It is closed by ``close()`` or when it is released; its linger is zero
/// unless changed, so closing never waits for unsent messages.
public final class Socket {
    /// The type the socket was created with.
    public let type: SocketType

    private let context: Context
    private var handle: UnsafeMutableRawPointer?

    init(handle: UnsafeMutableRawPointer, type: SocketType, context: Context) {
        self.handle = handle
        self.type = type
        self.context = context
    }

    deinit {
        close()
    }

    /// Whether ``close()`` was called. Every operation on a closed socket throws ``ZMQError/Code/notSocket``.
    public var isClosed: Bool {
        handle == nil
    }

    /// Closes the socket (`zmq_close`). Unsent messages are kept for the linger period (zero by default). Closing a
    /// closed socket does nothing.
    public func close() {
        guard let handle else {
            return
        }
        self.handle = nil
        // zmq_close only fails with ENOTSOCK, impossible: the handle is open and closed exactly once.
        _ = try? zmqCall("zmq_close") { zmq_close(handle) }
    }

    /// Binds the socket to a local endpoint (`zmq_bind`), e.g. `"tcp://127.0.0.1:*"`, `"ipc:///tmp/x"`,
    /// `"inproc://name"`. With a wildcard port, read the chosen one from ``lastEndpoint``.
    ///
    /// - Throws: ``ZMQError``, e.g. ``ZMQError/Code/addressInUse``, ``ZMQError/Code/protocolNotSupported``,
    ///   ``ZMQError/Code/invalidArgument``.
    public func bind(_ endpoint: String) throws(ZMQError) {
        let handle = try openHandle("zmq_bind(\(endpoint))")
        try zmqCall("zmq_bind(\(endpoint))") { zmq_bind(handle, endpoint) }
    }

    /// Connects the socket to a remote endpoint (`zmq_connect`). The connection is made in the background; messages
    /// are queued meanwhile (unless ``SocketOption/immediate`` is set).
    public func connect(_ endpoint: String) throws(ZMQError) {
        let handle = try openHandle("zmq_connect(\(endpoint))")
        try zmqCall("zmq_connect(\(endpoint))") { zmq_connect(handle, endpoint) }
    }

    /// Stops listening on an endpoint bound by ``bind(_:)`` (`zmq_unbind`). Use the resolved endpoint (see
    /// ``lastEndpoint``) for wildcard binds.
    public func unbind(_ endpoint: String) throws(ZMQError) {
        let handle = try openHandle("zmq_unbind(\(endpoint))")
        try zmqCall("zmq_unbind(\(endpoint))") { zmq_unbind(handle, endpoint) }
    }

    /// Disconnects from an endpoint connected by ``connect(_:)`` (`zmq_disconnect`).
    public func disconnect(_ endpoint: String) throws(ZMQError) {
        let handle = try openHandle("zmq_disconnect(\(endpoint))")
        try zmqCall("zmq_disconnect(\(endpoint))") { zmq_disconnect(handle, endpoint) }
    }

    /// Sends one message made of `frames` (a multipart message when there are several; frames may be empty and of
    /// any size). Each frame is copied once into a `zmq_msg_t` sized for it and sent with `ZMQ_SNDMORE` on all
    /// frames but the last. libzmq delivers multipart messages atomically: all frames or none.
    ///
    /// - Parameters:
    ///   - frames: The frames of the message; at least one.
    ///   - dontWait: Fail with `false` instead of blocking when the message cannot be queued now (`ZMQ_DONTWAIT`).
    /// - Returns: `true` when the message was queued; `false` when libzmq reported `EAGAIN` (with `dontWait`, or
    ///   when ``SocketOption/sendTimeout`` elapsed), in which case nothing of the message is delivered.
    /// - Throws: ``ZMQError``, e.g. ``ZMQError/Code/invalidState`` (REQ sending twice),
    ///   ``ZMQError/Code/hostUnreachable`` (ROUTER with ``WriteOnlySocketOption/routerMandatory``),
    ///   ``ZMQError/Code/notSupported`` (socket type that cannot send), ``ZMQError/Code/contextTerminated``.
    @discardableResult
    public func send(_ frames: [[UInt8]], dontWait: Bool = false) throws(ZMQError) -> Bool {
        // What was attempted, for an error: built only on failure (not for every message sent).
        func operation() -> String { "zmq_msg_send(\(type))" }
        let handle = try openHandle(operation())
        guard !frames.isEmpty else {
            throw ZMQError(.invalidArgument, operation: "\(operation()) of a message without frames")
        }
        let lastIndex = frames.count - 1
        for (index, frame) in frames.enumerated() {
            guard try send(frame, on: handle, dontWait: dontWait, more: index < lastIndex) else { return false }
        }
        return true
    }

    /// Sends a message of two frames — a ROUTER's peer and body, a PUB's topic and body — as ``send(_:dontWait:)``
    /// does, without gathering them in an array first.
    @discardableResult
    public func send(_ first: [UInt8], _ last: [UInt8], dontWait: Bool = false) throws(ZMQError) -> Bool {
        let handle = try openHandle("zmq_msg_send(\(type))")
        guard try send(first, on: handle, dontWait: dontWait, more: true) else { return false }
        return try send(last, on: handle, dontWait: dontWait, more: false)
    }

    /// ``send(_:_:dontWait:)`` with its last frame a slice of a larger array (the supervisor's events, encoded one
    /// after another).
    @discardableResult
    package func send(_ first: [UInt8], _ last: ArraySlice<UInt8>, dontWait: Bool = false) throws(ZMQError) -> Bool {
        let handle = try openHandle("zmq_msg_send(\(type))")
        guard try send(first, on: handle, dontWait: dontWait, more: true) else { return false }
        return try send(on: handle, dontWait: dontWait, more: false) { flags in
            last.withUnsafeBytes { zmq_send(handle, $0.baseAddress, $0.count, flags) }
        }
    }

    /// One frame of a message; `more`: others follow (`ZMQ_SNDMORE`). Once its first frame is queued, libzmq queues
    /// the rest of a message (it is delivered whole or not at all).
    private func send(
        _ frame: [UInt8],
        on handle: UnsafeMutableRawPointer,
        dontWait: Bool,
        more: Bool
    ) throws(ZMQError)
        -> Bool
    {
        try send(on: handle, dontWait: dontWait, more: more) { flags in
            frame.withUnsafeBytes { zmq_send(handle, $0.baseAddress, $0.count, flags) }
        }
    }

    /// Sends one frame with `zmqSend`, a `zmq_send` of its bytes with the flags given; false on `EAGAIN`.
    private func send(
        on handle: UnsafeMutableRawPointer,
        dontWait: Bool,
        more: Bool,
        _ zmqSend: (CInt) -> CInt
    ) throws(ZMQError) -> Bool {
        let flags: CInt = (dontWait ? ZMQ_DONTWAIT : 0) | (more ? ZMQ_SNDMORE : 0)
        // `zmq_send` copies the bytes into a message of its own and sends it (closing it if it cannot): what a
        // `zmq_msg_t` made, filled and sent from here did, in one call (scripts/callgrind-loop.sh: ~100 instructions
        // less a frame).
        // What was attempted, for an error: built only on failure (not for every message sent, nor for a full pipe).
        return try zmqCallUnlessAgain("zmq_send(\(type))") { zmqSend(flags) } != nil
    }

    /// Sends a single-frame message; see the multipart `send(_:dontWait:)`.
    @discardableResult
    public func send(_ frame: [UInt8], dontWait: Bool = false) throws(ZMQError) -> Bool {
        try send([frame], dontWait: dontWait)
    }

    /// Sends a single-frame message holding the UTF-8 bytes of `string` (no terminating NUL).
    @discardableResult
    public func send(_ string: String, dontWait: Bool = false) throws(ZMQError) -> Bool {
        try send([Array(string.utf8)], dontWait: dontWait)
    }

    /// Receives the next message with all its frames (`zmq_msg_recv` until `zmq_msg_more` is false). Frames are
    /// copied out of libzmq's own buffers at their full size: nothing is ever truncated.
    ///
    /// - Parameter dontWait: Return `nil` instead of blocking when no message is waiting (`ZMQ_DONTWAIT`).
    /// - Returns: The frames (at least one), or `nil` when libzmq reported `EAGAIN`: no message waiting with
    ///   `dontWait`, or ``SocketOption/receiveTimeout`` elapsed.
    /// - Throws: ``ZMQError``, e.g. ``ZMQError/Code/invalidState`` (REP receiving twice),
    ///   ``ZMQError/Code/notSupported`` (socket type that cannot receive), ``ZMQError/Code/contextTerminated``.
    public func receive(dontWait: Bool = false) throws(ZMQError) -> [[UInt8]]? {
        try receive(dontWait: dontWait, property: nil)?.frames
    }

    /// Receives the next message, as ``receive(dontWait:)``, with a metadata property of its last frame
    /// (`zmq_msg_gets`): `"User-Id"` is what the ZAP handler said of the peer that sent it (RFC 27), `nil` when the
    /// connection has none (no security mechanism, or no ZAP handler).
    public func receive(
        dontWait: Bool = false,
        property: String
    ) throws(ZMQError) -> (
        frames: [[UInt8]], property: String?
    )? {
        try receive(dontWait: dontWait, property: Optional(property))
    }

    private func receive(
        dontWait: Bool,
        property: String?
    ) throws(ZMQError) -> (
        frames: [[UInt8]], property: String?
    )? {
        func operation() -> String { "zmq_msg_recv(\(type))" }
        let handle = try openHandle(operation())
        var frames: [[UInt8]] = []
        // Most messages are two frames (a ROUTER's peer and body, a PUB's topic and body): room made once.
        frames.reserveCapacity(2)
        var value: String?
        var more = true
        while more {
            // Only the first frame can be missing: libzmq queues the frames of a message together, so the others
            // are always there once the first one arrived.
            let flags: CInt = dontWait && frames.isEmpty ? ZMQ_DONTWAIT : 0
            let received = try Message.withEmpty { message throws(ZMQError) -> Bool in
                guard try message.receive(from: handle, flags: flags, operation: operation()) else { return false }
                frames.append(message.bytes)
                more = message.hasMore
                if !more, let property { value = message.property(property) }
                return true
            }
            guard received else {
                if frames.isEmpty {
                    return nil
                }
                throw ZMQError(.again, operation: "\(operation()), frame \(frames.count + 1) of a multipart message")
            }
        }
        return (frames, value)
    }

    /// The open libzmq handle, or ``ZMQError/Code/notSocket`` once closed.
    func openHandle(_ operation: @autoclosure () -> String) throws(ZMQError) -> UnsafeMutableRawPointer {
        guard let handle else {
            throw ZMQError(.notSocket, operation: operation())
        }
        return handle
    }
}

/// Sockets are deliberately not `Sendable`: see ``Socket``.
@available(*, unavailable)
extension Socket: Sendable {}
