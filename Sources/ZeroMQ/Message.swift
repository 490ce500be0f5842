internal import CZeroMQ

/// One frame in flight: a `zmq_msg_t` owned by this wrapper, closed (and freed) when the value goes away.
///
/// The `zmq_msg_t` lives in its own allocation because libzmq keeps small frames inside the structure and forbids
/// copying or moving it; a Swift value could be moved between calls, an allocated pointer cannot.
struct Message: ~Copyable {
    private let pointer: UnsafeMutablePointer<zmq_msg_t>

    /// An empty message, ready to receive into (`zmq_msg_init`).
    init() {
        pointer = .allocate(capacity: 1)
        // zmq_msg_init always succeeds (it only fills in the structure).
        _ = try? zmqCall("zmq_msg_init") { zmq_msg_init(pointer) }
    }

    /// A message holding a copy of `bytes` (`zmq_msg_init_size` and one copy; any size).
    init(copying bytes: [UInt8]) throws(ZMQError) {
        let pointer = UnsafeMutablePointer<zmq_msg_t>.allocate(capacity: 1)
        do {
            try zmqCall("zmq_msg_init_size(\(bytes.count))") { zmq_msg_init_size(pointer, bytes.count) }
        } catch {
            pointer.deallocate()
            throw error
        }
        bytes.withUnsafeBytes { source in
            if let base = source.baseAddress, let destination = zmq_msg_data(pointer) {
                destination.copyMemory(from: base, byteCount: source.count)
            }
        }
        self.pointer = pointer
    }

    deinit {
        // zmq_msg_close only fails for an invalid message (EFAULT), impossible: `pointer` was initialised in `init`.
        _ = try? zmqCall("zmq_msg_close") { zmq_msg_close(pointer) }
        pointer.deallocate()
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

    /// Sends the message on `socket` (`zmq_msg_send`); libzmq takes its content on success.
    ///
    /// - Returns: `false` when libzmq reports `EAGAIN` (non-blocking send or send timeout).
    func send(
        on socket: UnsafeMutableRawPointer,
        flags: CInt,
        operation: @autoclosure () -> String
    ) throws(ZMQError) -> Bool {
        do {
            try zmqCall(operation()) { zmq_msg_send(pointer, socket, flags) }
            return true
        } catch let error where error.code == .again {
            return false
        }
    }

    /// Receives the next frame from `socket` into the message (`zmq_msg_recv`).
    ///
    /// - Returns: `false` when libzmq reports `EAGAIN` (non-blocking receive or receive timeout).
    func receive(
        from socket: UnsafeMutableRawPointer,
        flags: CInt,
        operation: @autoclosure () -> String
    ) throws(ZMQError) -> Bool {
        do {
            try zmqCall(operation()) { zmq_msg_recv(pointer, socket, flags) }
            return true
        } catch let error where error.code == .again {
            return false
        }
    }
}
