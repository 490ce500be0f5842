import ContainmentBus
import ContainmentModel

/// One controller: its behavior, run one callback at a time, and the callbacks it received, in order.
actor ControllerActor {
    let id: ControllerID
    let kind: String
    private var behavior: any ControllerBehavior
    private let ref: ControllerRef
    /// The callbacks received, oldest first (the last ``historyLimit``).
    private(set) var received: [WireEvent] = []
    static let historyLimit = 4_096

    init(id: ControllerID, kind: String, behavior: any ControllerBehavior, runtime: HostRuntime) {
        self.id = id
        self.kind = kind
        self.behavior = behavior
        ref = ControllerRef(id: id, runtime: runtime)
    }

    func receive(_ wire: WireEvent) async {
        received.append(wire)
        if received.count > Self.historyLimit { received.removeFirst(received.count - Self.historyLimit) }
        guard let event = try? wire.model() else { return }
        // Deliveries arrive one at a time (the host's dispatcher awaits each), so no other callback runs meanwhile.
        var current = behavior
        await current.handle(event, controller: ref)
        behavior = current
    }
}
