internal import CZeroMQ

/// Readiness conditions of a socket, for ``Poller`` and ``Socket/events``.
public struct PollEvents: OptionSet, Hashable, Sendable {
    /// The libzmq bits (`ZMQ_POLLIN`, `ZMQ_POLLOUT`).
    public let rawValue: Int16

    /// Wraps libzmq poll bits.
    public init(rawValue: Int16) {
        self.rawValue = rawValue
    }

    /// At least one message can be received without blocking (`ZMQ_POLLIN`).
    public static let readable = PollEvents(rawValue: Int16(ZMQ_POLLIN))
    /// At least one message can be sent without blocking (`ZMQ_POLLOUT`).
    public static let writable = PollEvents(rawValue: Int16(ZMQ_POLLOUT))
}

/// Waits until one of several sockets is ready (`zmq_poll`).
///
/// A poller holds its sockets, so like ``Socket`` it is not `Sendable`: it can only be used, with its sockets, in
/// one isolation domain at a time.
public struct Poller {
    /// A socket that ``poll(timeout:)`` found ready.
    public struct Ready {
        /// The socket, as registered.
        public let socket: Socket
        /// The position of the socket in ``Poller/sockets`` (registration order).
        public let index: Int
        /// The conditions, among those registered for, that hold.
        public let events: PollEvents
    }

    private var entries: [(socket: Socket, interest: PollEvents)] = []

    /// An empty poller.
    public init() {}

    /// The registered sockets, in registration order.
    public var sockets: [Socket] {
        entries.map(\.socket)
    }

    /// Registers `socket` for `events`, or replaces the events of an already registered socket.
    public mutating func register(_ socket: Socket, for events: PollEvents = .readable) {
        if let index = entries.firstIndex(where: { $0.socket === socket }) {
            entries[index].interest = events
        } else {
            entries.append((socket, events))
        }
    }

    /// Removes `socket`; does nothing when it is not registered.
    public mutating func unregister(_ socket: Socket) {
        entries.removeAll { $0.socket === socket }
    }

    /// Waits until at least one registered socket is ready for the events it was registered for, or until
    /// `timeout` elapses. When a signal interrupts the wait (`EINTR`), it resumes for the remaining time.
    ///
    /// - Parameter timeout: The longest wait (rounded up to whole milliseconds); `.zero` checks without waiting;
    ///   `nil` waits until a socket is ready.
    /// - Returns: The ready sockets in registration order; empty when the timeout elapsed first.
    /// - Throws: ``ZMQError``: ``ZMQError/Code/notSocket`` when a registered socket is closed,
    ///   ``ZMQError/Code/contextTerminated`` when a socket's context was shut down, ``ZMQError/Code/invalidArgument``
    ///   for a negative timeout or a poller without sockets and without timeout (it would wait forever).
    public func poll(timeout: Duration?) throws(ZMQError) -> [Ready] {
        let operation = "zmq_poll(\(entries.count) sockets)"
        var totalMilliseconds: Int64 = -1
        if let timeout {
            guard let milliseconds = timeout.roundedUpMilliseconds else {
                throw ZMQError(.invalidArgument, operation: "\(operation) with timeout \(timeout)")
            }
            totalMilliseconds = milliseconds
        } else if entries.isEmpty {
            throw ZMQError(.invalidArgument, operation: "\(operation) without timeout")
        }
        var items: [zmq_pollitem_t] = []
        items.reserveCapacity(entries.count)
        for entry in entries {
            let handle = try entry.socket.openHandle(operation)
            items.append(zmq_pollitem_t(socket: handle, fd: 0, events: entry.interest.rawValue, revents: 0))
        }
        let clock = ContinuousClock()
        let start = clock.now
        let count = CInt(items.count)
        try zmqCall(operation) {
            // Recomputed on every attempt, so a call retried after EINTR only waits for the remaining time.
            zmq_poll(&items, count, Self.remaining(totalMilliseconds, since: start, on: clock))
        }
        return items.enumerated().compactMap { index, item in
            let events = PollEvents(rawValue: item.revents).intersection(entries[index].interest)
            return events.isEmpty ? nil : Ready(socket: entries[index].socket, index: index, events: events)
        }
    }

    /// The `zmq_poll` timeout left out of `total` milliseconds (-1: forever) since `start`.
    private static func remaining(
        _ total: Int64,
        since start: ContinuousClock.Instant,
        on clock: ContinuousClock
    ) -> Int {
        guard total > 0 else {
            return Int(clamping: total)
        }
        let elapsed = start.duration(to: clock.now).roundedUpMilliseconds ?? total
        return Int(clamping: max(0, total - elapsed))
    }
}

/// Pollers hold sockets, which are deliberately not `Sendable`: see ``Socket``.
@available(*, unavailable)
extension Poller: Sendable {}

/// Results hold sockets, which are deliberately not `Sendable`: see ``Socket``.
@available(*, unavailable)
extension Poller.Ready: Sendable {}
