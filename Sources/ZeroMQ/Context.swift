internal import CZeroMQ
internal import Synchronization

/// A ZeroMQ context: the owner of the I/O threads and the factory of sockets.
///
/// A context may be shared freely between threads and tasks (libzmq contexts are thread-safe); its sockets may not
/// (see ``Socket``). Every socket keeps its context alive, so the context is terminated (`zmq_ctx_term`) when the
/// last reference to it and to its sockets is gone, if ``terminate()`` was not called before.
///
/// Clean shutdown: sockets are created with a linger of zero, so closing them discards unsent messages at once and
/// terminating the context afterwards never waits for an absent peer (unless a socket's linger was raised).
public final class Context: @unchecked Sendable {
    // Why `@unchecked Sendable` is safe here (the compiler cannot see it through the C pointer):
    // - `handle` is immutable and libzmq documents contexts as thread-safe: zmq_socket, zmq_ctx_shutdown and
    //   zmq_ctx_term may be called on one context from any number of threads (zmq(7), "Thread safety").
    // - The only mutable state, `state`, lives in a `Mutex`.
    // - The handle is never used after `zmq_ctx_term` frees it: `terminate()` marks the state `.terminated` under the
    //   lock before calling zmq_ctx_term, and every other use of the handle (zmq_socket, zmq_ctx_shutdown) runs under
    //   the same lock after checking that state. `deinit` runs only once no other reference exists.
    private let handle: UnsafeMutableRawPointer
    private let state = Mutex(State.running)

    private enum State {
        case running
        case shutDown
        case terminated
    }

    /// Creates a context (`zmq_ctx_new`).
    ///
    /// - Parameter ioThreads: The number of I/O threads (`ZMQ_IO_THREADS`). Zero is valid for a context that only
    ///   uses the `inproc` transport.
    /// - Throws: ``ZMQError`` if libzmq cannot create the context or refuses the thread count.
    public init(ioThreads: Int = 1) throws(ZMQError) {
        let operation = "zmq_ctx_set(ZMQ_IO_THREADS, \(ioThreads))"
        guard let threads = CInt(exactly: ioThreads), threads >= 0 else {
            throw ZMQError(.invalidArgument, operation: operation)
        }
        let handle = try zmqPointerCall("zmq_ctx_new") { zmq_ctx_new() }
        do {
            try zmqCall(operation) { zmq_ctx_set(handle, ZMQ_IO_THREADS, threads) }
        } catch {
            _ = try? zmqCall("zmq_ctx_term") { zmq_ctx_term(handle) }
            throw error
        }
        self.handle = handle
    }

    deinit {
        // No socket can exist any more (each one holds a strong reference), so zmq_ctx_term cannot wait for one.
        if state.withLock({ $0 }) != .terminated {
            terminateHandle()
        }
    }

    /// Creates a socket of the given type in this context (`zmq_socket`), with a linger of zero.
    ///
    /// The socket is returned `sending`: the caller may hand it over to another task or thread, after which only
    /// that task or thread can use it.
    ///
    /// - Throws: ``ZMQError`` with ``ZMQError/Code/contextTerminated`` after ``shutdown()`` or ``terminate()``,
    ///   ``ZMQError/Code/tooManyOpenFiles`` when libzmq's socket limit is reached.
    public func socket(_ type: SocketType) throws(ZMQError) -> sending Socket {
        let operation = "zmq_socket(\(type))"
        let socketHandle = try state.withLock { state throws(ZMQError) -> UnsafeMutableRawPointer in
            guard state != .terminated else {
                throw ZMQError(.contextTerminated, operation: operation)
            }
            return try zmqPointerCall(operation) { zmq_socket(handle, type.rawValue) }
        }
        let socket = Socket(handle: socketHandle, type: type, context: self)
        try socket.set(.linger, to: .zero)
        return socket
    }

    /// Shuts the context down (`zmq_ctx_shutdown`) without waiting: every blocking operation on its sockets returns
    /// ``ZMQError/Code/contextTerminated`` at once, and so does every later operation on them or on the context.
    ///
    /// The sockets must still be closed (or released) before ``terminate()`` can return. Calling this more than
    /// once, or after ``terminate()``, does nothing.
    public func shutdown() {
        state.withLock { state in
            guard state == .running else {
                return
            }
            state = .shutDown
            // Can only fail with EFAULT (invalid context), impossible while the handle is alive.
            _ = try? zmqCall("zmq_ctx_shutdown") { zmq_ctx_shutdown(handle) }
        }
    }

    /// Terminates the context (`zmq_ctx_term`): shuts it down, then waits until every socket of the context has been
    /// closed and has finished lingering (immediately with the default linger of zero).
    ///
    /// Blocking operations on the context's sockets in other threads fail with
    /// ``ZMQError/Code/contextTerminated``; those sockets must then be closed for this call to return. Close (or
    /// release) this thread's sockets first: a socket still open on the calling thread makes this wait forever.
    /// Calling this more than once does nothing; `EINTR` is retried.
    public func terminate() {
        let wasTerminated = state.withLock { state in
            defer { state = .terminated }
            return state == .terminated
        }
        if !wasTerminated {
            terminateHandle()
        }
    }

    private func terminateHandle() {
        // Can only fail with EFAULT (invalid context), impossible: the handle is terminated exactly once.
        _ = try? zmqCall("zmq_ctx_term") { zmq_ctx_term(handle) }
    }
}
