import ContainmentModel
import Distributed
import Synchronization

/// The typed methods of a ``ContainmentActorSystem`` actor type, by declared name: what its host registers (each with
/// its parameters' and result's JSON Schemas) and how a call's name finds the method to run.
///
/// A call travels under the method's declared name (`insert(child:at:)`), not under the Swift runtime's mangled name
/// of its thunk, which changes with the module's or the type's name and means nothing outside Swift. The names come
/// from the executable's accessible functions (``AccessibleFunctions``); the schemas from a probe: the method is
/// "called" on a remote reference with made-up arguments (``SchemaProbe``) whose types the runtime asks for one by
/// one, and its result type is seen by the system's `remoteCall`, which then stops the call — the method never runs.
package enum MethodCatalog {
    /// One method: as registered, and its thunk's mangled name (what the Swift runtime runs).
    package struct Entry: Sendable {
        package var description: MethodDescription
        package var mangled: String
    }

    private static let names = Mutex<(all: [String]?, byType: [ObjectIdentifier: [Entry]])>((nil, [:]))
    private static let declared = Mutex<[String: String]>([:])

    /// The methods of `type`, in the executable's order (probed once per process).
    package static func entries<Act: DistributedActor>(of type: Act.Type) async -> [Entry]
    where Act.ActorSystem == ContainmentActorSystem {
        if let known = names.withLock({ $0.byType[ObjectIdentifier(type)] }) { return known }
        let all =
            names.withLock { $0.all }
            ?? {
                let read = AccessibleFunctions.names()
                names.withLock { $0.all = read }
                return read
            }()
        var entries: [Entry] = []
        for mangled in all {
            guard let name = declaredName(of: RemoteCallTarget(mangled), on: type) else { continue }
            entries.append(Entry(description: await probe(type, mangled: mangled, name: name), mangled: mangled))
        }
        names.withLock { $0.byType[ObjectIdentifier(type)] = entries }
        return entries
    }

    /// The method of `type` a call names (a declared name, or a mangled one as an older client sends it), or why none.
    package static func target<Act: DistributedActor>(
        _ name: String,
        of type: Act.Type
    ) async -> Result<String, ContainmentError> where Act.ActorSystem == ContainmentActorSystem {
        if name.hasPrefix("$s") { return .success(name) }
        let all = await entries(of: type)
        let matches = all.filter { $0.description.name == name }
        switch matches.count {
        case 1: return .success(matches[0].mangled)
        case 0:
            let known = all.map(\.description.name)
            return .failure(
                ContainmentError(
                    .unknownVerb,
                    "A \(type) has no method \(name); its methods: \(known.isEmpty ? "none" : known.joined(separator: ", "))."
                )
            )
        default:
            return .failure(
                ContainmentError(
                    .unknownVerb,
                    "A \(type) has \(matches.count) methods named \(name) (overloads): a call cannot tell them apart; "
                        + "give them distinct names."
                )
            )
        }
    }

    /// The declared name of a method of `type` a target names (`insert(child:at:)`), from the runtime's readable
    /// form of it (`GridKit.GridController.insert(child:at:)`); nil for a method of another type.
    package static func declaredName(of target: RemoteCallTarget, on type: Any.Type) -> String? {
        let prefix = String(reflecting: type) + "."
        let key = prefix + " " + target.identifier
        if let known = declared.withLock({ $0[key] }) { return known.isEmpty ? nil : known }
        let full = target.description
        var name: String?
        if let range = full.range(of: prefix) {
            let rest = String(full[range.upperBound...])
            // A nested type's method is not this type's.
            if let open = rest.firstIndex(of: "("), !rest[..<open].contains(".") { name = rest }
        }
        declared.withLock { $0[key] = name ?? "" }
        return name
    }

    /// The method's description: its parameters' and result's schemas, as a probe call finds them.
    private static func probe<Act: DistributedActor>(
        _ type: Act.Type,
        mangled: String,
        name: String
    ) async -> MethodDescription where Act.ActorSystem == ContainmentActorSystem {
        let labels = MethodDescription.labels(of: name)
        let probe = MethodProbe()
        let system = ContainmentActorSystem(transport: ProbeTransport(), probe: probe)
        if let remote = try? Act.resolve(id: ControllerID("probe"), using: system) {
            var decoder = MethodCallDecoder(arguments: [], probe: probe)
            try? await system.executeDistributedTarget(
                on: remote,
                target: RemoteCallTarget(mangled),
                invocationDecoder: &decoder,
                handler: MethodResultHandler()
            )
        }
        let (arguments, result) = probe.found
        return MethodDescription(
            name: name,
            parameters: labels.enumerated().map { index, label in
                .init(label: label, schema: index < arguments.count ? arguments[index] : "{}")
            },
            result: result ?? "{}"
        )
    }
}

/// What a probe call found: each argument's schema, in order, and the result's.
package final class MethodProbe: Sendable {
    private let state = Mutex<(arguments: [String], result: String?)>(([], nil))

    var found: (arguments: [String], result: String?) { state.withLock { $0 } }

    func argument(_ schema: String) { state.withLock { $0.arguments.append(schema) } }
    func result(_ schema: String) { state.withLock { $0.result = schema } }

    /// Ends a probe call before anything is sent.
    struct Stop: Error {}
}

/// A probe's system sends nothing: its `remoteCall` stops first.
private struct ProbeTransport: MethodCallTransport {
    func call(_ target: ControllerID, method: String, arguments: [String]) async throws(RemoteError) -> String {
        throw RemoteError(ContainmentError(.malformed, "A probe call is never sent."))
    }
}
