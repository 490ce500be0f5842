/// What a link's far end does with what arrives.
protocol LinkEnd: AnyObject {
    /// A message the supervisor sent on `link`, arriving.
    func arrived(_ bytes: [UInt8], on link: Link)
    /// The supervisor's socket closed `link` (its process died, or it bound its socket anew): the peer's monitor says
    /// so.
    func dropped(_ link: Link)
}

extension LinkEnd {
    func dropped(_ link: Link) {}
}

/// A connection between a peer (a client, a host) and one supervisor process, as ZeroMQ keeps one: FIFO each way,
/// each message late by the network's latency; gone with either end (what it queued is lost, as a ROUTER loses it);
/// bounded toward the peer (the ROUTER's high-water mark: past it a send finds it full); and, cut by a partition,
/// holding what each way sends until the cut heals.
final class Link {
    /// The peer's routing id at the supervisor.
    let routingID: [UInt8]
    /// The supervisor it reaches, and which of its sockets (a process, or a standby's socket before it led).
    unowned let supervisor: SimSupervisor
    let incarnation: Int
    unowned let end: LinkEnd
    private(set) var open = true
    /// Closed because its supervisor process died: what it had already written may still reach the peer (the kernel
    /// had it); what it had not is lost.
    private(set) var supervisorDied = false
    /// Since its supervisor died, a message it had written was lost: every later one is too (the kernel sends a
    /// prefix of what was written).
    var lostSinceDeath = false
    /// When the last message each way arrives: each way is FIFO.
    var lastToSupervisor: Duration = .zero
    var lastToPeer: Duration = .zero
    /// Messages toward the peer not taken by it yet.
    var unread = 0
    /// Cut off by a partition: each way's messages held, in order.
    private(set) var cut = false
    var heldToSupervisor: [[UInt8]] = []
    var heldToPeer: [[UInt8]] = []

    init(routingID: [UInt8], supervisor: SimSupervisor, incarnation: Int, end: LinkEnd) {
        self.routingID = routingID
        self.supervisor = supervisor
        self.incarnation = incarnation
        self.end = end
    }

    func close(supervisorDied: Bool = false) {
        open = false
        self.supervisorDied = supervisorDied
        heldToSupervisor = []
        heldToPeer = []
    }

    func cutOff() { cut = true }

    /// Heals a partition: what each way held is handed back, in order.
    func heal() -> (toSupervisor: [[UInt8]], toPeer: [[UInt8]]) {
        cut = false
        defer {
            heldToSupervisor = []
            heldToPeer = []
        }
        return (heldToSupervisor, heldToPeer)
    }
}

extension Simulation {
    /// The network's delay for one message now.
    func latency() -> Duration {
        let slow = slowNetworkUntil.map { scheduler.now < $0 } ?? false
        return slow
            ? scheduler.duration(.milliseconds(20), .milliseconds(300))
            : scheduler.duration(.microseconds(50), .milliseconds(2))
    }

    /// A new connection of `end` to `supervisor`'s socket bound now (nil while none is).
    func connect(_ end: LinkEnd, to supervisor: SimSupervisor) -> Link? {
        guard let incarnation = supervisor.incarnation else { return nil }
        nextRoutingID += 1
        var id = nextRoutingID
        var routingID: [UInt8] = [0]
        for _ in 0..<4 {
            routingID.append(UInt8(truncatingIfNeeded: id))
            id >>= 8
        }
        let link = Link(routingID: routingID, supervisor: supervisor, incarnation: incarnation, end: end)
        supervisor.accept(link)
        return link
    }

    /// The supervisor whose command endpoint is `endpoint`.
    func supervisor(at endpoint: String) -> SimSupervisor? { supervisors.first { $0.endpoint == endpoint } }

    /// A peer's message to the supervisor on `link`: lost if the link is gone by the time it arrives.
    func send(_ bytes: [UInt8], toSupervisorOn link: Link) {
        guard link.open else { return }
        if link.cut {
            link.heldToSupervisor.append(bytes)
            return
        }
        let arrival = max(scheduler.now + latency(), link.lastToSupervisor + .nanoseconds(1))
        link.lastToSupervisor = arrival
        inFlight += 1
        scheduler.at(arrival, "→ supervisor \(Self.describe(bytes))") { [unowned self] in
            inFlight -= 1
            guard link.open else { return }
            link.supervisor.arrived(bytes, on: link)
        }
    }

    /// The supervisor's message to a peer on `link`; the peer takes it when it arrives (or, paused, later: it counts
    /// against the link's high-water mark until then).
    func send(_ bytes: [UInt8], toPeerOn link: Link) {
        link.unread += 1
        if link.cut {
            link.heldToPeer.append(bytes)
            return
        }
        let arrival = max(scheduler.now + latency(), link.lastToPeer + .nanoseconds(1))
        link.lastToPeer = arrival
        inFlight += 1
        scheduler.at(arrival, "→ peer \(link.routingID) \(Self.describe(bytes))") { [unowned self] in
            inFlight -= 1
            // What the supervisor wrote before it died: a prefix arrives (the kernel had sent it), the rest is lost.
            if !link.open {
                guard link.supervisorDied, !link.lostSinceDeath else { return }
                guard scheduler.chance(0.5) else {
                    link.lostSinceDeath = true
                    return
                }
            }
            link.end.arrived(bytes, on: link)
        }
    }

    /// Heals `link`'s partition: what it held goes on, in order.
    func heal(_ link: Link) {
        let (up, down) = link.heal()
        for bytes in up { send(bytes, toSupervisorOn: link) }
        for bytes in down {
            link.unread -= 1
            send(bytes, toPeerOn: link)
        }
    }

    static func describe(_ bytes: [UInt8]) -> String { "(\(bytes.count) bytes)" }
}
