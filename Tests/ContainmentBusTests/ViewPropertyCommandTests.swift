@testable import ContainmentBus
import ContainmentModel
import Testing

/// The batch's fast path reads a view's frame, alpha and hidden flag straight from a command's bytes
/// (`ViewPropertyCommand`): whatever it reads, SwiftProtobuf reads the same, and the supervisor makes the same request of
/// it or refuses it alike; whatever else, it leaves to SwiftProtobuf.
struct ViewPropertyCommandTests {
    static let frame = Rect(x: 1.5, y: -2, width: 300, height: 0)

    /// Commands of the three kinds as SwiftProtobuf writes them: parties, views (a root, a named view, texts the
    /// model refuses, non-ASCII), values at their defaults (fields left out) and not.
    static let commands: [WireCommand] = {
        var commands: [WireCommand] = []
        let views = ["box", "box/label", "", "a/", "/b", "ü/ß", "a/b/c"]
        let parties: [Party] = [.natural, .system, .controller("box"), .window("main")]
        for (index, view) in views.enumerated() {
            let party = parties[index % parties.count]
            var alpha = WireCommand(Request(.setAlpha(.root("x"), 0.25), by: party))
            alpha.setAlpha.view = view
            var zero = alpha
            zero.setAlpha.alpha = 0
            var frame = WireCommand(Request(.setFrame(.root("x"), Self.frame), by: party))
            frame.setFrame.view = view
            var zeros = frame
            zeros.setFrame.frame = Containment_V1_Rect(.zero)
            var noFrame = frame
            noFrame.setFrame.clearFrame()
            var hidden = WireCommand(Request(.setHidden(.root("x"), true), by: party))
            hidden.setHidden.view = view
            var shown = hidden
            shown.setHidden.hidden = false
            commands += [alpha, zero, frame, zeros, noFrame, hidden, shown]
        }
        var nan = WireCommand(Request(.setAlpha(.root("x"), .nan), by: .natural))
        nan.setAlpha.alpha = -.infinity
        commands.append(nan)
        commands.append(WireCommand(Request(.setAlpha(.root("x"), .nan), by: .natural)))
        return commands
    }()

    /// What `fast` says of `bytes` agrees with SwiftProtobuf: the same message, the same request or the same refusal.
    static func agree(_ fast: ViewPropertyCommand, _ bytes: [UInt8]) throws {
        let slow = try WireCommand(serializedBytes: bytes)
        // By their bytes as SwiftProtobuf writes them: a NaN alpha is not equal to itself, its bits are.
        #expect(fast.wire.bytes == slow.bytes, "\(bytes)")
        #expect(fast.longestText == LongestText.of(slow))
        switch (Result { () throws(ContainmentError) in try fast.request() }, Result { try slow.request() }) {
        case (.success(let a), .success(let b)):
            // A NaN alpha is not equal to itself: compared by its bits.
            #expect(String(describing: a) == String(describing: b), "\(bytes)")
        case (.failure(let a), .failure(let b as ContainmentError)):
            #expect(a.code == b.code && a.message == b.message)
        default:
            Issue.record("one refuses, the other does not: \(bytes)")
        }
    }

    @Test func readsEveryViewPropertyCommandAsSwiftProtobufDoes() throws {
        for command in Self.commands {
            let bytes = command.bytes
            let fast = try #require(ViewPropertyCommand.read(bytes, from: 0, to: bytes.count), "\(command)")
            try Self.agree(fast, bytes)
        }
    }

    @Test func leavesOtherKindsToSwiftProtobuf() {
        let others: [WireCommand] = [
            WireCommand(Request(.create("n", kind: .content, properties: ControllerProperties()), by: .natural)),
            WireCommand(Request(.addSubview(.root("a"), to: .root("b"), at: nil), by: .controller("b"))),
            WireCommand(Request(.destroy("x"), by: .system)),
            WireCommand(),
        ]
        for command in others {
            let bytes = command.bytes
            #expect(ViewPropertyCommand.read(bytes, from: 0, to: bytes.count) == nil, "\(command)")
        }
        // Well-formed, but not as SwiftProtobuf writes it: a field twice, an unknown field, a wrong wire type.
        let alpha = WireCommand(Request(.setAlpha(.root("box"), 0.5), by: .controller("box"))).bytes
        let unusual: [[UInt8]] = [
            alpha + alpha,  // the kind and the party twice (SwiftProtobuf merges them)
            alpha + [0x10, 0x01],  // field 2, unknown
            alpha + [0xBA, 0x01, 0x02, 0x18, 0x01],  // set_alpha again, with an unknown field 3
            [0xBA, 0x01, 0x02, 0x10, 0x01],  // set_alpha's alpha as a varint
        ]
        for bytes in unusual { #expect(ViewPropertyCommand.read(bytes, from: 0, to: bytes.count) == nil, "\(bytes)") }
    }

    /// Every command above with each of its bytes changed to every other value, and cut at every length: wherever the
    /// fast path reads something, SwiftProtobuf reads the same.
    @Test func agreesWithSwiftProtobufOnEveryChangedByte() throws {
        var read = 0
        for command in Self.commands.prefix(21) {
            let bytes = command.bytes
            var variants: [[UInt8]] = (0..<bytes.count).map { Array(bytes.prefix($0)) }
            for position in bytes.indices {
                for value in 0...255 where value != bytes[position] {
                    var changed = bytes
                    changed[position] = UInt8(value)
                    variants.append(changed)
                }
            }
            for variant in variants {
                guard let fast = ViewPropertyCommand.read(variant, from: 0, to: variant.count) else { continue }
                read += 1
                try Self.agree(fast, variant)
            }
        }
        // Most changes of a double's or a text's bytes still read: the comparison is not vacuous.
        #expect(read > 10_000)
    }

    /// A varint longer than it needs to be reads as SwiftProtobuf reads it; one of ten bytes is left to SwiftProtobuf.
    @Test func readsLongVarintsAsSwiftProtobufDoes() throws {
        let long: [UInt8] = [0xC2, 0x01, 0x03, 0x10, 0x81, 0x00]  // set_hidden's flag in two bytes
        try Self.agree(try #require(ViewPropertyCommand.read(long, from: 0, to: long.count)), long)
        let tenBytes: [UInt8] = [0xC2, 0x01, 0x0B, 0x10] + [UInt8](repeating: 0x80, count: 9) + [0x01]
        #expect(ViewPropertyCommand.read(tenBytes, from: 0, to: tenBytes.count) == nil)
    }

    @Test func readsACommandInsideABatchByItsBounds() throws {
        let commands = [Self.commands[0], Self.commands[2], Self.commands[5]]
        let bytes = RequestDecodingTests.batch(3, commands)
        let batch = try #require(ClientMessage.decodeBatch(bytes))
        #expect(batch.commands.allSatisfy { if case .viewProperty = $0 { true } else { false } })
        #expect(batch.commands.map(\.wire) == commands)
    }
}
