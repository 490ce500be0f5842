import Testing
import ZeroMQ

@Suite("Non-blocking receive, timeouts and polling")
struct ReceiveAndPollTests {
    @Test("receive with dontWait on an empty socket returns nil")
    func receiveDontWaitOnEmptySocket() throws {
        let context = try Context()
        let pull = try context.testSocket(.pull)
        try pull.bind("inproc://empty")
        #expect(try pull.receive(dontWait: true) == nil)
    }

    @Test("receive returns nil when the receive timeout elapses")
    func receiveTimeoutElapses() throws {
        let context = try Context()
        let pull = try context.socket(.pull)
        try pull.bind("tcp://127.0.0.1:*")
        try pull.set(.receiveTimeout, to: .milliseconds(100))
        #expect(try pull.receive() == nil)
    }

    @Test("send with dontWait returns false when no peer can take the message")
    func sendDontWaitWithoutPeer() throws {
        let context = try Context()
        let push = try context.socket(.push)
        try push.bind("inproc://nobody")
        #expect(try push.send("lost", dontWait: true) == false)
        try push.set(.sendTimeout, to: .milliseconds(50))
        #expect(try push.send("lost") == false)
    }

    @Test("poll with a timeout returns no sockets when none is ready")
    func pollTimesOut() throws {
        let context = try Context()
        let first = try context.socket(.pull)
        let second = try context.socket(.sub)
        try first.bind("inproc://first")
        try second.bind("inproc://second")
        var poller = Poller()
        poller.register(first)
        poller.register(second, for: [.readable])
        #expect(poller.sockets.count == 2)
        #expect(try poller.poll(timeout: .milliseconds(50)).isEmpty)
        #expect(try poller.poll(timeout: .zero).isEmpty)
    }

    @Test("poll reports a socket readable when a message arrives, and writable when it can send")
    func pollReportsReadiness() throws {
        let context = try Context()
        let push = try context.testSocket(.push)
        let pull = try context.testSocket(.pull)
        let idle = try context.testSocket(.pull)
        try pull.bind("tcp://127.0.0.1:*")
        try idle.bind("inproc://idle")
        try push.connect(pull.lastEndpoint)

        var readPoller = Poller()
        readPoller.register(idle)
        readPoller.register(pull)
        #expect(try pull.events.contains(.readable) == false)
        try push.send(frames("wake", "up"))
        let ready = try readPoller.poll(timeout: safetyTimeout)
        #expect(ready.count == 1)
        #expect(ready.first?.socket === pull)
        #expect(ready.first?.index == 1)
        #expect(ready.first?.events == .readable)
        #expect(try pull.events.contains(.readable))
        #expect(try pull.receive(dontWait: true) == frames("wake", "up"))
        #expect(try readPoller.poll(timeout: .zero).isEmpty)

        var writePoller = Poller()
        writePoller.register(push, for: [.readable, .writable])
        writePoller.register(idle)
        let writable = try writePoller.poll(timeout: safetyTimeout)
        #expect(writable.count == 1)
        #expect(writable.first?.socket === push)
        #expect(writable.first?.events == .writable)

        writePoller.unregister(push)
        #expect(writePoller.sockets.count == 1)
        #expect(try writePoller.poll(timeout: .zero).isEmpty)
    }

    @Test("poll on a closed socket fails with ENOTSOCK; a negative timeout with EINVAL")
    func pollErrors() throws {
        let context = try Context()
        let pull = try context.socket(.pull)
        var poller = Poller()
        poller.register(pull)
        let negative = #expect(throws: ZMQError.self) { try poller.poll(timeout: .milliseconds(-1)) }
        #expect(negative?.code == .invalidArgument)
        pull.close()
        let closed = #expect(throws: ZMQError.self) { try poller.poll(timeout: .zero) }
        #expect(closed?.code == .notSocket)
    }
}
