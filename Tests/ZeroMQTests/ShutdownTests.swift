import Testing
import ZeroMQ

@Suite("Clean shutdown and concurrency")
struct ShutdownTests {
    @Test("closing sockets with unsent messages to an absent peer, then terminating the context, returns")
    func pendingMessagesDoNotBlockTermination() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let context = try Context()
        let endpoints = ["tcp://127.0.0.1:1", "ipc://\(directory.path)/absent.sock"]
        var sockets: [Socket] = []
        for endpoint in endpoints {
            for type in [SocketType.push, .dealer, .pair] {
                let socket = try context.socket(type)
                try socket.connect(endpoint)
                // Connecting creates the queue at once, so these are queued, waiting for a peer that never comes.
                for number in 0..<10 {
                    #expect(try socket.send(frames("pending", "\(number)"), dontWait: true))
                }
                sockets.append(socket)
            }
        }
        for socket in sockets {
            socket.close()
        }
        context.terminate()
        context.terminate()
    }

    @Test("a context is terminated when it and its sockets are released, without an explicit close")
    func releaseWithoutClose() throws {
        for _ in 0..<3 {
            let context = try Context(ioThreads: 2)
            let push = try context.socket(.push)
            try push.connect("tcp://127.0.0.1:1")
            #expect(try push.send("pending", dontWait: true))
            let pull = try context.socket(.pull)
            try pull.bind("inproc://released")
        }
    }

    @Test("shutdown wakes a receive blocked in another task with ETERM")
    func shutdownWakesBlockedReceive() async throws {
        let context = try Context()
        let receiver = Task.detached { () -> ZMQError.Code? in
            do throws(ZMQError) {
                let socket = try context.socket(.pull)
                try socket.bind("inproc://blocked")
                _ = try socket.receive()
                return nil
            } catch {
                return error.code
            }
        }
        // Time under test: the receive blocked before the shutdown comes (had it not yet begun, it would get ETERM
        // all the same, from the socket's creation or the receive).
        try await Task.sleep(for: .milliseconds(20))
        context.shutdown()
        #expect(await receiver.value == .contextTerminated)
        context.terminate()
    }

    @Test("one context is shared by concurrent tasks, each with its own sockets")
    func sharedContext() async throws {
        let context = try Context()
        let received = try await withThrowingTaskGroup(of: [[UInt8]]?.self) { group in
            for task in 0..<8 {
                group.addTask {
                    let push = try context.testSocket(.push)
                    let pull = try context.testSocket(.pull)
                    try pull.bind("inproc://task-\(task)")
                    try push.connect("inproc://task-\(task)")
                    try push.send(frames("task", "\(task)"))
                    return try pull.receive()
                }
            }
            var all: [[[UInt8]]?] = []
            for try await message in group {
                all.append(message)
            }
            return all
        }
        #expect(Set(received.compactMap(\.self)) == Set((0..<8).map { frames("task", "\($0)") }))
        #expect(received.count == 8)
    }

    @Test("a socket can be transferred to another task, which then owns it")
    func transferToAnotherTask() async throws {
        let context = try Context()
        let pull = try context.testSocket(.pull)
        try pull.bind("inproc://transfer")
        let push = try context.testSocket(.push)
        try push.connect("inproc://transfer")
        try push.send("hello")
        // `pull` is sent to the task: using it here afterwards would not compile.
        let received = try await Task.detached { try pull.receive() }.value
        #expect(received == frames("hello"))
    }

    @Test("a context with zero I/O threads serves inproc sockets")
    func inprocOnlyContext() throws {
        let context = try Context(ioThreads: 0)
        let left = try context.testSocket(.pair)
        let right = try context.testSocket(.pair)
        try left.bind("inproc://no-io-threads")
        try right.connect("inproc://no-io-threads")
        try left.send("hi")
        #expect(try right.receive() == frames("hi"))
        let error = #expect(throws: ZMQError.self) { try Context(ioThreads: -1) }
        #expect(error?.code == .invalidArgument)
    }
}
