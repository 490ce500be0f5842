import Foundation
import Testing
import ZeroMQ

/// The receive and send timeout of every test socket made by `testSocket(_:)`, so that a broken test fails
/// instead of hanging. Never reached by a passing test.
let safetyTimeout: Duration = .seconds(10)

extension Context {
    /// A socket whose blocking sends and receives give up after `safetyTimeout`.
    func testSocket(_ type: SocketType) throws(ZMQError) -> Socket {
        let socket = try socket(type)
        try socket.set(.receiveTimeout, to: safetyTimeout)
        try socket.set(.sendTimeout, to: safetyTimeout)
        return socket
    }
}

/// The transports the tests run on.
enum Transport: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case inproc
    case ipc
    case tcp

    var testDescription: String { rawValue }

    /// A fresh endpoint to bind: a unique inproc name, a socket file in `directory`, or a wildcard TCP port.
    func endpoint(in directory: TemporaryDirectory) -> String {
        switch self {
        case .inproc: "inproc://test-\(UUID().uuidString)"
        case .ipc: "ipc://\(directory.path)/\(UUID().uuidString.prefix(8)).sock"
        case .tcp: "tcp://127.0.0.1:*"
        }
    }
}

/// A fresh directory under the system's temporary directory. Tests remove it with `defer { directory.remove() }`,
/// which also keeps it alive until the end of the test (an ipc peer may connect to a path in it at any time).
final class TemporaryDirectory {
    let path: String

    init() throws {
        path = NSTemporaryDirectory() + "zmq-tests-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit {
        remove()
    }

    /// Removes the directory and everything in it; does nothing the second time.
    func remove() {
        try? FileManager.default.removeItem(atPath: path)
    }
}

/// Binds `binder` to a fresh endpoint of `transport` and connects `connector` to the endpoint actually bound.
///
/// - Returns: The resolved endpoint (`lastEndpoint` of the binder).
@discardableResult
func link(
    _ binder: Socket,
    to connector: Socket,
    over transport: Transport,
    in directory: TemporaryDirectory
) throws -> String {
    try binder.bind(transport.endpoint(in: directory))
    let endpoint = try binder.lastEndpoint
    try connector.connect(endpoint)
    return endpoint
}

/// The frames of a message made of UTF-8 strings.
func frames(_ strings: String...) -> [[UInt8]] {
    strings.map { Array($0.utf8) }
}

/// `count` pseudo-random bytes (xorshift64 from `seed`), written eight at a time so that building tens of MiB in a
/// debug build stays fast.
func patternBytes(count: Int, seed: UInt64) -> [UInt8] {
    [UInt8](unsafeUninitializedCapacity: count) { buffer, initializedCount in
        let raw = UnsafeMutableRawBufferPointer(buffer)
        var state = seed | 1
        var offset = 0
        while offset < count {
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            if offset + 8 <= count {
                raw.storeBytes(of: state, toByteOffset: offset, as: UInt64.self)
                offset += 8
            } else {
                raw[offset] = UInt8(truncatingIfNeeded: state)
                offset += 1
            }
        }
        initializedCount = count
    }
}

/// Byte-exact comparison with `memcmp` (an element-wise `==` on 64 MiB is slow in debug builds, and `#expect` on
/// the arrays themselves would print them on failure).
func sameBytes(_ lhs: [UInt8], _ rhs: [UInt8]) -> Bool {
    guard lhs.count == rhs.count else {
        return false
    }
    guard !lhs.isEmpty else {
        return true
    }
    return lhs.withUnsafeBytes { left in
        rhs.withUnsafeBytes { right in
            guard let leftBase = left.baseAddress, let rightBase = right.baseAddress else {
                return false
            }
            return memcmp(leftBase, rightBase, left.count) == 0
        }
    }
}

/// Byte-exact comparison of multipart messages.
func sameFrames(_ lhs: [[UInt8]]?, _ rhs: [[UInt8]]) -> Bool {
    guard let lhs, lhs.count == rhs.count else {
        return false
    }
    return zip(lhs, rhs).allSatisfy { sameBytes($0, $1) }
}

/// Sends `probe` from `sender` until one arrives at `receiver`: subscriptions reach a publisher asynchronously, and
/// a publisher drops what it sends before that.
func sendUntilReceived(_ probe: [[UInt8]], from sender: Socket, to receiver: Socket) throws {
    var poller = Poller()
    poller.register(receiver)
    for _ in 0..<1000 {
        try sender.send(probe, dontWait: true)
        if try !poller.poll(timeout: .milliseconds(10)).isEmpty {
            #expect(try receiver.receive(dontWait: true) == probe)
            return
        }
    }
    Issue.record("no probe arrived")
}
