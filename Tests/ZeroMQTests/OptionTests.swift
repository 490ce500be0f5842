import Testing
import ZeroMQ

@Suite("Socket options")
struct OptionTests {
    @Test("ZMTP heartbeat options can be set and read back")
    func heartbeats() throws {
        let context = try Context()
        let socket = try context.socket(.dealer)
        #expect(try socket.get(.heartbeatInterval) == .zero)
        #expect(try socket.get(.heartbeatTimeout) == nil)
        #expect(try socket.get(.heartbeatTTL) == .zero)

        try socket.set(.heartbeatInterval, to: .milliseconds(1500))
        try socket.set(.heartbeatTimeout, to: .seconds(3))
        try socket.set(.heartbeatTTL, to: .seconds(5))
        #expect(try socket.get(.heartbeatInterval) == .milliseconds(1500))
        #expect(try socket.get(.heartbeatTimeout) == .seconds(3))
        #expect(try socket.get(.heartbeatTTL) == .seconds(5))

        // libzmq cannot reset the timeout to its default.
        let reset = #expect(throws: ZMQError.self) { try socket.set(.heartbeatTimeout, to: nil) }
        #expect(reset?.code == .invalidArgument)
        #expect(try socket.get(.heartbeatTimeout) == .seconds(3))
    }

    @Test("heartbeating peers keep exchanging messages")
    func heartbeatingConnection() throws {
        let context = try Context()
        let server = try context.testSocket(.router)
        let client = try context.testSocket(.dealer)
        for socket in [server, client] {
            try socket.set(.heartbeatInterval, to: .milliseconds(20))
            try socket.set(.heartbeatTimeout, to: .milliseconds(500))
            try socket.set(.heartbeatTTL, to: .seconds(1))
        }
        try client.set(.routingID, to: Array("client".utf8))
        try server.bind("tcp://127.0.0.1:*")
        try client.connect(server.lastEndpoint)
        try client.send("ping")
        #expect(try server.receive() == frames("client", "ping"))
        try server.send(frames("client", "pong"))
        #expect(try client.receive() == frames("pong"))
    }

    @Test("linger, high-water marks, timeouts, sizes and flags can be set and read back")
    func roundTrips() throws {
        let context = try Context()
        let socket = try context.socket(.dealer)

        #expect(try socket.get(.linger) == .zero)
        try socket.set(.linger, to: nil)
        #expect(try socket.get(.linger) == nil)
        try socket.set(.linger, to: .milliseconds(250))
        #expect(try socket.get(.linger) == .milliseconds(250))

        #expect(try socket.get(.sendHighWaterMark) == 1000)
        try socket.set(.sendHighWaterMark, to: 5)
        try socket.set(.receiveHighWaterMark, to: 0)
        #expect(try socket.get(.sendHighWaterMark) == 5)
        #expect(try socket.get(.receiveHighWaterMark) == 0)

        #expect(try socket.get(.receiveTimeout) == nil)
        try socket.set(.receiveTimeout, to: .microseconds(1500))
        try socket.set(.sendTimeout, to: .seconds(2))
        #expect(try socket.get(.receiveTimeout) == .milliseconds(2))
        #expect(try socket.get(.sendTimeout) == .seconds(2))

        #expect(try socket.get(.maxMessageSize) == nil)
        try socket.set(.maxMessageSize, to: 1 << 20)
        #expect(try socket.get(.maxMessageSize) == 1 << 20)
        try socket.set(.maxMessageSize, to: nil)
        #expect(try socket.get(.maxMessageSize) == nil)

        #expect(try socket.get(.routingID) == [])
        try socket.set(.routingID, to: [1, 2, 3])
        #expect(try socket.get(.routingID) == [1, 2, 3])

        #expect(try socket.get(.zapDomain) == "")
        try socket.set(.zapDomain, to: "events")
        #expect(try socket.get(.zapDomain) == "events")

        for flag in [SocketOption<Bool>.immediate, .ipv6] {
            #expect(try socket.get(flag) == false)
            try socket.set(flag, to: true)
            #expect(try socket.get(flag))
        }
    }

    @Test("write-only options can be set on the socket types they belong to")
    func writeOnlyOptions() throws {
        let context = try Context()
        let router = try context.socket(.router)
        let xpub = try context.socket(.xpub)
        try router.set(.routerMandatory, to: true)
        try xpub.set(.xpubVerbose, to: true)
        try xpub.set(.xpubVerbose, to: false)
    }

    @Test("library version and capabilities")
    func library() {
        // Module-qualified names are read into locals first: `#expect` cannot expand `ZeroMQ.x` (a module member).
        let version = ZeroMQ.version
        let ipc = ZeroMQ.hasCapability("ipc")
        let unknown = ZeroMQ.hasCapability("no-such-capability")
        let curve = ZeroMQ.hasCurve
        let curveCapability = ZeroMQ.hasCapability("curve")
        #expect(version >= LibraryVersion(major: 4, minor: 3, patch: 0))
        #expect(version.major == 4)
        #expect(version.description == "\(version.major).\(version.minor).\(version.patch)")
        #expect(ipc)
        #expect(!unknown)
        #expect(curve == curveCapability)
    }
}
