/// Requests the supervisor forwarded to hosts (inspects, trace requests), each under an id of its own, until they are
/// answered or their deadline passes.
struct NumberedRequests<Request> {
    private var pending: [UInt64: Request] = [:]
    private var nextID: UInt64 = 1

    var isEmpty: Bool { pending.isEmpty }
    var values: Dictionary<UInt64, Request>.Values { pending.values }

    /// Keeps `request`; returns the id it goes under.
    mutating func add(_ request: Request) -> UInt64 {
        let id = nextID
        nextID += 1
        pending[id] = request
        return id
    }

    subscript(id: UInt64) -> Request? {
        get { pending[id] }
        set { pending[id] = newValue }
    }

    /// The requests that match, forgotten, in the order they were added.
    mutating func take(where matches: (Request) -> Bool) -> [Request] {
        let taken = pending.filter { matches($0.value) }.sorted { $0.key < $1.key }
        for (id, _) in taken { pending[id] = nil }
        return taken.map(\.value)
    }
}
