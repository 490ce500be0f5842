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

    @Test("a message of two frames sent without an array arrives as the same two frames", arguments: Transport.allCases)
    func twoFrames(transport: Transport) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let context = try Context()
        let router = try context.testSocket(.router)
        let dealer = try context.testSocket(.dealer)
        _ = try link(router, to: dealer, over: transport, in: directory)
        try dealer.send(Array("hello".utf8))
        let (peer, body) = try #require(try router.receive().map { ($0[0], $0[1]) })
        #expect(body == Array("hello".utf8))
        // A ROUTER's peer and body, as the supervisor answers; an empty last frame too.
        #expect(try router.send(peer, Array("answer".utf8), dontWait: true))
        #expect(try router.send(peer, []))
        #expect(try dealer.receive() == frames("answer"))
        #expect(try dealer.receive() == [[]])
        // Both frames reach the pair's other end as one message.
        let other = try TemporaryDirectory()
        defer { other.remove() }
        let (left, right) = (try context.testSocket(.pair), try context.testSocket(.pair))
        _ = try link(left, to: right, over: transport, in: other)
        try left.send([], [0, 255])
        #expect(try right.receive() == [[], [0, 255]])
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
