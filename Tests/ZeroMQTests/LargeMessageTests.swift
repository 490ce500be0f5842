import Testing
import ZeroMQ

@Suite("Large messages")
struct LargeMessageTests {
    @Test("the byte-exact comparison used here detects a single changed byte")
    func comparisonDetectsDifferences() {
        let original = patternBytes(count: (1 << 20) + 5, seed: 7)
        var changed = original
        changed[changed.count - 1] ^= 1
        #expect(sameBytes(original, original))
        #expect(!sameBytes(original, changed))
        #expect(!sameBytes(original, Array(original.dropLast())))
        #expect(original != patternBytes(count: (1 << 20) + 5, seed: 8))
        #expect(!sameFrames([original], [original, []]))
    }

    @Test("a 64 MiB single frame round-trips byte-exact", arguments: [Transport.tcp, .ipc])
    func singleLargeFrame(transport: Transport) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let context = try Context()
        let push = try context.testSocket(.push)
        let pull = try context.testSocket(.pull)
        try link(pull, to: push, over: transport, in: directory)

        let frame = patternBytes(count: 64 << 20, seed: 0x5EED)
        try push.send(frame)
        let received = try #require(try pull.receive())
        #expect(received.count == 1)
        #expect(received.first?.count == 64 << 20)
        #expect(sameFrames(received, [frame]))
    }

    @Test("a multipart message of several MiB frames round-trips byte-exact", arguments: [Transport.tcp, .ipc])
    func multipartLargeFrames(transport: Transport) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let context = try Context()
        let left = try context.testSocket(.pair)
        let right = try context.testSocket(.pair)
        try link(left, to: right, over: transport, in: directory)

        let sizes = [3 << 20, 0, 5 << 20, (1 << 20) + 3, 1, 2 << 20]
        let message = sizes.enumerated().map { patternBytes(count: $1, seed: UInt64($0 + 1)) }
        try left.send(message)
        try right.send(message.reversed())
        let atRight = try right.receive()
        let atLeft = try left.receive()
        #expect(atRight?.map(\.count) == sizes)
        #expect(sameFrames(atRight, message))
        #expect(sameFrames(atLeft, message.reversed()))
    }
}
