import ContainmentConfig
import ContainmentBus
import DequeModule

/// Exactly once (SPEC §14): the answers the supervisor gave to each client id's latest requests, so that a resend of
/// one (same client id, same request id, after a reconnection) is answered again instead of applied again.
///
/// Bounded in count: at most `window` answers per client id (a client pipelining more requests than that cannot have a
/// lost one answered again) and `clients` client ids, the least recently active forgotten first. Bounded in bytes: an
/// answer is kept whole only up to ``largestWhole`` bytes, and whole answers together up to `bytes`, the oldest made
/// smaller first. An answer made smaller keeps what exactly-once needs — its command id, and the seqs of the events it
/// carried (``SupervisorReply/elided(commandID:firstSeq:count:)``) — so a resend inside the window is still never
/// applied again; only its events (published, and in the journal) are not repeated. Rebuilt from the journal at
/// recovery (its records carry the client id and request id).
struct ClientReplies {
    /// What it keeps at most (runtime.yaml's `dedupWindow`, `dedupClients`, `answerCacheBytes`).
    struct Limits {
        var window: Int
        var clients: Int
        var bytes: Int

        init(window: Int, clients: Int, bytes: Int = 64 << 20) {
            self.window = max(1, window)
            self.clients = max(1, clients)
            self.bytes = max(0, bytes)
        }

        init(_ config: RuntimeConfig) {
            self.init(window: config.dedupWindow, clients: config.dedupClients, bytes: config.answerCacheBytes)
        }
    }

    /// The largest answer kept whole, in bytes as ``SupervisorReply/keptBytes`` counts them (about 600 events).
    static let largestWhole = 64 << 10

    private struct Client {
        var answers: [UInt64: SupervisorReply] = [:]
        var order: [UInt64] = []
        var lastActive: UInt64 = 0
    }

    let limits: Limits
    var window: Int { limits.window }
    private var clients: [String: Client] = [:]
    private var tick: UInt64 = 0
    /// The whole answers that carry events, oldest first (some may be gone or made smaller since: skipped).
    private var whole: Deque<(client: String, requestID: UInt64)> = []
    /// The bytes of the whole answers with events (as ``SupervisorReply/keptBytes`` counts them), and how many.
    private(set) var wholeBytes = 0
    private var wholeCount = 0
    /// Answers made smaller, since the start: too large to keep whole, or to keep ``wholeBytes`` within budget.
    private(set) var elided = 0

    init(_ limits: Limits) {
        self.limits = limits
    }

    init(window: Int, clients: Int, bytes: Int = 64 << 20) {
        self.init(Limits(window: window, clients: clients, bytes: bytes))
    }

    var count: Int { clients.count }

    /// The answer given to `requestID` of `client`, if it is remembered.
    func answer(client: String, requestID: UInt64) -> SupervisorReply? {
        clients[client]?.answers[requestID]
    }

    /// Whether an accepted answer of `events` events would be kept whole.
    func keepsWhole(events: Int) -> Bool {
        let bytes = SupervisorReply.keptBytes(events: events)
        return bytes <= Self.largestWhole && bytes <= limits.bytes
    }

    /// Remembers the answer to a request: whole if it is small enough, else without its events.
    mutating func remember(client: String, requestID: UInt64, answer given: SupervisorReply) {
        guard !client.isEmpty else { return }
        var answer = given
        var isWhole = answer.elidable
        if isWhole, answer.keptBytes > min(Self.largestWhole, limits.bytes) {
            answer = answer.elided
            isWhole = false
            elided += 1
        }
        tick += 1
        let (window, tick) = (window, tick)
        // What the answers replaced or past the window took (no array: this runs for every request).
        var freed = (bytes: 0, count: 0)
        func free(_ old: SupervisorReply) {
            guard old.elidable else { return }
            freed.bytes += old.keptBytes
            freed.count += 1
        }
        // Changed in place (the dictionary's access yields it): a copy would copy its answers at every request.
        { (record: inout Client) in
            if let old = record.answers.updateValue(answer, forKey: requestID) {
                free(old)
            } else {
                record.order.append(requestID)
            }
            if record.order.count > window {
                let dropped = record.order.count - window
                for id in record.order[..<dropped] {
                    if let old = record.answers.removeValue(forKey: id) { free(old) }
                }
                record.order.removeFirst(dropped)
            }
            record.lastActive = tick
        }(&clients[client, default: Client()])
        wholeBytes -= freed.bytes
        wholeCount -= freed.count
        if isWhole {
            whole.append((client, requestID))
            wholeBytes += answer.keptBytes
            wholeCount += 1
        }
        if clients.count > limits.clients { forgetLeastActive() }
        keepWithinBudget()
    }

    /// Every remembered answer: the clients least recently active first, each one's answers oldest first. Remembering
    /// them in this order into an empty value gives this value back (a checkpoint).
    var entries: [(client: String, answers: [(requestID: UInt64, answer: SupervisorReply)])] {
        clients.sorted { $0.value.lastActive < $1.value.lastActive }.map { client, record in
            (client, record.order.compactMap { id in record.answers[id].map { (id, $0) } })
        }
    }

    /// An answer no longer kept: its bytes no longer count.
    private mutating func forgot(_ answer: SupervisorReply) {
        guard answer.elidable else { return }
        wholeBytes -= answer.keptBytes
        wholeCount -= 1
    }

    /// Makes the oldest whole answers smaller until the whole ones fit the budget; drops the queue's stale entries
    /// when they outnumber the live ones (so it stays within twice the answers kept).
    private mutating func keepWithinBudget() {
        while wholeBytes > limits.bytes, let (client, requestID) = whole.popFirst() {
            guard let answer = clients[client]?.answers[requestID], answer.elidable else { continue }
            forgot(answer)
            clients[client]?.answers[requestID] = answer.elided
            elided += 1
        }
        if whole.count > 2 * wholeCount + 1_024 {
            whole = Deque(whole.filter { clients[$0.client]?.answers[$0.requestID]?.elidable == true })
        }
    }

    /// Forgets the least recently active tenth of the clients (at least one), so eviction is amortized.
    private mutating func forgetLeastActive() {
        let excess = max(1, limits.clients / 10)
        let oldest = clients.sorted { $0.value.lastActive < $1.value.lastActive }.prefix(excess)
        for (client, record) in oldest {
            for answer in record.answers.values { forgot(answer) }
            clients[client] = nil
        }
    }
}

extension SupervisorReply {
    /// What keeping it costs, in bytes: its events at their size in memory, its texts; about what it takes in the
    /// supervisor, counted without encoding it.
    var keptBytes: Int {
        switch self {
        case .accepted(_, let events, let result): Self.keptBytes(events: events.count) + (result?.utf8.count ?? 0)
        case .elided: 64
        case .message(let message): 64 + (message.refusal?.error.message.utf8.count ?? 0)
        case .recorded(let bytes, _): 32 + bytes.count
        case .snapshot(let shared): 32 + shared.encoded.count
        }
    }

    /// What keeping an accepted answer of `events` events costs.
    static func keptBytes(events: Int) -> Int { 64 + events * MemoryLayout<StampedEvent>.stride }

    /// Whether it carries events that ``elided`` would leave out (so it counts against the budget).
    var elidable: Bool {
        switch self {
        case .accepted(_, let events, _): !events.isEmpty
        case .recorded(_, let events): events != nil
        case .elided, .message, .snapshot: false
        }
    }

    /// The same answer without its events (and a typed call's result): its command id and its events' seqs.
    var elided: SupervisorReply {
        switch self {
        case .accepted(let commandID, let events, _):
            guard let first = events.first else { return self }
            return .elided(
                AnswerEvents(commandID: commandID, firstSeq: first.seq, count: UInt32(clamping: events.count))
            )
        case .recorded(_, let events): return events.map { .elided($0) } ?? self
        case .elided, .message, .snapshot: return self
        }
    }

    /// A recorded answer (a checkpoint's bytes), with its command id and events' seqs when it is an accepted one with
    /// events of more than `smallest` bytes (a smaller one is not worth reading: kept as it is).
    static func recorded(_ bytes: [UInt8], readingAbove smallest: Int) -> SupervisorReply {
        guard bytes.count > smallest, let found = CommandReply.acceptedEvents(in: bytes) else {
            return .recorded(bytes)
        }
        return .recorded(
            bytes,
            events: AnswerEvents(commandID: found.commandID, firstSeq: found.firstSeq, count: found.count)
        )
    }
}
