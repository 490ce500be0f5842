import Testing
import ZeroMQ

@Suite("Socket patterns")
struct SocketPatternTests {
    @Test("every socket type can be created, with a linger of zero", arguments: SocketType.allCases)
    func createsEverySocketType(type: SocketType) throws {
        let context = try Context()
        let socket = try context.socket(type)
        #expect(socket.type == type)
        #expect(try socket.get(.linger) == .zero)
        #expect(SocketType.allCases.count == 11)
    }

    @Test("PUB/SUB delivers matching topics and filters the others out")
    func publishSubscribe() throws {
        let context = try Context()
        let publisher = try context.testSocket(.pub)
        let subscriber = try context.testSocket(.sub)
        try publisher.bind("inproc://pubsub")
        try subscriber.connect("inproc://pubsub")
        try subscriber.subscribe("weather")

        let probe = frames("weather", "probe")
        try sendUntilReceived(probe, from: publisher, to: subscriber)
        try publisher.send(frames("sports", "goal"))
        try publisher.send(frames("weatherman", "retires"))
        try publisher.send(frames("weather", "sunny"))

        // Probes sent before the first one arrived may still be queued; everything else arrives in order, so a
        // "sports" message that was not filtered out would show up before "sunny".
        var received: [[[UInt8]]] = []
        while let message = try subscriber.receive(), message != frames("weather", "sunny") {
            if message != probe {
                received.append(message)
            }
        }
        #expect(received == [frames("weatherman", "retires")])
        #expect(try subscriber.receive(dontWait: true) == nil)
    }

    @Test("SUB stops receiving a topic after unsubscribing")
    func unsubscribe() throws {
        let context = try Context()
        let publisher = try context.testSocket(.pub)
        let subscriber = try context.testSocket(.sub)
        try publisher.bind("inproc://unsubscribe")
        try subscriber.connect("inproc://unsubscribe")
        try subscriber.subscribe(Array("a".utf8))
        try subscriber.subscribe("b")
        try sendUntilReceived(frames("b", "probe"), from: publisher, to: subscriber)

        try subscriber.unsubscribe("a")
        // The unsubscription travels like a subscription: wait until "a" stops arriving while "b" still does.
        var stillSubscribed = true
        for _ in 0..<1000 where stillSubscribed {
            try publisher.send(frames("a", "x"))
            try publisher.send(frames("b", "marker"))
            var sawA = false
            while let message = try subscriber.receive(), message != frames("b", "marker") {
                sawA = sawA || message.first == Array("a".utf8)
            }
            stillSubscribed = sawA
        }
        #expect(!stillSubscribed)
    }

    @Test("XPUB/XSUB: the subscription message is visible on XPUB and filters its messages")
    func extendedPublishSubscribe() throws {
        let context = try Context()
        let publisher = try context.testSocket(.xpub)
        let subscriber = try context.testSocket(.xsub)
        try publisher.set(.xpubVerbose, to: true)
        try publisher.bind("inproc://xpubsub")
        try subscriber.connect("inproc://xpubsub")

        try subscriber.send([[1] + Array("news".utf8)])
        #expect(try publisher.receive() == [[1] + Array("news".utf8)])

        try publisher.send(frames("sports", "goal"))
        try publisher.send(frames("news", "hello"))
        #expect(try subscriber.receive() == frames("news", "hello"))

        try subscriber.send([[0] + Array("news".utf8)])
        #expect(try publisher.receive() == [[0] + Array("news".utf8)])
        #expect(try subscriber.receive(dontWait: true) == nil)
    }

    @Test("DEALER/ROUTER: ROUTER prepends the routing id and routes replies to the right dealer")
    func dealerRouter() throws {
        let context = try Context()
        let router = try context.testSocket(.router)
        let dealerA = try context.testSocket(.dealer)
        let dealerB = try context.testSocket(.dealer)
        try dealerA.set(.routingID, to: Array("A".utf8))
        try dealerB.set(.routingID, to: Array("B".utf8))
        try router.bind("inproc://router")
        try dealerA.connect("inproc://router")
        try dealerB.connect("inproc://router")

        try dealerA.send("from A")
        try dealerB.send(frames("from B", ""))
        var received: [[[UInt8]]] = []
        for _ in 0..<2 {
            received.append(try #require(try router.receive()))
        }
        #expect(Set(received) == [frames("A", "from A"), frames("B", "from B", "")])

        try router.send(frames("B", "to B"))
        try router.send(frames("A", "to A"))
        // A's first message is its own reply: B's reply was not routed to it.
        #expect(try dealerB.receive() == frames("to B"))
        #expect(try dealerA.receive() == frames("to A"))
        #expect(try dealerA.receive(dontWait: true) == nil)
        #expect(try dealerB.receive(dontWait: true) == nil)
    }

    @Test("ROUTER with routerMandatory fails with EHOSTUNREACH for an unknown peer")
    func routerMandatory() throws {
        let context = try Context()
        let router = try context.testSocket(.router)
        try router.set(.routerMandatory, to: true)
        try router.bind("inproc://mandatory")
        let error = #expect(throws: ZMQError.self) { try router.send(frames("nobody", "hello")) }
        #expect(error?.code == .hostUnreachable)
    }

    @Test("PUSH/PULL delivers every message in order")
    func pushPull() throws {
        let context = try Context()
        let push = try context.testSocket(.push)
        let pull = try context.testSocket(.pull)
        try push.bind("inproc://pipeline")
        try pull.connect("inproc://pipeline")
        for number in 0..<100 {
            try push.send("\(number)")
        }
        for number in 0..<100 {
            #expect(try pull.receive() == frames("\(number)"))
        }
        #expect(try pull.receive(dontWait: true) == nil)
    }

    @Test("REQ/REP round trip; REQ sending twice is EFSM, and so is REP replying before a request")
    func requestReply() throws {
        let context = try Context()
        let request = try context.testSocket(.req)
        let reply = try context.testSocket(.rep)
        try reply.bind("inproc://reqrep")
        try request.connect("inproc://reqrep")

        let early = #expect(throws: ZMQError.self) { try reply.send("too early") }
        #expect(early?.code == .invalidState)

        try request.send(frames("ping", "", "two"))
        #expect(try reply.receive() == frames("ping", "", "two"))
        try reply.send("pong")
        #expect(try request.receive() == frames("pong"))

        try request.send("first")
        let error = #expect(throws: ZMQError.self) { try request.send("second") }
        #expect(error?.code == .invalidState)
        #expect(error?.code.name == "EFSM")
        #expect(try reply.receive() == frames("first"))
    }

    @Test("PAIR is bidirectional")
    func pair() throws {
        let context = try Context()
        let left = try context.testSocket(.pair)
        let right = try context.testSocket(.pair)
        try left.bind("inproc://pair")
        try right.connect("inproc://pair")
        try left.send("left to right")
        try right.send("right to left")
        #expect(try right.receive() == frames("left to right"))
        #expect(try left.receive() == frames("right to left"))
    }

    @Test("send and receive fail with ENOTSUP on socket types that cannot do them")
    func unsupportedDirections() throws {
        let context = try Context()
        let subscriber = try context.testSocket(.sub)
        let publisher = try context.testSocket(.pub)
        let sendError = #expect(throws: ZMQError.self) { try subscriber.send("nope") }
        #expect(sendError?.code == .notSupported)
        let receiveError = #expect(throws: ZMQError.self) { try publisher.receive(dontWait: true) }
        #expect(receiveError?.code == .notSupported)
    }
}
