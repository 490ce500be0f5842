/// What the hosts registered for a kind (SPEC §16, child protocols; seed 000: "the container defines a protocol for
/// its children"): the verbs its controllers' code answers, and the verbs a container of this kind requires of its
/// children.
public struct KindProtocol: Hashable, Sendable {
    public var verbs: Set<String>
    public var requires: [String]

    public init(verbs: Set<String> = [], requires: [String] = []) {
        self.verbs = verbs
        self.requires = requires
    }
}

extension ContainmentState {
    /// SPEC §16: `addChild(P, C)` where P's kind requires verbs C's kind does not answer is `protocolMismatch`, naming
    /// each one missing; a child of a kind no host ever registered is `unknownKind`. Judged only when the runtime gave
    /// the kinds' protocols (``kindProtocols``): a replay of a journal, which applies what was accepted, judges
    /// nothing.
    func checkChildProtocol(_ child: Controller, of parent: Controller) throws(ContainmentError) {
        guard let required = kindProtocols[parent.kind]?.requires, !required.isEmpty else { return }
        guard let offered = kindProtocols[child.kind] else {
            throw ContainmentError(
                .unknownKind,
                deferred: "\(child.id) is of kind \(child.kind), which no host registered, so it cannot be a child of "
                    + "\(parent.id): a \(parent.kind) requires of its children the verbs "
                    + "\(required.joined(separator: ", "))."
            )
        }
        let missing = required.filter { !offered.verbs.contains($0) }
        guard missing.isEmpty else {
            throw ContainmentError(
                .protocolMismatch,
                deferred: "\(parent.id), a \(parent.kind), requires of its children the verbs "
                    + "\(required.joined(separator: ", ")); \(child.id), a \(child.kind), lacks "
                    + "\(missing.joined(separator: ", "))."
            )
        }
    }
}
