@testable import ContainmentBus
import ContainmentModel
import Testing

/// The supervisor reads a batch of commands without SwiftProtobuf's `ClientMessage` (`ClientMessage.decodeBatch`):
/// what it reads is what SwiftProtobuf reads, and what it does not read it leaves to SwiftProtobuf.
struct RequestDecodingTests {
    static let commands: [WireCommand] = [
        WireCommand(Request(.setAlpha(.root("a"), 0.25), by: .natural)),
        WireCommand(
            Request(.setFrame(ViewID(owner: "a", name: "v"), Rect(x: 1, y: 2, width: 3, height: 4)), by: .system)
        ),
        WireCommand(Request(.create("n", kind: .content, properties: ControllerProperties()), by: .natural), host: "h"),
        WireCommand(Request(.addChild("c", to: "p"), by: .controller("p"))),
        WireCommand(Request(.destroy("x"), by: .window("w"))),
        WireCommand(),
    ]

    static func batch(_ id: UInt64, _ commands: [WireCommand]) -> [UInt8] {
        ClientMessage.with {
            $0.requestID = id
            $0.commands = .with { $0.commands = commands }
        }.bytes
    }

    /// Well-formed batches, including some SwiftProtobuf never writes but reads: two batches (merged), the request
    /// id after the body or twice (the last counts), an empty batch.
    static let batches: [[UInt8]] = {
        var batches: [[UInt8]] = []
        for id: UInt64 in [0, 1, 127, 128, 1 << 40] {
            for count in 0...commands.count { batches.append(batch(id, Array(commands.prefix(count)))) }
        }
        let two = batch(0, [commands[0]]) + batch(0, [commands[1], commands[2]])
        batches.append(two)
        batches.append(batch(0, [commands[3]]) + [0x08, 0x05])
        batches.append([0x08, 0x07] + batch(9, [commands[0]]))
        batches.append([0x52, 0x00])
        // Traced: its W3C trace context, before the body or after it.
        let traced = ClientMessage.with {
            $0.requestID = 4
            $0.traceparent = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"
            $0.commands = .with { $0.commands = [commands[0]] }
        }.bytes
        batches.append(traced)
        batches.append(batch(5, [commands[1]]) + ClientMessage.with { $0.traceparent = "00-x" }.bytes)
        return batches
    }()

    @Test func readsWhatSwiftProtobufReads() throws {
        for bytes in Self.batches {
            let message = try ClientMessage.decode(bytes)
            guard case .commands(let batch) = message.body else {
                Issue.record("not a batch: \(bytes)")
                continue
            }
            let fast = try #require(ClientMessage.decodeBatch(bytes), "\(bytes)")
            #expect(fast.requestID == message.requestID)
            #expect(fast.traceparent == message.traceparent)
            #expect(fast.commands.map(\.wire) == batch.commands)
        }
    }

    @Test func leavesTheRestToSwiftProtobuf() {
        var others: [[UInt8]] = [
            [],
            [0x08, 0x01],  // no body
            ClientMessage.with { $0.snapshot = .init() }.bytes,
            ClientMessage.with {
                $0.requestID = 3
                $0.heartbeat = .with { $0.host = "h" }
            }.bytes,
            Self.batch(1, [Self.commands[0]]) + ClientMessage.with { $0.snapshot = .init() }.bytes,  // body replaced
            [0x52, 0x05, 0x0A, 0x03, 0x01],  // a command cut short
            [0x52, 0x03, 0x0A, 0x02, 0xFF, 0xFF],  // a command that does not decode
            [0x52, 0x02, 0x10, 0x01],  // an unknown field in the batch
            [0x08],  // a varint cut short
            [0x52, 0x09, 0x0A],  // a length past the end
            [0x08, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01, 0x52, 0x00],  // a 10-byte request id
            [0x18, 0x01, 0x52, 0x00],  // an unknown field
        ]
        others.append(Self.batch(1, [Self.commands[0]]) + [0x0A])
        for bytes in others { #expect(ClientMessage.decodeBatch(bytes) == nil, "\(bytes)") }
    }

    /// A view is read as `ViewID(parsing:)` reads it (the root view of a name without "/" by a shorter path).
    @Test(arguments: ["a", "a/b", "", "/", "a/", "/b", "a/b/c", "ü", "a/\u{301}b", "/\u{301}", "a\u{301}"])
    func viewsAreReadAsTheModelParsesThem(text: String) {
        var wire = WireCommand(Request(.setAlpha(.root("x"), 0.5), by: .natural))
        wire.setAlpha.view = text
        let request = try? wire.request()
        if let view = ViewID(parsing: text) {
            #expect(request?.command == .setAlpha(view, 0.5))
        } else {
            #expect(request == nil)
        }
    }
}
