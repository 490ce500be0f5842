/// A ZAP handler (ZeroMQ RFC 27): libzmq asks it, over `inproc://zeromq.zap.01` in the same context, whether each
/// peer that completed a CURVE (or other) handshake with a server socket may connect. Its answer's user id is then
/// attached to every message from that peer (``Socket/receive(dontWait:property:)`` with `"User-Id"`).
///
/// Polled by its owner's loop (``socket``, then ``handlePending(_:)``): a handshake waits until it is answered.
public final class ZapHandler {
    public static let endpoint = "inproc://zeromq.zap.01"

    /// One request: the mechanism (`CURVE`, `PLAIN`, `NULL`), the peer's address and, for CURVE, its public key.
    public struct Request: Sendable, Equatable {
        public var domain: String
        public var address: String
        public var mechanism: String
        public var curveKey: CurveKey?
    }

    public let socket: Socket

    /// Binds the handler's REP socket in `context` (one per context).
    public init(context: Context) throws(ZMQError) {
        socket = try context.socket(.rep)
        try socket.bind(Self.endpoint)
    }

    /// Unbinds (at once: another handler may bind in this context right after) and closes the socket.
    public func close() {
        try? socket.unbind(Self.endpoint)
        socket.close()
    }

    /// Answers every request waiting: `decide` returns the user id of an admitted peer, `nil` to refuse it. A request
    /// that is not RFC 27's is refused.
    public func handlePending(_ decide: (Request) -> String?) throws(ZMQError) {
        while let frames = try socket.receive(dontWait: true) {
            let version = frames.first ?? []
            let requestID = frames.count > 1 ? frames[1] : []
            var answer: (code: String, text: String, user: String) = ("400", "malformed ZAP request", "")
            if frames.count >= 6, version == Array("1.0".utf8) {
                let mechanism = String(decoding: frames[5], as: UTF8.self)
                let key = mechanism == "CURVE" && frames.count >= 7 ? try? CurveKey(bytes: frames[6]) : nil
                let request = Request(
                    domain: String(decoding: frames[2], as: UTF8.self),
                    address: String(decoding: frames[3], as: UTF8.self),
                    mechanism: mechanism,
                    curveKey: key
                )
                if let user = decide(request) {
                    answer = ("200", "OK", user)
                } else {
                    answer = ("400", "not allowed", "")
                }
            }
            try socket.send([
                Array("1.0".utf8), requestID, Array(answer.code.utf8), Array(answer.text.utf8), Array(answer.user.utf8),
                [],
            ])
        }
    }
}
