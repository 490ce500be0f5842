import ContainmentModel

extension WireEvent {
    /// Whether the supervisor sends this event to the host running its controller: every callback (SPEC §10), and
    /// the controller's creation and destruction, which make and end its actor. The actor itself receives the
    /// callbacks.
    public static func isDelivered(_ name: String) -> Bool {
        EventCategory(eventName: name) == .callbacks || isLifetime(name)
    }

    /// `controllerCreated` or `controllerDestroyed`: delivered to the host, handled by it, not by the actor.
    public static func isLifetime(_ name: String) -> Bool {
        name == "controllerCreated" || name == "controllerDestroyed"
    }
}

/// A running digest of the callbacks an actor received: their count and a 64-bit FNV-1a hash of their sequence
/// numbers (each as 8 little-endian bytes), in the order received. Two actors that received the same callbacks in the
/// same order have the same digest; `inspect` reports it, and `stress` compares it with the model's.
public struct CallbackDigest: Sendable, Equatable, CustomStringConvertible {
    public private(set) var count: UInt64 = 0
    public private(set) var hash: UInt64 = 0xcbf2_9ce4_8422_2325

    public init() {}

    public init(count: UInt64, hash: UInt64) {
        self.count = count
        self.hash = hash
    }

    public mutating func add(seq: UInt64) {
        count += 1
        var value = seq
        for _ in 0..<8 {
            hash = (hash ^ (value & 0xFF)) &* 0x100_0000_01b3
            value >>= 8
        }
    }

    public var description: String { "\(count) callbacks, digest \(String(hash, radix: 16))" }
}
