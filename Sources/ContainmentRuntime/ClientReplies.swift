/// Exactly once (SPEC §14): the answers the supervisor gave to each client id's latest requests, so that a resend of
/// one (same client id, same request id, after a reconnection) is answered again instead of applied again.
///
/// Bounded: at most `window` answers per client id (a client pipelining more requests than that cannot have a lost
/// one answered again) and `clients` client ids, the least recently active forgotten first. Rebuilt from the journal
/// at recovery (its records carry the client id and request id).
struct ClientReplies {
    private struct Client {
        var answers: [UInt64: SupervisorReply] = [:]
        var order: [UInt64] = []
        var lastActive: UInt64 = 0
    }

    let window: Int
    let limit: Int
    private var clients: [String: Client] = [:]
    private var tick: UInt64 = 0

    init(window: Int, clients: Int) {
        self.window = max(1, window)
        limit = max(1, clients)
    }

    var count: Int { clients.count }

    /// The answer given to `requestID` of `client`, if it is remembered.
    func answer(client: String, requestID: UInt64) -> SupervisorReply? {
        clients[client]?.answers[requestID]
    }

    /// Remembers the answer to a request.
    mutating func remember(client: String, requestID: UInt64, answer: SupervisorReply) {
        guard !client.isEmpty else { return }
        tick += 1
        let (window, tick) = (window, tick)
        // Changed in place (the dictionary's access yields it): a copy would copy its answers at every request.
        { (record: inout Client) in
            if record.answers.updateValue(answer, forKey: requestID) == nil { record.order.append(requestID) }
            if record.order.count > window {
                let dropped = record.order.count - window
                for id in record.order[..<dropped] { record.answers[id] = nil }
                record.order.removeFirst(dropped)
            }
            record.lastActive = tick
        }(&clients[client, default: Client()])
        if clients.count > limit { forgetLeastActive() }
    }

    /// Every remembered answer: the clients least recently active first, each one's answers oldest first. Remembering
    /// them in this order into an empty value gives this value back (a checkpoint).
    var entries: [(client: String, answers: [(requestID: UInt64, answer: SupervisorReply)])] {
        clients.sorted { $0.value.lastActive < $1.value.lastActive }.map { client, record in
            (client, record.order.compactMap { id in record.answers[id].map { (id, $0) } })
        }
    }

    /// Forgets the least recently active tenth of the clients (at least one), so eviction is amortized.
    private mutating func forgetLeastActive() {
        let excess = max(1, limit / 10)
        let oldest = clients.sorted { $0.value.lastActive < $1.value.lastActive }.prefix(excess)
        for (client, _) in oldest { clients[client] = nil }
    }
}
