import ContainmentBus
import ContainmentModel
import Logging

/// What a host's core is told: its start, a message of the supervisor it talks to, a probe's answer, a dropped
/// connection, and the passing of time (issue 41: the host as a value that returns actions, as the supervisor is).
package enum HostInput {
    /// The host begins: it greets the supervisor.
    case start
    /// A message of the supervisor talked to.
    case message(HostInbound)
    /// What supervisor `endpoint` answered a probe (who leads), with several supervisors.
    case probed(endpoint: String, HostInbound)
    /// The connection to `endpoint` dropped (its process died, or a standby that now leads bound its socket anew).
    case dropped(endpoint: String)
    /// Time passes: heartbeats, greetings again, probes.
    case tick
    /// The dispatcher finished this many of the jobs handed to it.
    case jobsDone(Int)
}

/// What a host's core decides, as values; ``HostLoop`` carries them out on sockets, a simulated world in memory.
package enum HostAction {
    /// A message to the supervisor talked to.
    case send(HostOutbound)
    /// Leave the supervisor talked to for this one (a new connection; the probes' unread answers are old: dropped).
    case connect(to: String)
    /// Ask this supervisor who leads (a heartbeat on its probe socket).
    case probe(String)
    /// Work for the dispatcher, in order: a welcome, callbacks, an inspect, a question.
    case job(HostJob)
    /// A reply an actor's request waits for.
    case resume(HostReply)
    case log(Logger.Level, Logger.Message, Logger.Metadata)
}

/// A host's registration with its supervisor, as a value: it greets (again, with backoff, when not welcomed), beats
/// once welcomed, follows the leader among several supervisors (their answers, and a probe of each every heartbeat
/// interval), and hands what the supervisor sends to the dispatcher in order — reading no more of it while
/// ``maxQueuedJobs`` wait (``readsSupervisor``). ``HostLoop`` runs it on sockets; its time comes with each input.
package struct HostCore {
    /// Request ids of the core's own messages.
    package static let helloID: UInt64 = 1

    package let name: String
    let pid: Int32
    /// The verbs its kinds expose, told in every Hello.
    let kinds: [KindOffer]
    let heartbeatInterval: Duration
    /// Every supervisor's command endpoint, and the one talked to now.
    package let endpoints: [String]
    package private(set) var endpoint: String

    /// Where this host stands with the supervisor.
    enum Registration: Equatable {
        /// Not welcomed (yet, or again: the supervisor restarted): the last hello went at `lastHello` (nil: none yet),
        /// and the next goes `backoff` after it — doubling up to 8 heartbeat intervals.
        case greeting(lastHello: ContinuousClock.Instant?, backoff: Duration)
        /// Welcomed: a heartbeat every interval, the last at `lastBeat`.
        case registered(lastBeat: ContinuousClock.Instant)
    }
    private(set) var registration: Registration
    /// The highest seq delivered to this host so far (told in every Hello).
    package private(set) var lastDelivered: UInt64 = 0
    private var lastProbe: ContinuousClock.Instant
    private var now: ContinuousClock.Instant
    private var actions: [HostAction] = []
    /// Jobs handed to the dispatcher that it has not finished.
    package private(set) var queuedJobs = 0
    /// Jobs that may wait for the dispatcher before the host stops reading the supervisor's messages (256).
    let maxQueuedJobs: Int

    /// Whether the host reads the supervisor's messages now: not while ``maxQueuedJobs`` jobs wait for the dispatcher,
    /// so back-pressure from the actors' mailboxes reaches the supervisor — as a connection that fills up, a `full`
    /// send — instead of memory here. Its heartbeats, its probes' answers and its actors' requests go on meanwhile;
    /// a dropped connection is told once it reads again (the loop polls its monitor with the supervisor's socket).
    package var readsSupervisor: Bool { queuedJobs < maxQueuedJobs }

    package init(
        name: String,
        pid: Int32,
        kinds: [KindOffer],
        heartbeatInterval: Duration,
        endpoints: [String],
        maxQueuedJobs: Int = 256,
        at now: ContinuousClock.Instant
    ) {
        self.name = name
        self.maxQueuedJobs = maxQueuedJobs
        self.pid = pid
        self.kinds = kinds
        self.heartbeatInterval = heartbeatInterval
        self.endpoints = endpoints
        endpoint = endpoints[0]
        registration = .greeting(lastHello: nil, backoff: heartbeatInterval)
        lastProbe = now
        self.now = now
    }

    /// Whether the supervisor has welcomed this host (and not forgotten it since, as far as it knows).
    package var isRegistered: Bool {
        if case .registered = registration { true } else { false }
    }

    package mutating func handle(_ input: HostInput, at now: ContinuousClock.Instant) -> [HostAction] {
        self.now = now
        switch input {
        case .start: hello()
        case .message(let message): receive(message)
        case .probed(let other, let message): probed(other, message)
        case .dropped(let dropped):
            // The supervisor talked to died, or — a standby that now leads — bound its socket anew: greeted again, it
            // answers once it is back; silent, the greeting moves on (`tick`). (Leaving one for another drops the old
            // connection too: that is not news.)
            if dropped == endpoint, endpoints.count > 1 {
                registration = .greeting(lastHello: nil, backoff: heartbeatInterval)
                hello()
            } else if dropped == endpoint, case .greeting = registration {
                // Its one supervisor died while this host greeted in vain, its backoff grown to 8 intervals: the
                // process that comes next hears from it within an interval (a welcomed host learns of it sooner, from
                // the refusal of its next heartbeat).
                registration = .greeting(lastHello: now, backoff: heartbeatInterval)
            }
        case .tick: tick()
        case .jobsDone(let count): queuedJobs = max(0, queuedJobs - count)
        }
        defer { actions = [] }
        return actions
    }

    private mutating func hello() {
        if case .greeting(_, let backoff) = registration {
            registration = .greeting(lastHello: now, backoff: backoff)
        }
        actions.append(
            .send(.hello(requestID: Self.helloID, host: name, pid: pid, lastSeq: lastDelivered, kinds: kinds))
        )
    }

    /// Heartbeats; registration again when the supervisor has not welcomed us (it may have restarted); probes.
    private mutating func tick() {
        if endpoints.count > 1, now - lastProbe >= heartbeatInterval {
            lastProbe = now
            for other in endpoints where other != endpoint { actions.append(.probe(other)) }
        }
        switch registration {
        case .greeting(let last, let backoff):
            if let last, now - last >= backoff {
                registration = .greeting(lastHello: last, backoff: min(backoff * 2, heartbeatInterval * 8))
                // Not welcomed: with several supervisors, the next may lead (or name the one that does).
                if endpoints.count > 1 { connect(to: nextEndpoint) }
                hello()
            }
        case .registered(let lastBeat):
            if now - lastBeat >= heartbeatInterval {
                registration = .registered(lastBeat: now)
                actions.append(.send(.heartbeat(host: name)))
            }
        }
    }

    /// A probe's answer: a standby names the leader, the leader answers anything else. The supervisor talked to is not
    /// probed (its own answers say more): an answer from it is old, dropped.
    private mutating func probed(_ other: String, _ message: HostInbound) {
        guard other != endpoint, case .reply(let reply) = message else { return }
        let leader = reply.notLeader.map { $0.isEmpty ? nil : $0 } ?? other
        if let leader, leader != endpoint, endpoints.contains(leader) { turn(to: leader) }
    }

    private mutating func receive(_ message: HostInbound) {
        switch message {
        case .reply(let reply) where reply.notLeader != nil:
            // A standby: to the leader it names; while none leads, the greeting goes on (tick's backoff).
            if let leader = reply.notLeader, !leader.isEmpty, endpoints.contains(leader) {
                turn(to: leader)
            } else if isRegistered {
                registration = .greeting(lastHello: now, backoff: heartbeatInterval)
            }
        case .welcome(let welcome):
            registration = .registered(lastBeat: now)
            // Restored, its actors are current as of the state's seq: what it says it received counts from there.
            if welcome.restore, welcome.seq > lastDelivered { lastDelivered = welcome.seq }
            actions.append(
                .log(
                    .info,
                    "host registered",
                    ["host.name": "\(name)", "controller.count": "\(welcome.controllers.count)"]
                )
            )
            queue(.adopt(welcome))
        case .delivery(let events, let traces):
            for event in events where event.seq > lastDelivered { lastDelivered = event.seq }
            queue(.deliver(events, traces: traces))
        case .trace(let requestID, let commandID):
            queue(.trace(requestID: requestID, commandID: commandID))
        case .inspect(let requestID, let controller):
            queue(.inspect(requestID: requestID, controller: controller))
        case .question(let question):
            queue(.question(question))
        case .reply(let reply) where reply.requestID == 0 && reply.refusal?.error.code == .hostUnavailable:
            // The supervisor does not know us (it restarted): register again — once, however many heartbeats queued
            // while it was away are refused; `tick` says hello again (with backoff) if no welcome comes.
            guard isRegistered else { return }
            registration = .greeting(lastHello: nil, backoff: heartbeatInterval)
            hello()
        case .reply(let reply) where reply.requestID == Self.helloID:
            if let refusal = reply.refusal?.error {
                actions.append(
                    .log(
                        .error,
                        "the supervisor refused this host",
                        ["error.code": "\(refusal.code)", "error.message": "\(refusal.message)"]
                    )
                )
            }
        case .reply(let reply):
            actions.append(.resume(reply))
        }
    }

    /// Work for the dispatcher, counted until it says the job is done (``HostInput/jobsDone(_:)``).
    private mutating func queue(_ job: HostJob) {
        queuedJobs += 1
        actions.append(.job(job))
    }

    /// Talks to supervisor `next` from now on, and registers with it (it leads, or names who does).
    private mutating func turn(to next: String) {
        guard next != endpoint else { return }
        connect(to: next)
        actions.append(.log(.info, "host turns to another supervisor", ["endpoint.command": "\(next)"]))
        registration = .greeting(lastHello: nil, backoff: heartbeatInterval)
        hello()
    }

    private mutating func connect(to next: String) {
        endpoint = next
        actions.append(.connect(to: next))
    }

    /// The supervisor after the one talked to now.
    private var nextEndpoint: String {
        endpoints[((endpoints.firstIndex(of: endpoint) ?? 0) + 1) % endpoints.count]
    }
}
