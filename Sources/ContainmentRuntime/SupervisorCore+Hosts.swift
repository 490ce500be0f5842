import ContainmentConfig
import ContainmentBus
import ContainmentModel
import Foundation

/// Registration and liveness.
extension SupervisorCore {
    /// A host registers (again): it gets its controllers, then every callback it missed.
    mutating func welcome(_ hello: HostHello, from sender: [UInt8], requestID: UInt64) {
        guard hello.protocolVersion == protocolVersion else {
            reply(
                to: sender,
                requestID: requestID,
                .refused(.malformed("Protocol \(hello.protocolVersion) is not spoken here (\(protocolVersion) is)."))
            )
            return
        }
        guard ContainmentState.isValidName(hello.host) else {
            reply(to: sender, requestID: requestID, .refused(.malformed("\"\(hello.host)\" is not a host name.")))
            return
        }
        // Only the hosts it expects (the topology's, the journal's) unless the configuration accepts any: else any
        // peer could add hosts for good, and controllers placed on them would wait for a host that never comes.
        guard hosts[hello.host] != nil || config.acceptUnknownHosts else {
            warn(
                sender,
                "refused a Hello for a host the topology does not name",
                metadata: ["host.name": "\(hello.host)"]
            )
            reply(
                to: sender,
                requestID: requestID,
                .refused(ContainmentError(.unauthorized, Self.unknownHostMessage(hello.host)))
            )
            return
        }
        // One live registration per host: a second Hello for it from another connection (an impostor, or a process
        // started twice) is refused while the first is alive; the real host keeps its callbacks.
        if let live = hosts[hello.host], live.up, let peer = live.routingID, peer != sender {
            warn(
                sender,
                "refused a Hello for a host registered on another live connection",
                metadata: ["host.name": "\(hello.host)"]
            )
            reply(
                to: sender,
                requestID: requestID,
                .refused(
                    ContainmentError(
                        .unauthorized,
                        "Host \(hello.host) is registered on another connection, which is alive: a second "
                            + "registration is refused."
                    )
                )
            )
            return
        }
        // Deliveries to its previous connection not handed out yet are kept for this one (before its record is read).
        withdrawDeliveries(to: hello.host)
        var record = hosts[hello.host] ?? HostRecord(name: hello.host, lastSeen: time.now)
        // A second Hello from the same live connection (one queued while the supervisor was away): welcomed again,
        // but it is not news.
        let again = record.up && record.routingID == sender && record.pid == hello.pid
        if let old = record.routingID { hostNames[old] = nil }
        let restarted = record.everConnected
        // Published `hostRestarted` only for a new process (issue 42): the same one greeting again is up again.
        let newProcess = restarted && hello.pid != record.pid
        if !again, hello.pid != record.pid || record.incarnation == 0 { record.incarnation += 1 }
        // A new process: the calls its previous one was to answer are lost with it.
        if hello.pid != record.pid {
            failCalls(on: hello.host, reason: "a new process of it registered")
            abandonQuestions(on: hello.host)
        }
        // A host that ran before and has received nothing (a new process, or one whose welcome never reached it): its
        // actors begin from the state now, not from stale callbacks. Not its pid: a supervisor that journaled a new
        // process's registration and died before its welcome went out leaves that pid in the journal, and the
        // process, greeting the next supervisor, has had no state yet (found by `simulate`, seed 53). Restoring a
        // process that had its welcome and no callback since costs a `restored` of the same state. So do the actors
        // of a host that missed more callbacks than were kept for it.
        // So do the actors of a process that greets again on a new connection saying it received less than was given
        // to its old one: the rest went with that connection (a dropped TCP connection loses what the ROUTER had
        // queued; found by `simulate` with hostDisconnect, seed 15).
        let lost = !again && hello.lastSeq < record.lastSent
        // And those of a host greeting a recovered supervisor from behind what its recovery holds: the callbacks
        // before the checkpoint it began from (or before the oldest delivery it kept) cannot be given again (found
        // by `simulate` once its supervisor wrote checkpoints, seed 7 over 60 s).
        let behind = hello.lastSeq > 0 && recoveredDeliveries.mayHaveLost(hello.host, after: hello.lastSeq)
        let restore = (restarted && !again && hello.lastSeq == 0) || record.stale || lost || behind
        record.pid = hello.pid
        record.everConnected = true
        record.expectedUntil = nil
        record.verbs = Dictionary(hello.kinds.map { ($0.kind, $0.verbs) }, uniquingKeysWith: { first, _ in first })
        record.methods = Self.methods(of: hello)
        record.requires = Dictionary(
            hello.kinds.map { ($0.kind, $0.requires) },
            uniquingKeysWith: { first, _ in first }
        )
        record.questions = Dictionary(
            hello.kinds.compactMap { entry in
                let questions = Set(entry.questions.compactMap(Question.Name.init(rawValue:)))
                return questions.isEmpty ? nil : (entry.kind, questions)
            },
            uniquingKeysWith: { first, _ in first }
        )
        failedHosts.remove(hello.host)
        record.stale = false
        // Restored, its actors are current as of the state: the welcome stands for every callback up to now. Should it
        // never arrive (its connection gone before it went out), the host greets again from below, and is restored
        // again (found by `simulate --replicated`, seed 909: a welcome restoring a host went to a connection the host
        // had just left, and the host, welcomed on its next one as it was, never got the callbacks in between).
        if restore { record.lastSent = seq }
        record.lastSeen = time.now
        // Callbacks of the recovered journal's tail the host may never have got (the previous supervisor died between
        // journaling and sending them), then those kept while it was away. Actors drop a seq they already saw.
        let missed = hello.lastSeq > 0 ? recoveredDeliveries.missed(by: hello.host, after: hello.lastSeq) : []
        if behind {
            log(
                .info,
                "a host re-registered behind the deliveries recovered; its actors are restored from the state",
                [
                    "host.name": "\(hello.host)", "host.last_seq": "\(hello.lastSeq)",
                    "delivery.covered_from_seq": "\(recoveredDeliveries.coveredFrom)",
                ]
            )
        }
        recoveredDeliveries.forget(hello.host)
        let pending = restore ? [] : missed + record.pending
        record.liveness = .up(peer: sender, backlogged: false)
        record.pending = []
        hosts[hello.host] = record
        hostNames[sender] = hello.host
        updateAnsweringKinds()
        updateKindProtocols()
        let pid = Int(hello.pid)
        if !again {
            publishHostEvent(
                newProcess ? .hostRestarted(host: hello.host, pid: pid) : .hostUp(host: hello.host, pid: pid)
            )
            log(
                .info,
                newProcess ? "host restarted" : "host up",
                ["host.name": "\(hello.host)", "host.pid": "\(pid)"]
            )
        }
        reply(to: sender, requestID: requestID, welcome(hello.host, restore: restore))
        if !pending.isEmpty { sendDelivery(pending, to: hello.host) }
        warnOfUnrunKinds(on: hello.host)
    }

    /// A host that registered without a custom kind of controllers it was given (a topology names hosts before they
    /// come up): they run as plain content there. Said once per Hello, with the kinds.
    mutating func warnOfUnrunKinds(on host: String) {
        var missing: Set<String> = []
        for id in placement.controllers(on: host) {
            guard let kind = state.controllers[id]?.kind, runs(kind, on: host) == false else { continue }
            missing.insert(kind.rawValue)
        }
        guard !missing.isEmpty else { return }
        log(
            .error,
            "a host does not run the kinds of some of its controllers: they run as content",
            ["host.name": "\(host)", "controller.kinds": "\(missing.sorted().joined(separator: ", "))"]
        )
    }

    /// Why a host that is not expected is refused (a Hello, or a create naming it).
    static func unknownHostMessage(_ host: String) -> String {
        "Host \(host) is not in the topology: only the hosts it names register (set acceptUnknownHosts: true in "
            + "runtime.yaml to let any host register)."
    }

    /// What a host is welcomed with: its controllers' state, and whether its actors begin from it.
    mutating func welcome(_ host: String, restore: Bool) -> SupervisorMessage {
        let owned = placement.controllers(on: host).compactMap { state.controllers[$0] }.sorted {
            $0.serial < $1.serial
        }
        return .welcome(
            host: host,
            controllers: owned.map { ($0, state.views[$0.rootView]) },
            heartbeatInterval: config.heartbeatInterval,
            restore: restore,
            seq: seq,
            incarnation: hosts[host]?.incarnation ?? 0
        )
    }

    /// A heartbeat. From a connection that never registered (the supervisor restarted since): ask it to say hello.
    /// From a host declared down: it is up again, and gets the callbacks it missed.
    mutating func beat(_ name: String, from sender: [UInt8]) {
        guard hostNames[sender] == name, var record = hosts[name] else {
            reply(
                to: sender,
                requestID: 0,
                .refused(ContainmentError(.hostUnavailable, "Host \(name) is not registered here: send Hello."))
            )
            return
        }
        record.lastSeen = time.now
        guard !record.up else {
            hosts[name] = record
            return
        }
        hosts[name] = record
        withdrawDeliveries(to: name)
        record = hosts[name] ?? record
        record.liveness = .up(peer: sender, backlogged: false)
        let pending = record.pending
        let stale = record.stale
        record.pending = []
        record.stale = false
        hosts[name] = record
        publishHostEvent(.hostUp(host: name, pid: Int(record.pid)))
        log(.info, "host up again", ["host.name": "\(name)", "host.restored": "\(stale)"])
        catchUp(name, on: sender, pending: pending, stale: stale)
    }

    mutating func hostLeft(_ name: String, from sender: [UInt8]) {
        guard hostNames[sender] == name else { return }
        markDown(name, reason: "said goodbye", connectionGone: true)
    }

    /// Liveness is judged on evidence: the time the supervisor's own loop was held up past its longest sleep (a
    /// heartbeat interval, ``nextWakeUp()``) — SIGSTOP, a starved CPU, a long step — does not count against a host,
    /// whose heartbeats of that time are still queued unread. Each host's silence is shortened by it, so a host is
    /// declared down only after `heartbeatTimeout` of the supervisor being awake to hear it.
    mutating func creditStall() {
        let now = time.now
        let held = now - lastTick - config.heartbeatInterval
        lastTick = now
        guard held > .zero else { return }
        for (name, record) in hosts where record.up {
            hosts[name]?.lastSeen = min(now, record.lastSeen + held)
        }
        log(
            .notice,
            "the supervisor was held up: its hosts' silence during that time is not counted",
            ["supervisor.held_ms": "\(held.milliseconds)"]
        )
    }

    mutating func checkHeartbeats() {
        let now = time.now
        for (name, record) in hosts where record.up && now - record.lastSeen > config.heartbeatTimeout {
            markDown(name, reason: "missed its heartbeats")
        }
    }

    /// A host process the supervisor started ended (`reason`: its exit status or signal): it is down now, without
    /// waiting for its heartbeats to stop.
    mutating func hostExited(_ name: String, reason: String) {
        markDown(name, reason: reason, connectionGone: true)
    }

    /// The restart policy gave up on a host: `hostFailed`, and commands for its controllers are refused at once.
    mutating func hostFailed(_ name: String, reason: String) {
        guard var record = hosts[name], record.failed == nil else { return }
        if let peer = record.routingID { hostNames[peer] = nil }
        record.liveness = .failed(reason)
        hosts[name] = record
        failedHosts.insert(name)
        failCalls(on: name, reason: reason)
        abandonQuestions(on: name)
        updateAnsweringKinds()
        publishHostEvent(.hostFailed(host: name, reason: reason))
        log(
            .error,
            "host failed: not restarted again",
            ["host.name": "\(name)", "error.message": "\(reason)"]
        )
    }

    /// A host is down: silent on its connection, or (`connectionGone`) that connection is gone too — then only a new
    /// Hello brings it back. Its deliveries not sent yet are kept, its calls and questions given up.
    mutating func markDown(_ name: String, reason: String, connectionGone: Bool = false) {
        guard let record = hosts[name] else { return }
        if connectionGone, let peer = record.routingID {
            hostNames[peer] = nil
            if !record.up { hosts[name]?.liveness = .away }
        }
        guard case .up(let peer, _) = record.liveness else { return }
        hosts[name]?.liveness = connectionGone ? .away : .silent(peer: peer)
        withdrawDeliveries(to: name)
        failCalls(on: name, reason: reason)
        abandonQuestions(on: name)
        updateAnsweringKinds()
        publishHostEvent(.hostDown(host: name, reason: reason))
        log(.warning, "host down", ["host.name": "\(name)", "error.message": "\(reason)"])
    }
}

extension Event {
    /// Whether the supervisor delivers it to the host of its controller: callbacks, creations and destructions.
    var isDelivered: Bool {
        switch self {
        case .controllerCreated, .controllerDestroyed: true
        default: isCallback
        }
    }
}
