import Testing
import ZeroMQ

@Suite("Transports and multipart messages")
struct TransportTests {
    @Test("multipart messages with empty frames are preserved", arguments: Transport.allCases)
    func multipartWithEmptyFrames(transport: Transport) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let context = try Context()
        let left = try context.testSocket(.pair)
        let right = try context.testSocket(.pair)
        try link(left, to: right, over: transport, in: directory)

        let message: [[UInt8]] = [[], Array("a".utf8), [], [0, 1, 2, 255], []]
        try left.send(message)
        try left.send([[]])
        try left.send("last")
        #expect(try right.receive() == message)
        #expect(try right.receive() == [[]])
        #expect(try right.receive() == frames("last"))

        try right.send(frames("", "reply"))
        #expect(try left.receive() == frames("", "reply"))
    }

    @Test("lastEndpoint resolves the endpoint that was bound", arguments: Transport.allCases)
    func lastEndpoint(transport: Transport) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let context = try Context()
        let push = try context.testSocket(.push)
        let pull = try context.testSocket(.pull)
        #expect(try push.lastEndpoint == "")
        let requested = transport.endpoint(in: directory)
        try push.bind(requested)
        let endpoint = try push.lastEndpoint
        try pull.connect(endpoint)
        switch transport {
        case .tcp:
            #expect(requested == "tcp://127.0.0.1:*")
            #expect(endpoint.hasPrefix("tcp://127.0.0.1:"))
            let port = try #require(Int(endpoint.dropFirst("tcp://127.0.0.1:".count)))
            #expect((1...65535).contains(port))
        case .ipc, .inproc:
            #expect(endpoint == requested)
        }
        try push.send("over \(transport)")
        #expect(try pull.receive() == frames("over \(transport)"))
    }

    @Test("unbind and disconnect stop the traffic on an endpoint", arguments: [Transport.tcp, .ipc])
    func unbindAndDisconnect(transport: Transport) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let context = try Context()
        let push = try context.testSocket(.push)
        let pull = try context.testSocket(.pull)
        let endpoint = try link(pull, to: push, over: transport, in: directory)
        try push.send("before")
        #expect(try pull.receive() == frames("before"))
        try push.disconnect(endpoint)
        try pull.unbind(endpoint)
        // Without a peer a PUSH socket cannot queue anything.
        #expect(try push.send("after", dontWait: true) == false)
    }
}
