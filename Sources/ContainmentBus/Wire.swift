import ContainmentModel
import SwiftProtobuf

/// The protocol's message types under short names.
public typealias WireCommand = Containment_V1_Command
public typealias WireEvent = Containment_V1_Event
public typealias WireSnapshot = Containment_V1_Snapshot
public typealias ClientMessage = Containment_V1_ClientMessage
public typealias ServerMessage = Containment_V1_ServerMessage

/// The protocol version every process of a runtime must speak (`Hello.protocol_version`).
public let protocolVersion: UInt32 = 1

extension ContainmentError {
    /// A message or field that cannot be decoded.
    public static func malformed(_ what: String) -> ContainmentError { ContainmentError(.malformed, what) }
}

extension SwiftProtobuf.Message {
    /// Serialized bytes (serializing a message of this schema cannot fail: it holds no unset required fields).
    public var bytes: [UInt8] {
        (try? serializedBytes()) ?? []
    }

    /// Decodes `bytes`, or `malformed` naming the message type.
    public static func decode(_ bytes: [UInt8]) throws(ContainmentError) -> Self {
        do {
            return try Self(serializedBytes: bytes)
        } catch {
            throw .malformed("The frame is not a valid \(Self.protoMessageName) (\(bytes.count) bytes).")
        }
    }
}

// MARK: Geometry

extension Containment_V1_Size {
    public init(_ size: Size) {
        self.init()
        width = size.width
        height = size.height
    }
    public var model: Size { Size(width: width, height: height) }
}

extension Containment_V1_Point {
    public init(_ point: Point) {
        self.init()
        x = point.x
        y = point.y
    }
    public var model: Point { Point(x: x, y: y) }
}

extension Containment_V1_Rect {
    public init(_ rect: Rect) {
        self.init()
        x = rect.x
        y = rect.y
        width = rect.width
        height = rect.height
    }
    public var model: Rect { Rect(x: x, y: y, width: width, height: height) }
}

// MARK: Ids

func viewID(_ text: String, field: String) throws(ContainmentError) -> ViewID {
    // A root view, the usual case, without `ViewID(parsing:)`'s search by Character: with no "/" byte in its UTF-8,
    // the text holds no "/" character either, and parses as the root view of the controller it names (the id looks
    // for the byte as it is made).
    if !text.isEmpty {
        let id = ControllerID(text)
        if !id.hasSlash { return .root(id) }
    }
    guard let view = ViewID(parsing: text) else {
        throw .malformed("\(field) \"\(text)\" is not a view (ID or ID/NAME).")
    }
    return view
}

func controllerID(_ text: String, field: String) throws(ContainmentError) -> ControllerID {
    guard !text.isEmpty else { throw .malformed("\(field) is empty.") }
    return ControllerID(text)
}
