import ContainmentBus
import ContainmentModel

/// What a step of the core does, as values: a journal record, an event or a heartbeat on the PUB, a message to a
/// peer as the peer reads it. The core hands the loop its step already encoded — each event encoded once, its bytes
/// reused for the publication, the host's delivery and the reply — and ``SupervisorStep/actions()`` reads it back:
/// what the core's tests assert, and what a tool shows of a step.
enum SupervisorAction {
    case journal(JournalEntry)
    case publish(BusEvent)
    case heartbeat(BusHeartbeat)
    case send(to: [UInt8], HostInbound)
}

extension SupervisorStep {
    /// Its journal records, then what goes out, in order (`malformed` for bytes that do not decode: a bug).
    func actions() throws(ContainmentError) -> [SupervisorAction] {
        var actions: [SupervisorAction] = []
        for record in records { actions.append(.journal(try JournalEntry(decoding: record))) }
        for message in outgoing {
            switch message {
            case .publish(let topic, let body):
                guard case .event(let event)? = Publication(frames: [topic, body]) else {
                    throw .malformed("a published event does not decode")
                }
                actions.append(.publish(event))
            case .heartbeat(let body):
                guard case .heartbeat(let beat)? = Publication(frames: [Publication.heartbeatFrame, body]) else {
                    throw .malformed("a heartbeat does not decode")
                }
                actions.append(.heartbeat(beat))
            case .send(let peer, let body, _):
                actions.append(.send(to: peer, try HostInbound(decoding: body)))
            }
        }
        return actions
    }
}
