import ContainmentConfig
import ContainmentModel

extension SupervisorCore {
    /// A host as the supervisor knows it: whether and how it is connected, what waits for it, what its code runs.
    struct HostRecord {
        /// A host's lifecycle: every state it can be in, and nothing else (a failed host is not connected, a host away
        /// has no backlog).
        enum Liveness: Equatable {
            /// Not connected: never registered with this supervisor, or its connection is gone (it said goodbye, its
            /// process exited, libzmq dropped its routing id).
            case away
            /// Registered on `peer` but silent past `heartbeatTimeout`: declared down; a heartbeat on that connection
            /// brings it back.
            case silent(peer: [UInt8])
            /// Registered on `peer` and heard from. `backlogged`: its connection was found full (it takes deliveries
            /// slower than they come: back-pressure from its actors' mailboxes), so deliveries wait in `pending`, in
            /// order, and are sent again from the next ``SupervisorCore/tick(at:)`` on.
            case up(peer: [UInt8], backlogged: Bool)
            /// Given up on by its restart policy (`hostFailed`, with the reason): commands for its controllers are
            /// refused until it registers again.
            case failed(String)
        }

        var name: String
        var liveness = Liveness.away
        var pid: Int32 = 0
        var lastSeen: ContinuousClock.Instant
        /// Callbacks for its controllers while it is not connected, delivered when it (re)connects.
        var pending: [StampedEvent] = []
        /// More callbacks came due while it was away than `pendingDeliveries` keeps: they were dropped, and its actors
        /// are brought up to date with `restored` when it returns.
        var stale = false
        /// The highest seq given to its connection in a delivery that did not come back (0: none since it was
        /// welcomed). A host that greets again saying it received less lost the rest with its connection.
        var lastSent: UInt64 = 0
        /// How many times its connection was found full, and when that was last logged (at most one line per
        /// ``SupervisorCore/backlogLogInterval``).
        var backlogs = 0
        var backlogLogged: ContinuousClock.Instant?
        var everConnected = false
        /// A host the journal shows registered that has not greeted this supervisor yet (it took over, or restarted):
        /// until then it is placed on as one that is up — its callbacks kept for its greeting — rather than a command
        /// being refused `hostUnavailable` while it is on its way (issue 42). Nil once it greeted, or never was.
        var expectedUntil: ContinuousClock.Instant?
        /// Registrations from distinct processes (the welcome's `incarnation`).
        var incarnation: UInt32 = 0
        /// The verbs its custom kinds expose, by kind, as its last Hello said; `nil` before it registered with this
        /// supervisor.
        var verbs: [String: [String]]?
        /// The questions its kinds' code answers, by kind, as its last Hello said.
        var questions: [String: Set<Question.Name>] = [:]
        /// The verbs its container kinds require of their children (SPEC §16), by kind, as its last Hello said.
        var requires: [String: [String]] = [:]
        /// Its kinds' typed methods, by kind, as its last Hello said.
        var methods: [String: [MethodDescription]] = [:]

        init(name: String, lastSeen: ContinuousClock.Instant) {
            self.name = name
            self.lastSeen = lastSeen
        }

        /// Connected and heard from.
        var up: Bool {
            if case .up = liveness { true } else { false }
        }

        /// Up, or expected to greet by `now` (``expectedUntil``): a controller may be placed on it.
        func takesControllers(at now: ContinuousClock.Instant) -> Bool {
            up || expectedUntil.map { now < $0 } == true
        }

        /// The connection it registered on, while it is known (up or silent).
        var routingID: [UInt8]? {
            switch liveness {
            case .up(let peer, _), .silent(let peer): peer
            case .away, .failed: nil
            }
        }

        /// Why its restart policy gave up on it.
        var failed: String? {
            if case .failed(let reason) = liveness { reason } else { nil }
        }

        /// Up, with deliveries waiting for its connection to take them.
        var backlogged: Bool {
            if case .up(_, backlogged: true) = liveness { true } else { false }
        }
    }
}
