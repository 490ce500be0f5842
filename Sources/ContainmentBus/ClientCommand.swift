import ContainmentModel

/// One command as a client sends it: a model request (with the host a create names for its controller), or — for
/// instruments that test the supervisor's refusals (`stress --invalid-ratio`) — one with no kind at all, which no
/// request can spell.
package struct ClientCommand: Sendable, Equatable {
    package let wire: WireCommand

    package init(_ request: Request, host: String? = nil) { wire = WireCommand(request, host: host) }

    private init(wire: WireCommand) { self.wire = wire }

    /// A command with no kind: refused (`malformed`) before the model sees it.
    package static let withoutKind = ClientCommand(wire: WireCommand())

    /// The request it carries, or `malformed`.
    package func request() throws(ContainmentError) -> Request { try wire.request() }

    /// Its bytes, as sent.
    package var bytes: [UInt8] { wire.bytes }
    /// Whether it has no kind (``withoutKind``).
    package var lacksKind: Bool { wire.kind == nil }
    /// The party it is issued by, as sent.
    package var party: String { wire.by }

    /// Its kind as the protocol's field spells it (for messages); `(none)` without one.
    package var kindName: String {
        guard let kind = wire.kind else { return "(none)" }
        return String(describing: kind).split(separator: "(").first.map(String.init) ?? "?"
    }
}

extension CommandClient {
    /// Submits commands as one transaction, as they are; returns what was accepted or throws the rejection.
    package func submit(_ commands: [ClientCommand]) throws(RemoteError) -> Acceptance {
        Acceptance(try submit(commands.map(\.wire)))
    }
}
