import ContainmentModel

extension WireEvent {
    /// Whether the supervisor sends this event to the host running its controller: every callback (SPEC §10), and
    /// the controller's creation and destruction, which make and end its actor. The actor itself receives the
    /// callbacks.
    public static func isDelivered(_ name: String) -> Bool {
        EventKind(name: name).map { HostDelivery($0) != .notForHosts } ?? false
    }

    /// `controllerCreated` or `controllerDestroyed`: delivered to the host, handled by it, not by the actor.
    public static func isLifetime(_ name: String) -> Bool {
        name == "controllerCreated" || name == "controllerDestroyed"
    }
}

/// What the supervisor does with an event for the host that runs its controller, and what the host does with it, by
/// kind — every kind named, so a new kind does not compile until it is placed here.
public enum HostDelivery: Sendable, Equatable {
    /// `controllerCreated`: the host makes the controller's actor.
    case makeActor
    /// `controllerDestroyed`: the host ends it.
    case endActor
    /// A callback (SPEC §10): the actor receives it, in order, and hands it to the controller's code.
    case callback
    /// Structure, messages as sent, input as routed, host events: published, never delivered.
    case notForHosts

    public init(_ kind: EventKind) {
        switch kind {
        case .controllerCreated: self = .makeActor
        case .controllerDestroyed: self = .endActor
        case .loadView, .viewDidLoad, .viewDidUnload, .willMoveToParent, .didMoveToParent, .viewWillAppear,
            .viewDidAppear, .viewWillDisappear, .viewDidDisappear, .viewWillLayoutSubviews, .viewDidLayoutSubviews,
            .didReceiveMemoryWarning, .viewWillTransitionToSize, .messageReceived, .setEditing, .inputReceived,
            .actionReceived, .verbInvoked, .delegateCallback:
            self = .callback
        case .childAdded, .childRemoved, .viewInserted, .viewRemoved, .frameChanged, .alphaChanged, .hiddenChanged,
            .windowAttached, .windowResized, .presented, .dismissed, .transitionBegan, .transitionCompleted,
            .navigationWillShow, .navigationDidShow, .selectionChanged, .menuVisibilityChanged, .pagesChanged,
            .messageSent, .propertiesChanged, .editingChanged, .orientationChanged, .inputDelivered, .actionDelivered,
            .constraintAdded, .constraintRemoved,
            .ruleViolation, .answerTimedOut, .hostUp, .hostDown, .hostRestarted, .hostFailed:
            self = .notForHosts
        }
    }
}

/// A 64-bit FNV-1a hash, fed byte by byte: small, stable across processes and runs, and order-sensitive.
public struct FNV1a: Sendable, Equatable {
    public private(set) var value: UInt64 = 0xcbf2_9ce4_8422_2325

    public init() {}

    public init(value: UInt64) { self.value = value }

    public mutating func add(_ byte: UInt8) {
        value = (value ^ UInt64(byte)) &* 0x100_0000_01b3
    }

    public mutating func add(_ bytes: [UInt8]) {
        for byte in bytes { add(byte) }
    }

    /// `number` as 8 little-endian bytes.
    public mutating func add(_ number: UInt64) {
        var rest = number
        for _ in 0..<8 {
            add(UInt8(truncatingIfNeeded: rest))
            rest >>= 8
        }
    }
}

/// A running digest of the callbacks an actor received: their count and the ``FNV1a`` hash of their sequence
/// numbers (each as 8 little-endian bytes), in the order received. Two actors that received the same callbacks in the
/// same order have the same digest; `inspect` reports it, and `stress` compares it with the model's.
public struct CallbackDigest: Sendable, Equatable, CustomStringConvertible {
    public private(set) var count: UInt64 = 0
    private var fnv = FNV1a()
    public var hash: UInt64 { fnv.value }

    public init() {}

    public init(count: UInt64, hash: UInt64) {
        self.count = count
        fnv = FNV1a(value: hash)
    }

    public mutating func add(seq: UInt64) {
        count += 1
        fnv.add(seq)
    }

    public var description: String { "\(count) callbacks, digest \(String(hash, radix: 16))" }
}
