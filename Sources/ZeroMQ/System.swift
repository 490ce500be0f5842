internal import CZeroMQ

// Every libzmq call that can fail goes through one of the entry points below, which share one retry loop:
// the errno is read with `zmq_errno()` straight after the call (nothing can run in between that could change it),
// `EINTR` (a signal arrived while libzmq was blocked) is retried, and every other failure becomes a `ZMQError`
// naming the operation (but `EAGAIN` where it is an answer, ``zmqCallUnlessAgain(_:_:)``). Modelled on `syscall(blocking:where:_:)` in swift-nio's `Sources/NIOPosix/System.swift`.

/// Calls a libzmq function that reports failure by returning -1 and setting `zmq_errno()`.
///
/// - Parameters:
///   - operation: What was attempted, for the error (e.g. `"zmq_bind(tcp://127.0.0.1:*)"`); only evaluated on failure.
///   - body: The libzmq call. It is called again when it fails with `EINTR`, so it must be safe to repeat.
/// - Returns: The non-negative result of `body`.
/// - Throws: ``ZMQError`` for every failure except `EINTR`.
@inline(__always)
@discardableResult
func zmqCall(_ operation: @autoclosure () -> String, _ body: () -> CInt) throws(ZMQError) -> CInt {
    try retryingInterruptedCalls(operation) {
        let result = body()
        return result == -1 ? nil : result
    }
}

/// ``zmqCall(_:_:)`` for a call whose `EAGAIN` is an answer rather than a failure (a non-blocking receive with nothing
/// waiting, a send to a full pipe): `nil` then, without the error being made. Its text (`zmq_strerror`, the operation's
/// description) cost ~1,300 instructions, and the loops meet `EAGAIN` several times a turn (scripts/callgrind-loop.sh).
@inline(__always)
func zmqCallUnlessAgain(_ operation: @autoclosure () -> String, _ body: () -> CInt) throws(ZMQError) -> CInt? {
    let call = { () -> CInt?? in
        let result = body()
        return result == -1 ? nil : .some(result)
    }
    return try retryingInterruptedCalls(operation, again: { nil }, call)
}

/// Calls a libzmq function that reports failure by returning `NULL` and setting `zmq_errno()`.
///
/// - Parameters:
///   - operation: What was attempted, for the error; only evaluated on failure.
///   - body: The libzmq call. It is called again when it fails with `EINTR`, so it must be safe to repeat.
/// - Returns: The non-`NULL` result of `body`.
/// - Throws: ``ZMQError`` for every failure except `EINTR`.
@inline(__always)
func zmqPointerCall<Pointer>(
    _ operation: @autoclosure () -> String,
    _ body: () -> Pointer?
) throws(ZMQError) -> Pointer {
    try retryingInterruptedCalls(operation, body)
}

/// The one retry loop behind ``zmqCall(_:_:)``, ``zmqCallUnlessAgain(_:_:)`` and ``zmqPointerCall(_:_:)``: `body`
/// returns `nil` on failure, and `zmq_errno()` is read before anything else runs; `again`, when given, is what an
/// `EAGAIN` returns instead of an error.
@inline(__always)
private func retryingInterruptedCalls<Result>(
    _ operation: () -> String,
    again: (() -> Result)? = nil,
    _ body: () -> Result?
) throws(ZMQError) -> Result {
    while true {
        if let result = body() {
            return result
        }
        let code = zmq_errno()
        if code == EINTR {
            continue
        }
        if code == EAGAIN, let again {
            return again()
        }
        throw ZMQError(ZMQError.Code(rawValue: code), operation: operation())
    }
}
