internal import CZeroMQ

/// The ZeroMQ socket types (patterns) this wrapper supports.
public enum SocketType: CaseIterable, Sendable, CustomStringConvertible {
    /// Publisher of a publish-subscribe pattern: sends to all matching subscribers, never receives.
    case pub
    /// Subscriber of a publish-subscribe pattern: receives messages matching its subscriptions, never sends.
    case sub
    /// Publisher that also receives the subscription messages (`0x01` or `0x00` followed by the topic).
    case xpub
    /// Subscriber that sends subscriptions as messages (`0x01` or `0x00` followed by the topic).
    case xsub
    /// Asynchronous request side: load-balances outgoing messages, fair-queues incoming ones.
    case dealer
    /// Asynchronous reply side: prepends the sender's routing id to received messages, routes by the first frame.
    case router
    /// Pipeline producer: load-balances messages to the connected pullers.
    case push
    /// Pipeline consumer: fair-queues messages from the connected pushers.
    case pull
    /// Synchronous request side: strict send, receive, send, ... alternation.
    case req
    /// Synchronous reply side: strict receive, send, receive, ... alternation.
    case rep
    /// Exclusive one-to-one connection.
    case pair

    /// The ZeroMQ name of the type, e.g. `"ROUTER"`.
    public var description: String {
        switch self {
        case .pub: "PUB"
        case .sub: "SUB"
        case .xpub: "XPUB"
        case .xsub: "XSUB"
        case .dealer: "DEALER"
        case .router: "ROUTER"
        case .push: "PUSH"
        case .pull: "PULL"
        case .req: "REQ"
        case .rep: "REP"
        case .pair: "PAIR"
        }
    }

    /// The libzmq constant for `zmq_socket`.
    var rawValue: CInt {
        switch self {
        case .pub: ZMQ_PUB
        case .sub: ZMQ_SUB
        case .xpub: ZMQ_XPUB
        case .xsub: ZMQ_XSUB
        case .dealer: ZMQ_DEALER
        case .router: ZMQ_ROUTER
        case .push: ZMQ_PUSH
        case .pull: ZMQ_PULL
        case .req: ZMQ_REQ
        case .rep: ZMQ_REP
        case .pair: ZMQ_PAIR
        }
    }
}
