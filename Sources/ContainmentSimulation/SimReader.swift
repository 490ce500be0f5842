import ContainmentBus
import ContainmentLoad
import ContainmentModel

/// A client of the simulated world that asks for snapshots in bursts and reads its replies late (issue 42, finding
/// 3): what its connection does not take waits in the supervisor within `replyQueueBytes`; past half of it its
/// snapshots are refused `limitExceeded`. What it checks: every reply answers a request it sent, at most once and in
/// the order asked (a request lost with its supervisor gets none), each a snapshot, a `limitExceeded` refusal, or a
/// standby's `notLeader`.
final class SimReader {
    unowned let sim: Simulation
    private var link: Link?
    private var requestID: UInt64 = 0
    /// Whether it reads what arrives now (else it is held, unread, as a DEALER whose owner does not call `recv`).
    private var reading = true
    private var held: [(bytes: [UInt8], link: Link)] = []
    /// Whether it asks for more (until the run's end).
    var drawing = true
    /// The requests answered, and the last answered on each connection (a connection's replies come in order).
    private var answered: Set<UInt64> = []
    private var lastOnLink: [ObjectIdentifier: UInt64] = [:]
    private(set) var snapshots = 0
    private(set) var refusals = 0
    private(set) var problems: [String] = []

    init(sim: Simulation) { self.sim = sim }

    func start() { burstLater() }

    private func burstLater() {
        sim.scheduler.after(sim.scheduler.duration(.milliseconds(200), .seconds(2)), "the reader asks") {
            [unowned self] in
            guard drawing else { return }
            burst()
            burstLater()
        }
    }

    /// Up to 200 snapshot requests at once to the supervisor serving now, then nothing read for up to 2 s.
    private func burst() {
        guard let leader = sim.leader else { return }
        if link?.open != true || link?.supervisor !== leader { link = sim.connect(self, to: leader) }
        guard let link else { return }
        reading = false
        for _ in 0..<Int.random(in: 20...200, using: &sim.scheduler.random) {
            requestID += 1
            sim.send(ClientRequest.snapshot(requestID: requestID), toSupervisorOn: link)
        }
        sim.scheduler.after(sim.scheduler.duration(.milliseconds(50), .seconds(2)), "the reader reads") {
            [unowned self] in readAll()
        }
    }

    /// Reads what it held, and reads on as replies come (the run's end, or its pause over).
    func readAll() {
        reading = true
        let waiting = held
        held = []
        for (bytes, link) in waiting { take(bytes, on: link) }
    }

    private func take(_ bytes: [UInt8], on link: Link) {
        link.unread -= 1
        guard case .reply(let reply)? = try? HostInbound(decoding: bytes) else {
            problem("a reply it cannot decode")
            return
        }
        let id = reply.requestID
        let last = lastOnLink[ObjectIdentifier(link), default: 0]
        guard id > last, id <= requestID, answered.insert(id).inserted else {
            problem("request \(id) answered after request \(last) on its connection, twice, or never asked")
            return
        }
        lastOnLink[ObjectIdentifier(link)] = id
        if let refusal = reply.refusal {
            switch refusal.error.code {
            case .limitExceeded where refusal.error.message.contains("replies wait unread"): refusals += 1
            case .notLeader: break
            default: problem("request \(id) refused \(refusal.error.code.rawValue): \(refusal.error.message)")
            }
        } else if (try? reply.snapshot()) != nil {
            snapshots += 1
        } else {
            problem("request \(id) answered with neither a snapshot nor a refusal")
        }
    }

    private func problem(_ text: String) {
        if problems.count < 8 { problems.append("\(Scheduler.format(sim.scheduler.now)): \(text)") }
    }
}

extension SimReader: LinkEnd {
    func arrived(_ bytes: [UInt8], on link: Link) {
        if reading {
            take(bytes, on: link)
        } else {
            held.append((bytes, link))
        }
    }
}
