internal import CZeroMQ

/// Gives the heap memory freed so far back to the system (glibc's `malloc_trim(0)`: the free pages of every arena,
/// the I/O thread's too). glibc keeps freed pages for reuse, so the queue libzmq freed when a slow peer's connection
/// ended would otherwise stay in the process's size for good. Returns whether any memory was released.
@discardableResult
public func releaseFreeMemory() -> Bool {
    malloc_trim(0) == 1
}
