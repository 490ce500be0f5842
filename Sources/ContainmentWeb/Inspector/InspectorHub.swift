import Foundation

/// What the inspector's pages share: the latest state, the latest events (a bounded window), and each open page's
/// stream of server-sent events. A page that connects gets the state and the events kept, then everything live.
actor InspectorHub {
    /// Events kept for a page that connects late.
    static let kept = 500

    private(set) var state = "{}"
    private var recent: [String] = []
    private var pages: [UUID: AsyncStream<String>.Continuation] = [:]

    /// One server-sent event: its type and its JSON, on one `data:` line.
    static func message(_ type: String, _ json: String) -> String { "event: \(type)\ndata: \(json)\n\n" }

    func apply(_ update: InspectorUpdate) {
        let message: String
        switch update {
        case .state(let json):
            state = json
            message = Self.message("state", json)
        case .event(let json):
            recent.append(json)
            // Trimmed in chunks, so keeping the window costs O(1) an event.
            if recent.count > 2 * Self.kept { recent.removeFirst(recent.count - Self.kept) }
            message = Self.message("event", json)
        }
        for page in pages.values { page.yield(message) }
    }

    /// A page's stream: the state and the events kept, then each update. A page that reads slower than the updates
    /// come loses the oldest it has not read (bounded), and its seq shows the gap.
    func subscribe() -> AsyncStream<String> {
        let (stream, continuation) = AsyncStream.makeStream(of: String.self, bufferingPolicy: .bufferingNewest(2_000))
        let id = UUID()
        for event in recent.suffix(Self.kept) { continuation.yield(Self.message("event", event)) }
        continuation.yield(Self.message("state", state))
        pages[id] = continuation
        continuation.onTermination = { _ in Task { await self.leave(id) } }
        return stream
    }

    private func leave(_ id: UUID) { pages[id] = nil }

    /// A comment line to every page: a page whose connection is gone fails the write and leaves.
    func keepAlive() {
        for page in pages.values { page.yield(": keep-alive\n\n") }
    }

    /// Ends every page's stream (the inspector stops): their responses finish, so the server can stop.
    func close() {
        for page in pages.values { page.finish() }
        pages = [:]
    }
}
