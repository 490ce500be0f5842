import ContainmentBus
import ContainmentLoad
import ContainmentModel

/// A client of the simulated world, as a `stress` client is: it draws random commands over its own pool (some invalid
/// on purpose), predicts each answer with its replica, sends it under its client id and request id, resends it
/// unchanged every `resendAfter` until answered (exactly once: a resend is answered, never applied again), and records
/// each operation for the checks. A refusal for want of a host before anything was judged is tried again, as a new
/// request, for up to 15 s from the first such refusal. A setup client sends a fixed list of requests instead (the pools' creations).
final class SimClient {
    unowned let sim: Simulation
    let index: Int
    let clientID: String
    private var stress: StressClient?
    private var script: [[ClientCommand]]
    private(set) var result: StressClientResult
    private var link: Link?
    /// The supervisor it talks to (replicated: the leader, as far as it knows).
    private var endpoint: String
    /// Each send of a request arms one look for its answer; an older look finds a newer send and does nothing.
    private var sends = 0
    private var requestID: UInt64 = 0
    private var outstanding: Outstanding?
    /// Whether it draws new commands (until the run's end).
    var drawing = true
    /// A setup client's probe is out: its refusal is expected.
    private var probing = false
    /// Answers it waited for past the configured timeouts once the faults healed (the liveness check).
    private(set) var slowAnswers: [String] = []
    static let resendAfter: Duration = .seconds(1)
    static let hostWait: Duration = .seconds(15)

    private struct Outstanding {
        var requestID: UInt64
        var pick: InvalidCommands.Pick
        var predicted: StressClient.Prediction?
        var bytes: [UInt8]
        /// When the operation began (a retry for want of a host keeps it), and when this request was last sent.
        var began: Duration
        var sent: Duration
        /// When it was first refused for want of a host (it is tried again for ``hostWait`` from then).
        var hostRefused: Duration?
    }

    init(sim: Simulation, index: Int, stress: StressClient?, script: [[ClientCommand]] = []) {
        self.sim = sim
        self.index = index
        clientID = stress == nil ? "sim-setup" : "sim-client-\(index)"
        self.stress = stress
        self.script = script
        result = StressClientResult(client: index)
        endpoint = sim.endpoints[0]
    }

    /// Whether it waits for an answer.
    var isWaiting: Bool { outstanding != nil }
    /// Whether a setup client has sent its whole list and had it answered.
    var isDone: Bool { script.isEmpty && outstanding == nil }

    func start() {
        connect()
        next()
    }

    private func connect() {
        link = sim.supervisor(at: endpoint).flatMap { sim.connect(self, to: $0) }
    }

    /// Leaves the supervisor talked to for the one at `next` (a standby named the leader, or the one talked to is
    /// silent), as ``CommandClient`` does.
    private func turn(to next: String) {
        guard next != endpoint else { return }
        link?.close()
        endpoint = next
        connect()
    }

    /// A setup client's last request: a destroy of a controller that does not exist, refused with a `ruleViolation`
    /// every subscriber sees (the end of the run, as `stress` probes it).
    func probe() {
        probing = true
        script.append([ClientCommand(.system(.destroy(ControllerID("sim-probe"))))])
        next()
    }

    /// Connects again when `supervisor` bound its socket (it restarted, or began to lead) and this client's connection
    /// to it dropped.
    func reconnect(to supervisor: SimSupervisor) {
        guard supervisor.endpoint == endpoint, link?.open != true else { return }
        connect()
    }

    /// Its connection drops: what the ROUTER queued for it is lost; it connects again shortly.
    func disconnect() {
        link?.close()
        link = nil
        sim.scheduler.after(.milliseconds(50), "client \(index) connects again") { [unowned self] in
            guard link?.open != true else { return }
            connect()
        }
    }

    private func next() {
        guard outstanding == nil else { return }
        let pick: InvalidCommands.Pick
        var predicted: StressClient.Prediction?
        if !script.isEmpty {
            pick = InvalidCommands.Pick(commands: script.removeFirst(), requests: nil)
        } else if drawing, var stress {
            pick = stress.draw()
            predicted = stress.predict(pick)
            self.stress = stress
        } else {
            return
        }
        submit(pick, predicted: predicted, began: sim.scheduler.now)
    }

    private func submit(
        _ pick: InvalidCommands.Pick,
        predicted: StressClient.Prediction?,
        began: Duration,
        hostRefused: Duration? = nil
    ) {
        requestID += 1
        var bytes = ClientRequest.commands(pick.commands, requestID: requestID, clientID: clientID)
        // Every other request traced, as `ctl`'s are: tracing must change nothing the checks see. Its ids come from
        // the client and request, not the world's random draws, so a seed's run is the same traced or not.
        if requestID % 2 == 1 { bytes += PreEncoded.traceparent(Self.traceparent(client: index, request: requestID)) }
        outstanding = Outstanding(
            requestID: requestID,
            pick: pick,
            predicted: predicted,
            bytes: bytes,
            began: began,
            sent: sim.scheduler.now,
            hostRefused: hostRefused
        )
        send()
    }

    /// Sends the outstanding request (again), and looks again after `resendAfter`: still unanswered, it goes again
    /// (with several supervisors, to the next: the one talked to may be gone).
    private func send() {
        guard var waiting = outstanding else { return }
        waiting.sent = sim.scheduler.now
        outstanding = waiting
        if let link, link.open { sim.send(waiting.bytes, toSupervisorOn: link) }
        sends += 1
        let (id, token) = (waiting.requestID, sends)
        sim.scheduler.after(Self.resendAfter, "client \(index) resends \(id) if unanswered") { [unowned self] in
            guard outstanding?.requestID == id, sends == token else { return }
            let endpoints = sim.endpoints
            if endpoints.count > 1, let at = endpoints.firstIndex(of: endpoint) {
                turn(to: endpoints[(at + 1) % endpoints.count])
            }
            send()
        }
    }

    /// A standby's `notLeader`: to the leader it names at once; while none leads (a failover), again shortly.
    private func notLeader(_ requestID: UInt64, leader: String) {
        guard outstanding?.requestID == requestID else { return }
        if !leader.isEmpty, leader != endpoint, sim.endpoints.contains(leader) {
            turn(to: leader)
            send()
            return
        }
        sends += 1
        let token = sends
        sim.scheduler.after(.milliseconds(50), "client \(index) asks again") { [unowned self] in
            guard outstanding?.requestID == requestID, sends == token else { return }
            send()
        }
    }

    private func answered(_ requestID: UInt64, _ outcome: Result<Acceptance, RemoteError>) {
        guard let waiting = outstanding, waiting.requestID == requestID else { return }
        outstanding = nil
        if let healed = sim.healedAt, waiting.began >= healed,
            sim.scheduler.now - waiting.began > sim.config.requestTimeout + Self.resendAfter
        {
            let waited = sim.scheduler.now - waiting.began
            slowAnswers.append("client \(index): request \(requestID) answered after \(waited)")
        }
        let recorded: StressOperation.Outcome
        switch outcome {
        case .success(let accepted):
            recorded = .init(accepted)
        case .failure(let error):
            // Refused for want of a host before anything was judged (a host not registered again yet): nothing was
            // applied, so it is tried again as a new request.
            let refused = waiting.hostRefused ?? sim.scheduler.now
            if error.commandID == 0, error.error.code == .hostUnavailable {
                sim.hostRefusals.all += 1
                if sim.hosts.allSatisfy(\.isLive) { sim.hostRefusals.hostsLive += 1 }
            }
            if error.commandID == 0, error.error.code == .hostUnavailable, sim.scheduler.now - refused < Self.hostWait {
                sim.scheduler.after(.milliseconds(50), "client \(index) tries again") { [unowned self] in
                    submit(waiting.pick, predicted: waiting.predicted, began: waiting.began, hostRefused: refused)
                }
                return
            }
            if stress == nil {
                if !probing { sim.fail("the setup's request was refused: \(error)") }
                probing = false
                return
            }
            recorded = .rejected(error)
        }
        if let stress, let predicted = waiting.predicted {
            stress.check(waiting.pick, predicted: predicted, outcome: recorded, into: &result)
        }
        if stress != nil {
            result.operations.append(StressOperation(client: index, commands: waiting.pick.commands, outcome: recorded))
        }
        sim.scheduler.after(sim.scheduler.duration(.zero, sim.settings.meanThink * 2), "client \(index) draws") {
            [unowned self] in next()
        }
    }
}

extension SimClient: LinkEnd {
    /// A reply, on the connection of now or on one that went meanwhile (what a DEALER had received it still hands
    /// over).
    func arrived(_ bytes: [UInt8], on link: Link) {
        link.unread -= 1
        guard let (requestID, outcome) = try? CommandReply.decode(bytes) else {
            sim.fail("client \(index) received a reply it cannot decode")
            return
        }
        if case .failure(let error) = outcome, error.error.code == .notLeader {
            notLeader(requestID, leader: CommandReply.leader(namedIn: bytes) ?? "")
            return
        }
        answered(requestID, outcome)
    }
}

extension SimClient {
    /// A sampled W3C `traceparent` for request `request` of client `client`: its ids are those numbers' bytes.
    static func traceparent(client: Int, request: UInt64) -> String {
        func hex(_ value: UInt64) -> String {
            let digits = String(value, radix: 16)
            return String(repeating: "0", count: 16 - digits.count) + digits
        }
        return "00-\(hex(UInt64(bitPattern: Int64(client)) &+ 1))\(hex(request))-\(hex(request))-01"
    }
}
