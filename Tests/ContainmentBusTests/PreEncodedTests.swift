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
        #expect(PreEncoded.accepted(requestID: id, commandID: id &* 3, events: events.map(\.bytes)) == expected)
    }

    @Test(arguments: [0, 1, 4])
    func deliveryIsSwiftProtobufs(count: Int) {
        let events = Array(Self.events.prefix(count))
        let expected = ServerMessage.with { $0.body = .delivery(.with { $0.events = events }) }.bytes
        #expect(PreEncoded.delivery(events: events.map(\.bytes)) == expected)
    }

    @Test func aLargeEventKeepsItsLength() {
        var event = Self.events[0]
        event.message = String(repeating: "x", count: 20_000)
        let expected = ServerMessage.with { $0.body = .delivery(.with { $0.events = [event] }) }.bytes
        #expect(PreEncoded.delivery(events: [event.bytes]) == expected)
    }
}
