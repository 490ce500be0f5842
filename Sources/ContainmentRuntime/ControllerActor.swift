import ContainmentBus
import ContainmentModel

/// One controller: its behavior, run one callback at a time, and what it received: a digest of every callback and
/// the most recent ones, in order.
actor ControllerActor {
    let id: ControllerID
    let kind: String
    private var behavior: any ControllerBehavior
    private let ref: ControllerRef
    /// The last `historyLimit` callbacks received, oldest first.
    private(set) var received: [WireEvent] = []
    private let historyLimit: Int
    /// Every callback received since the actor was made.
    private(set) var digest = CallbackDigest()

    init(id: ControllerID, kind: String, behavior: any ControllerBehavior, runtime: HostRuntime, historyLimit: Int) {
        self.id = id
        self.kind = kind
        self.behavior = behavior
        self.historyLimit = historyLimit
        ref = ControllerRef(id: id, runtime: runtime)
    }

    /// The seq of the last callback received: one delivered again (a supervisor resending after a restart) is not
    /// handled twice.
    private var lastSeq: UInt64 = 0

    func receive(_ wire: WireEvent) async {
        guard wire.seq > lastSeq else { return }
        lastSeq = wire.seq
        digest.add(seq: wire.seq)
        if historyLimit > 0 {
            received.append(wire)
            if received.count > historyLimit { received.removeFirst(received.count - historyLimit) }
        }
        guard let event = try? wire.model() else { return }
        // Deliveries arrive one at a time (the host's dispatcher awaits each), so no other callback runs meanwhile.
        var current = behavior
        await current.handle(event, controller: ref)
        behavior = current
    }

    /// What `inspect` answers.
    func report(host: String) -> Containment_V1_InspectReply {
        .with {
            $0.controller = id.rawValue
            $0.host = host
            $0.callbacks = received
            $0.receivedCount = digest.count
            $0.receivedDigest = digest.hash
        }
    }
}
