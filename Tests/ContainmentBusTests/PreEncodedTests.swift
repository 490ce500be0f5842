import ContainmentBus
import ContainmentModel
import Testing

/// The supervisor's hand-assembled replies and deliveries are exactly SwiftProtobuf's encoding.
struct PreEncodedTests {
    static let events: [WireEvent] = [
        WireEvent(.loadView("a"), seq: 1, timeUnixNanos: 1_700_000_000_000_000_000, commandID: 7),
        WireEvent(
            .frameChanged(view: .root("a"), frame: Rect(x: 0, y: 0, width: 320, height: 480), by: .controller("p")),
            seq: 300,
            timeUnixNanos: 1_700_000_000_000_000_000,
            commandID: 7
        ),
        WireEvent(
            .viewWillAppear("a", AppearanceFlags(animated: true)),
            seq: 1 << 40,
            timeUnixNanos: -1,
            commandID: 1 << 35
        ),
        WireEvent(.controllerCreated("n1", kind: .content), seq: 2, timeUnixNanos: 5, commandID: 0, host: "h0"),
    ]

    @Test(arguments: [0, 1, 4], [UInt64(0), 1, 127, 128, 1 << 33])
    func acceptedIsSwiftProtobufs(count: Int, id: UInt64) {
        let events = Array(Self.events.prefix(count))
        let expected = ServerMessage.with {
            $0.requestID = id
            $0.accepted = .with {
                $0.commandID = id &* 3
                $0.events = events
            }
        }.bytes
        #expect(
            PreEncoded.accepted(requestID: id, commandID: id &* 3, events: events.map { $0.bytes[...] }) == expected
        )
    }

    /// A typed call's result (empty, short, longer than a one-byte length), and a resend's answer kept without its
    /// events: the body's length is counted before it is written.
    @Test(arguments: ["", "42", String(repeating: "r", count: 200)])
    func anAcceptedResultOrElisionIsSwiftProtobufs(result: String) {
        let events = Array(Self.events.prefix(2))
        let withResult = ServerMessage.with {
            $0.requestID = 9
            $0.accepted = .with {
                $0.commandID = 300
                $0.events = events
                $0.result = result
            }
        }.bytes
        let bytes = events.map { $0.bytes[...] }
        #expect(PreEncoded.accepted(requestID: 9, commandID: 300, events: bytes, result: result) == withResult)
        let elided = ServerMessage.with {
            $0.requestID = 1 << 40
            $0.accepted = .with {
                $0.commandID = 5
                $0.elidedFirstSeq = UInt64(result.count) << 30 + 1
                $0.elidedCount = UInt32(result.count + 1)
            }
        }.bytes
        let elision = (firstSeq: UInt64(result.count) << 30 + 1, count: UInt32(result.count + 1))
        #expect(PreEncoded.accepted(requestID: 1 << 40, commandID: 5, events: [], elided: elision) == elided)
    }

    /// An empty snapshot, one of a few bytes, one of many (a length of three bytes).
    @Test(arguments: [0, 1, 5_000])
    func aSnapshotIsSwiftProtobufs(hosts: Int) throws {
        var snapshot = WireSnapshot()
        snapshot.refusals = (0..<hosts).map { index in .with { $0.seq = UInt64(index + 1) } }
        snapshot.seq = UInt64(hosts)
        let expected = ServerMessage.with {
            $0.requestID = 3
            $0.snapshot = snapshot
        }.bytes
        #expect(PreEncoded.snapshot(requestID: 3, encoded: snapshot.bytes) == expected)
    }

    @Test(arguments: [0, 1, 4])
    func deliveryIsSwiftProtobufs(count: Int) {
        let events = Array(Self.events.prefix(count))
        let expected = ServerMessage.with { $0.body = .delivery(.with { $0.events = events }) }.bytes
        #expect(PreEncoded.delivery(events: events.map { $0.bytes[...] }) == expected)
    }

    @Test func aLargeEventKeepsItsLength() {
        var event = Self.events[0]
        event.message = String(repeating: "x", count: 20_000)
        let expected = ServerMessage.with { $0.body = .delivery(.with { $0.events = [event] }) }.bytes
        #expect(PreEncoded.delivery(events: [event.bytes[...]]) == expected)
    }
}

struct JournalRecordEncodingTests {
    @Test(arguments: [0, 1, 3], [UInt64(0), 1, 300, 1 << 40])
    func journalRecordIsSwiftProtobufs(count: Int, value: UInt64) {
        let commands = Array(
            [
                WireCommand(Request(.setAlpha(.root("a"), 0.25), by: .natural)),
                WireCommand(
                    Request(.create("n", kind: .content, properties: ControllerProperties()), by: .natural),
                    host: "h"
                ),
                WireCommand(),
            ].prefix(count)
        )
        for time in [0, 1, -1, Int64(bitPattern: value)] {
            let expected = Containment_V1_JournalRecord.with {
                $0.commandID = value
                $0.timeUnixNanos = time
                $0.commands = commands
                $0.firstSeq = value &* 7
                $0.eventCount = UInt32(truncatingIfNeeded: value)
            }.bytes
            let direct = PreEncoded.journalRecord(
                commandID: value,
                timeUnixNanos: time,
                commands: commands.map { $0.bytes[...] },
                firstSeq: value &* 7,
                eventCount: UInt32(truncatingIfNeeded: value)
            )
            #expect(direct == expected)
        }
    }

    /// A numbered message, as the benches send one many times: the request id prepended to the rest is the encoding of
    /// the message with that id, for one-byte and longer varints.
    @Test func aNumberedMessageIsTheMessageWithItsRequestID() throws {
        let tail = ClientRequest.commands([Request(.loadView("a"), by: .natural)])
        for id: UInt64 in [1, 127, 128, 300, 1 << 35] {
            let numbered = try ClientMessage.decode(PreEncoded.withField1(id, tail))
            #expect(numbered.requestID == id && numbered.commands.commands.count == 1)
            #expect(
                PreEncoded.withField1(id, tail)
                    == ClientRequest.commands([Request(.loadView("a"), by: .natural)], requestID: id)
            )
        }
    }
}
