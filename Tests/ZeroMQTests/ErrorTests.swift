import Testing
import ZeroMQ

@Suite("Typed errors")
struct ErrorTests {
    @Test("binding to an endpoint with an unknown transport fails with EPROTONOSUPPORT")
    func unknownTransport() throws {
        let context = try Context()
        let socket = try context.socket(.pull)
        let error = #expect(throws: ZMQError.self) { try socket.bind("bogus://nowhere") }
        #expect(error?.code == .protocolNotSupported)
        #expect(error?.code.name == "EPROTONOSUPPORT")
        #expect(error?.operation == "zmq_bind(bogus://nowhere)")
        #expect(error?.description.hasPrefix("zmq_bind(bogus://nowhere) failed: ") == true)
    }

    @Test(
        "binding to a malformed endpoint fails with EINVAL",
        arguments: ["tcp://127.0.0.1", "no-transport", "tcp://"]
    )
    func malformedEndpoint(endpoint: String) throws {
        let context = try Context()
        let socket = try context.socket(.pull)
        let error = #expect(throws: ZMQError.self) { try socket.bind(endpoint) }
        #expect(error?.code == .invalidArgument)
    }

    @Test("binding twice to the same address fails with EADDRINUSE", arguments: [Transport.tcp, .inproc])
    func addressInUse(transport: Transport) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let context = try Context()
        let first = try context.socket(.pull)
        let second = try context.socket(.pull)
        try first.bind(transport.endpoint(in: directory))
        let endpoint = try first.lastEndpoint
        let error = #expect(throws: ZMQError.self) { try second.bind(endpoint) }
        #expect(error?.code == .addressInUse)
        #expect(error?.message.isEmpty == false)
        // `first` must still hold the address: keep it open until here.
        #expect(!first.isClosed)
    }

    @Test("operations on a shut down context fail with ETERM")
    func shutDownContext() throws {
        let context = try Context()
        let socket = try context.socket(.pull)
        try socket.bind("inproc://terminated")
        context.shutdown()
        let receiveError = #expect(throws: ZMQError.self) { try socket.receive() }
        #expect(receiveError?.code == .contextTerminated)
        let sendError = #expect(throws: ZMQError.self) { try socket.send("late") }
        #expect(sendError?.code == .contextTerminated)
        let socketError = #expect(throws: ZMQError.self) { try context.socket(.push) }
        #expect(socketError?.code == .contextTerminated)
        socket.close()
        context.terminate()
    }

    @Test("creating a socket in a terminated context fails with ETERM")
    func terminatedContext() throws {
        let context = try Context()
        context.terminate()
        let error = #expect(throws: ZMQError.self) { try context.socket(.pair) }
        #expect(error?.code == .contextTerminated)
        #expect(error?.code.name == "ETERM")
    }

    @Test("operations on a closed socket fail with ENOTSOCK")
    func closedSocket() throws {
        let context = try Context()
        let socket = try context.socket(.pair)
        #expect(!socket.isClosed)
        socket.close()
        socket.close()
        #expect(socket.isClosed)
        let error = #expect(throws: ZMQError.self) { try socket.send("closed") }
        #expect(error?.code == .notSocket)
        let optionError = #expect(throws: ZMQError.self) { try socket.get(.linger) }
        #expect(optionError?.code == .notSocket)
    }

    @Test("invalid option values and empty messages fail with EINVAL before reaching libzmq")
    func invalidValues() throws {
        let context = try Context()
        let socket = try context.socket(.dealer)
        let negative = #expect(throws: ZMQError.self) { try socket.set(.linger, to: .seconds(-1)) }
        #expect(negative?.code == .invalidArgument)
        let tooLong = #expect(throws: ZMQError.self) {
            try socket.set(.routingID, to: [UInt8](repeating: 1, count: 256))
        }
        #expect(tooLong?.code == .invalidArgument)
        let noFrames = #expect(throws: ZMQError.self) { try socket.send([[UInt8]]()) }
        #expect(noFrames?.code == .invalidArgument)
        let hugeTimeout = #expect(throws: ZMQError.self) { try socket.set(.receiveTimeout, to: .seconds(1 << 40)) }
        #expect(hugeTimeout?.code == .invalidArgument)
    }

    @Test("codes have stable values, names and descriptions")
    func codes() {
        #expect(ZMQError.Code.again.name == "EAGAIN")
        #expect(ZMQError.Code.addressInUse.description == "EADDRINUSE")
        #expect(ZMQError.Code(rawValue: 123_456).name == nil)
        #expect(ZMQError.Code(rawValue: 123_456).description == "errno 123456")
        #expect(ZMQError.Code.invalidState.rawValue == 156_384_712 + 51)
        #expect(ZMQError.Code.contextTerminated.rawValue == 156_384_712 + 53)
        let error = ZMQError(.again, operation: "test")
        #expect(error == ZMQError(.again, operation: "test"))
        #expect(error != ZMQError(.again, operation: "other"))
        #expect(error.description == "test failed: \(error.message) (EAGAIN)")
    }
}
