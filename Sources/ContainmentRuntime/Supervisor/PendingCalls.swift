import ContainmentConfig
import ContainmentBus
import ContainmentModel

/// Typed method calls (`Invoke.call`) waiting for their method's outcome: the caller's request is answered when the
/// host that runs the controller sends it (``SupervisorCore/callAnswered(_:from:)``), or with `hostUnavailable` when
/// that host goes down first.
struct PendingCalls {
    struct Call {
        var peer: [UInt8]
        var requestID: UInt64
        var clientID: String
        var commandID: UInt64
        var controller: ControllerID
        var host: String
        /// The batch's events: the accepted reply carries them with the result.
        var events: [StampedEvent]
    }

    /// By the seq of the call's `verbInvoked` event.
    private(set) var bySeq: [UInt64: Call] = [:]
    /// A caller's resend while the method runs: by client id and request id.
    private var byRequest: [RequestKey: UInt64] = [:]

    private struct RequestKey: Hashable {
        var client: String
        var request: UInt64
    }

    /// At most this many calls wait at once; one more is refused `limitExceeded`.
    static let limit = 10_000

    var count: Int { bySeq.count }

    mutating func add(_ call: Call, seq: UInt64) {
        bySeq[seq] = call
        if !call.clientID.isEmpty { byRequest[RequestKey(client: call.clientID, request: call.requestID)] = seq }
    }

    /// The call a resend names, now answered to `peer` (the caller's connection may have changed); false when none
    /// waits.
    mutating func resent(client: String, requestID: UInt64, from peer: [UInt8]) -> Bool {
        guard !client.isEmpty, let seq = byRequest[RequestKey(client: client, request: requestID)] else { return false }
        bySeq[seq]?.peer = peer
        return true
    }

    mutating func remove(_ seq: UInt64) -> Call? {
        guard let call = bySeq.removeValue(forKey: seq) else { return nil }
        byRequest[RequestKey(client: call.clientID, request: call.requestID)] = nil
        return call
    }

    /// Removes and returns the calls waiting for `host`, oldest first.
    mutating func removeAll(on host: String) -> [(seq: UInt64, call: Call)] {
        let seqs = bySeq.filter { $0.value.host == host }.keys.sorted()
        return seqs.compactMap { seq in remove(seq).map { (seq, $0) } }
    }
}
