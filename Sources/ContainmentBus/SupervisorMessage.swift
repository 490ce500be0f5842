import Foundation
import ContainmentModel

/// A message the supervisor sends a peer of its command socket — a reply to a request, or a message to a host (its
/// welcome, a forwarded inspect, a question) — in model and bus types; ``bytes(requestID:)`` encodes it.
/// Command replies and deliveries, the hot path, are assembled from pre-encoded events (``PreEncoded``) instead.
package struct SupervisorMessage: Sendable {
    let body: ServerMessage.OneOf_Body
    /// With a `notLeader` refusal: the leader's command endpoint ("" while none leads).
    var leader = ""

    /// A standby's answer to any request (`journal: etcd`): it does not lead; `leader` does (nil: no one yet, or —
    /// `etcdUnreachable` — no one can: etcd has no majority).
    package static func notLeader(
        standby name: String,
        leader: (name: String, endpoint: String)?,
        etcdUnreachable: Bool = false
    ) -> Self {
        let message =
            etcdUnreachable
            ? "Supervisor \(name) cannot reach a majority of etcd's members: no supervisor can accept commands until "
                + "it is back (nothing acknowledged is lost)."
            : leader.map { "Supervisor \(name) stands by; \($0.name) leads at \($0.endpoint): send the request there." }
                ?? "Supervisor \(name) stands by, and no supervisor leads yet (a failover is under way): try again "
                + "shortly."
        var refusal = refused(ContainmentError(.notLeader, message))
        refusal.leader = leader?.endpoint ?? ""
        return refusal
    }

    /// The request id of a request's bytes (0 when it has none, or they are not a request).
    package static func requestID(of request: [UInt8]) -> UInt64 {
        ProtobufScan.field1(of: request) ?? 0
    }

    /// A refusal: the error, and where in the sequence it was judged (0: before the rules).
    package static func refused(_ error: RemoteError) -> Self { Self(body: .error(Containment_V1_Error(error))) }

    package static func refused(_ error: ContainmentError) -> Self { refused(RemoteError(error)) }

    /// A refusal as the journal holds it (a rejection's record).
    package static func refused(recorded error: Containment_V1_Error) -> Self { Self(body: .error(error)) }

    package static func snapshot(_ snapshot: BusSnapshot) -> Self { Self(body: .snapshot(snapshot.wire)) }

    /// The metrics, as Prometheus text.
    package static func metrics(_ text: [UInt8]) -> Self { Self(body: .metrics(.with { $0.text = Data(text) })) }

    /// What a controller can be called with.
    package static func methods(_ report: MethodsReport) -> Self { Self(body: .methods(report.wire)) }

    /// A host's report, relayed to the client that asked.
    package static func inspected(_ report: InspectReport) -> Self { Self(body: .inspectReply(report.wire)) }

    /// An inspect of `controller`, forwarded to its host.
    package static func inspect(_ controller: ControllerID) -> Self {
        Self(body: .inspect(.with { $0.controller = controller.rawValue }))
    }

    /// A trace request for command `commandID`, forwarded to a host: the spans its process kept of it.
    package static func trace(_ commandID: UInt64) -> Self { Self(body: .trace(.with { $0.commandID = commandID })) }

    /// The spans kept of a command.
    package static func traced(_ report: TraceReport) -> Self { Self(body: .traceReply(report.wire)) }

    /// The traced commands whose spans are kept, oldest first.
    package static func tracedCommands(_ ids: [UInt64]) -> Self {
        Self(body: .tracedCommands(.with { $0.commandIds = ids }))
    }

    /// A question to a controller's code (SPEC §15), to be answered under `id`; `kind`: the controller's, which may
    /// not be created on its host yet.
    package static func question(_ question: Question, id: UInt64, kind: Kind?) -> Self {
        Self(body: .question(Containment_V1_Question(question, id: id, kind: kind)))
    }

    /// A host's welcome: the controllers it runs (each with its root view), and whether its actors begin from their
    /// state, as of event `seq`.
    package static func welcome(
        host: String,
        controllers: [(Controller, View?)],
        heartbeatInterval: Duration,
        restore: Bool,
        seq: UInt64,
        incarnation: UInt32
    ) -> Self {
        Self(
            body: .welcome(
                .with {
                    $0.controllers = controllers.map { Containment_V1_ControllerState($0.0, host: host, view: $0.1) }
                    $0.heartbeatIntervalMs = UInt32(clamping: heartbeatInterval.milliseconds)
                    $0.restore = restore
                    $0.seq = seq
                    $0.incarnation = incarnation
                }
            )
        )
    }

    /// The refusal it carries, if it is one.
    package var refusal: RemoteError? {
        if case .error(let error) = body { return RemoteError(error) }
        return nil
    }

    /// The message with its request id (0 for one no request asked for), one frame.
    package func bytes(requestID: UInt64) -> [UInt8] {
        ServerMessage.with {
            $0.requestID = requestID
            $0.body = body
            $0.leader = leader
        }.bytes
    }
}

extension Duration {
    fileprivate var milliseconds: Int64 {
        components.seconds * 1_000 + components.attoseconds / 1_000_000_000_000_000
    }
}
