internal import CZeroMQ

/// One frame in flight: a `zmq_msg_t` owned by this wrapper for the length of one call, closed (and its content freed)
/// when the call ends.
///
/// The `zmq_msg_t` lives in temporary storage (on the stack) that does not move during the call, because libzmq keeps
/// small frames inside the structure and forbids copying or moving it; a Swift value could be moved between calls.
/// Temporary rather than heap storage: receiving a frame allocates nothing of its own but what libzmq allocates for
/// the frame's content. (A frame is sent with `zmq_send`, which makes its message itself: ``Socket``.)
struct Message: ~Copyable {
    private let pointer: UnsafeMutablePointer<zmq_msg_t>

    private init(_ pointer: UnsafeMutablePointer<zmq_msg_t>) {
        self.pointer = pointer
    }

    /// Runs `body` with an empty message, ready to receive into (`zmq_msg_init`), and closes it afterwards.
    static func withEmpty<R>(_ body: (borrowing Message) throws(ZMQError) -> R) throws(ZMQError) -> R {
        try withStorage { pointer throws(ZMQError) -> R in
            // zmq_msg_init always succeeds (it only fills in the structure).
            _ = try? zmqCall("zmq_msg_init") { zmq_msg_init(pointer) }
            defer { close(pointer) }
            return try body(Message(pointer))
        }
    }

    /// Temporary storage for one `zmq_msg_t`, for the length of `body`.
    private static func withStorage<R>(
        _ body: (UnsafeMutablePointer<zmq_msg_t>) throws(ZMQError) -> R
    ) throws(ZMQError) -> R {
        let result = withUnsafeTemporaryAllocation(of: zmq_msg_t.self, capacity: 1) { storage in
            // Safe: a temporary allocation of capacity 1 has a base address.
            Result { () throws(ZMQError) -> R in try body(storage.baseAddress!) }
        }
        return try result.get()
    }

    private static func close(_ pointer: UnsafeMutablePointer<zmq_msg_t>) {
        // zmq_msg_close only fails for an invalid message (EFAULT), impossible: the message was initialised.
        _ = try? zmqCall("zmq_msg_close") { zmq_msg_close(pointer) }
    }

    /// A copy of the message's bytes.
    var bytes: [UInt8] {
        let size = zmq_msg_size(pointer)
        guard size > 0, let data = zmq_msg_data(pointer) else {
            return []
        }
        return [UInt8](unsafeUninitializedCapacity: size) { buffer, initializedCount in
            UnsafeMutableRawBufferPointer(buffer).copyMemory(from: UnsafeRawBufferPointer(start: data, count: size))
            initializedCount = size
        }
    }

    /// A metadata property of a received message (`zmq_msg_gets`), `nil` when it has none.
    func property(_ name: String) -> String? {
        guard let value = zmq_msg_gets(pointer, name) else { return nil }
        return String(cString: value)
    }

    /// Whether more frames of the same multipart message follow (`zmq_msg_more`, valid after a receive).
    var hasMore: Bool {
        zmq_msg_more(pointer) != 0
    }

    /// Receives the next frame from `socket` into the message (`zmq_msg_recv`).
    ///
    /// - Returns: `false` when libzmq reports `EAGAIN` (non-blocking receive or receive timeout).
    func receive(
        from socket: UnsafeMutableRawPointer,
        flags: CInt,
        operation: @autoclosure () -> String
    ) throws(ZMQError) -> Bool {
        try zmqCallUnlessAgain(operation()) { zmq_msg_recv(pointer, socket, flags) } != nil
    }
}
