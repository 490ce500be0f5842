import ContainmentConfig
import ContainmentBus
import ContainmentModel
import Logging

/// Peers that read their replies slower than they are answered (``ReplyQueues``): a snapshot, the largest thing the
/// supervisor builds for a peer, is refused while their unread replies wait past half of
/// `replyQueueBytes`, or once that much was built for them in one step (the core answers a whole batch of requests
/// before any of it is sent); and what the supervisor drops is said in its log.
extension SupervisorCore {
    mutating func repliesChanged(_ change: ReplyQueues.Change) {
        switch change {
        case .backedUp(let peer, let bytes): backedUp[peer] = bytes
        case .caughtUp(let peer): backedUp[peer] = nil
        case .overflowed(let peer, let bytes):
            // At most one line per peer per 10 s, with how many were held back.
            guard let held = replyWarnings.allow(peer, at: time.now) else { return }
            log(
                .warning,
                "a peer does not read its replies: those past replyQueueBytes are dropped",
                [
                    "peer.id": "\(Self.peerID(peer))",
                    "reply.waiting_bytes": "\(bytes)", "reply.queue_bytes": "\(config.replyQueueBytes)",
                    "peer.held_back_count": "\(held)",
                ]
            )
        case .gone(let peer): unreachable(peer)
        }
    }

    /// Answers `requestID` of `peer` with what `build` makes, counting its bytes — or, cheaply and before anything is
    /// built, refuses it `limitExceeded` when the peer's unread replies are too many (`what`: what was not built).
    mutating func build(
        for peer: [UInt8],
        requestID: UInt64,
        what: String,
        _ build: (inout SupervisorCore) -> (reply: SupervisorReply, bytes: Int)
    ) {
        let built = builtThisStep[peer, default: 0]
        guard let unread = backedUp[peer] ?? (built >= config.replyQueueBytes / 2 ? built : nil) else {
            let (reply, bytes) = build(&self)
            builtThisStep[peer] = built + bytes
            emit(.reply(to: peer, requestID: requestID, reply))
            return
        }
        let error = ContainmentError(
            .limitExceeded,
            """
            \(what) was not built: \(unread) bytes of replies wait unread on this connection, half of what the \
            supervisor keeps for one (replyQueueBytes, \(config.replyQueueBytes)). Read the replies, then ask again.
            """
        )
        emit(.reply(to: peer, requestID: requestID, .message(.refused(error))))
    }
}
