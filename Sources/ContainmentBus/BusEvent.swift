import ContainmentModel

/// One event as the bus carries it — published to subscribers, delivered to a host, returned in an `accepted` reply
/// or an `inspect` report: its seq, epoch and controller read at once, its model form, JSON and line on demand (so
/// events of different controllers decode where they are used, concurrently).
public struct BusEvent: Sendable, Equatable {
    let wire: WireEvent

    package init(_ wire: WireEvent) { self.wire = wire }

    /// An event of the model, as event `seq` (tests and benchmarks deliver without a supervisor).
    package init(_ event: Event, seq: UInt64) {
        self.init(WireEvent(event, seq: seq, timeUnixNanos: 0, commandID: 0))
    }

    /// Decodes a published event's bytes (`malformed` when they are not one).
    package init(decoding bytes: [UInt8]) throws(ContainmentError) {
        self.init(try WireEvent.decode(bytes))
    }

    public var seq: UInt64 { wire.seq }
    /// The supervisor's epoch when it was sequenced (another epoch: the supervisor restarted).
    public var epoch: UInt64 { wire.epoch }
    /// The command that caused it.
    public var commandID: UInt64 { wire.commandID }
    /// When it was sequenced.
    public var timeUnixNanos: Int64 { wire.timeUnixNanos }
    /// The controller it is about.
    public var controller: ControllerID { ControllerID(wire.controller) }
    /// Its name on the wire (`viewWillAppear`, …).
    public var name: String { wire.name }
    /// A message's or a verb's name (`messageSent`, `messageReceived`, `verbInvoked`).
    package var messageName: String { wire.messageName }
    /// Its kind, nil for a name this build does not know.
    public var eventKind: EventKind? { EventKind(name: wire.name) }
    /// The controller's kind, for a `controllerCreated`.
    public var controllerKind: String { wire.kind }

    /// The event in model types.
    public func model() throws(ContainmentError) -> Event { try wire.model() }

    /// As `watch --json` prints it: one object.
    public var jsonObject: [String: Any] { wire.jsonObject }
    /// One line of JSON.
    public var json: String { wire.json }
    /// One human line: the seq and the event as the model describes it.
    public var line: String { wire.line }
    /// Its bytes, as published.
    package var bytes: [UInt8] { wire.bytes }
    /// Whether the supervisor sends it to the host that runs its controller (``HostDelivery``).
    package var isDelivered: Bool { WireEvent.isDelivered(wire.name) }
}

/// The PUB's heartbeat, sent when no event went out for a heartbeat interval: the latest seq and the epoch.
public struct BusHeartbeat: Sendable, Equatable {
    public let epoch: UInt64
    public let seq: UInt64

    public init(epoch: UInt64, seq: UInt64) {
        self.epoch = epoch
        self.seq = seq
    }
}

/// One message published on the event socket (two frames: a topic, the bytes), decoded.
package enum Publication: Sendable {
    case event(BusEvent)
    case heartbeat(BusHeartbeat)

    /// The topic a subscriber to certain events also subscribes to, to hear heartbeats.
    package static let heartbeatTopic = String(decoding: WireEvent.heartbeatTopic, as: UTF8.self)
    /// The heartbeat's topic frame.
    package static let heartbeatFrame = WireEvent.heartbeatTopic

    /// A heartbeat's body: the epoch, the latest seq, the time.
    package static func heartbeatBody(epoch: UInt64, seq: UInt64, timeUnixNanos: Int64) -> [UInt8] {
        Containment_V1_EventHeartbeat.with {
            $0.epoch = epoch
            $0.seq = seq
            $0.timeUnixNanos = timeUnixNanos
        }.bytes
    }

    /// Decodes a publication's two frames; nil when they are not an event or a heartbeat.
    package init?(frames: [[UInt8]]) {
        guard frames.count == 2 else { return nil }
        if frames[0] == WireEvent.heartbeatTopic {
            guard let beat = try? Containment_V1_EventHeartbeat(serializedBytes: frames[1]) else { return nil }
            self = .heartbeat(BusHeartbeat(epoch: beat.epoch, seq: beat.seq))
        } else {
            guard let event = try? WireEvent.decode(frames[1]) else { return nil }
            self = .event(BusEvent(event))
        }
    }
}
