import ContainmentConfig
import ContainmentBus
import ContainmentModel

/// A batch checked before the model judges it (``SupervisorCore/submit(_:encoded:from:requestID:clientID:completes:resumed:inTurn:)``):
/// who may act as whom, failed hosts, typed calls and verbs, where each creation is placed, a host's share.
extension SupervisorCore {
    /// A batch that passed the checks: its requests, its commands as journaled (a create's host filled in), the hosts
    /// its creations are placed on, and its typed call if any.
    struct Prepared {
        var requests: [Request] = []
        /// The commands as journaled: as received, each create naming the host it was placed on.
        var commands: ReceivedCommands
        var created = IDTable<ControllerID, String>()
        /// A typed method call in the batch: its controller (at most one call per batch).
        var call: ControllerID?
    }

    /// What the checks found: the batch prepared, or the first refusal. (A result of its own rather than a typed
    /// throw: the prepared batch is moved to the caller, not copied — `bench core` counts it.)
    enum Preparation {
        case ready(Prepared)
        case refused(RemoteError)
    }

    /// `commands` checked and placed, or the first refusal with its command's index. `host`: the host registered on the
    /// sender's connection, which acts only as its own controllers; `fromClient`: not the supervisor's own (a topology,
    /// a timer), so a host's share of it is bounded.
    func prepare(_ commands: ReceivedCommands, host: String?, fromClient: Bool) -> Preparation {
        var prepared = Prepared(commands: commands)
        prepared.requests.reserveCapacity(commands.count)
        var share: [String: Int] = [:]
        var callsInBatch = 0
        guard !commands.isEmpty else { return .refused(RemoteError(.malformed("The batch holds no command."))) }
        for index in commands.indices {
            let request: Request
            do {
                request = try commands.request(at: index, hostTargets: { name in self.placement.controllers(on: name) })
            } catch {
                return .refused(RemoteError(error, index: index))
            }
            if let host {
                guard case .controller(let id) = request.by, placement[id] == host else {
                    return .refused(
                        RemoteError(
                            ContainmentError(
                                .unauthorized,
                                "Host \(host) may act only as a controller it runs, not as \(request.by.description.isEmpty ? "an unnamed party" : request.by.description)."
                            ),
                            index: index
                        )
                    )
                }
            }
            if let failed = failedHost(for: request) {
                return .refused(
                    RemoteError(
                        ContainmentError(
                            .hostUnavailable,
                            "Host \(failed.name), which runs \(failed.controller), has failed (\(failed.reason)); its "
                                + "controllers take no commands until it is started again."
                        ),
                        index: index
                    )
                )
            }
            if case .invoke(let id, let verb, _) = request.command {
                if commands.isCall(at: index) {
                    callsInBatch += 1
                    prepared.call = id
                    if let error = refusalOfCall(
                        to: id,
                        method: verb,
                        created: prepared.created,
                        callsInBatch: callsInBatch
                    ) {
                        return .refused(RemoteError(error, index: index))
                    }
                } else if verb != ChildAssignment.verb, let error = unknownVerb(verb, of: id, created: prepared.created)
                {
                    return .refused(RemoteError(error, index: index))
                }
            }
            if case .create(let id, let kind, _) = request.command {
                let assigned: String
                if let named = commands.namedHost(at: index) {
                    assigned = named
                    guard hosts[assigned] != nil || config.acceptUnknownHosts else {
                        return .refused(
                            RemoteError(
                                ContainmentError(.hostUnavailable, Self.unknownHostMessage(assigned)),
                                index: index
                            )
                        )
                    }
                    guard runs(kind, on: assigned) != false else {
                        return .refused(RemoteError(unknownKind(kind, of: id, on: assigned), index: index))
                    }
                } else if let placed = host ?? leastLoadedHost(running: kind) {
                    assigned = placed
                } else if hosts.isEmpty {
                    assigned = ""  // a supervisor that runs no host at all: the model alone, no actor
                } else if hosts.values.contains(where: \.up) {
                    return .refused(RemoteError(unknownKind(kind, of: id, on: nil), index: index))
                } else {
                    return .refused(
                        RemoteError(
                            ContainmentError(
                                .hostUnavailable,
                                "No host is up to run \(id): start one, or name a host of the topology (--host)."
                            ),
                            index: index
                        )
                    )
                }
                prepared.created[id] = assigned
                prepared.commands.name(host: assigned, at: index)
            }
            // A host's share of a client's batch: the commands that create one of its controllers or name one as
            // subject (counted only when the batch is longer than a share may be; a topology is not a client's).
            if commands.count > config.maxHostShare, fromClient, let subject = request.command.subject,
                let concerned = prepared.created[subject] ?? placement[subject],
                !concerned.isEmpty
            {
                // One hash of the name: counted through the subscript's in-place access.
                let counted = { (count: inout Int) -> Int in
                    count += 1
                    return count
                }(&share[concerned, default: 0])
                if counted > config.maxHostShare {
                    return .refused(
                        RemoteError(
                            ContainmentError(
                                .limitExceeded,
                                "The batch concerns host \(concerned) in more than \(config.maxHostShare) commands "
                                    + "(maxHostShare)."
                            ),
                            index: index
                        )
                    )
                }
            }
            // Last: the request is moved into the list, not copied.
            prepared.requests.append(consume request)
        }
        return .ready(prepared)
    }

    /// A failed host running the controller a request names or is issued by, if any.
    func failedHost(for request: Request) -> (name: String, controller: ControllerID, reason: String)? {
        guard !failedHosts.isEmpty else { return nil }
        for id in [request.command.subject, request.by.controller].compactMap(\.self) {
            if let host = placement[id], failedHosts.contains(host), let reason = hosts[host]?.failed {
                return (host, id, reason)
            }
        }
        return nil
    }

    /// Whether `host` runs controllers of `kind`: a standard kind, every host; a custom one, a host whose last `Hello`
    /// registered it. `nil`: not known, the host not having registered with this supervisor yet (a topology names
    /// hosts before they come up).
    func runs(_ kind: Kind, on host: String) -> Bool? {
        if Kind.standard.contains(kind) { return true }
        guard let kinds = hosts[host]?.verbs else { return nil }
        return kinds[kind.rawValue] != nil
    }

    /// `unknownKind`: no host that is up (or not `host`) runs `kind`, and the kinds each registered host runs.
    func unknownKind(_ kind: Kind, of id: ControllerID, on host: String?) -> ContainmentError {
        let registered = hosts.values.filter { $0.verbs != nil && (host == nil ? $0.up : $0.name == host) }
            .sorted { $0.name < $1.name }
            .map { record in
                let custom = (record.verbs ?? [:]).keys.filter { !Kind.standard.contains(Kind($0)) }.sorted()
                return "\(record.name): \(custom.isEmpty ? "none" : custom.joined(separator: ", "))"
            }
        let which = host.map { "Host \($0) does not run" } ?? "No host that is up runs"
        // A kind no host registered: the one most likely meant, among the standard ones and every one registered.
        let known = Set(Kind.standard.map(\.rawValue)).union(hosts.values.flatMap { ($0.verbs ?? [:]).keys })
        let meant =
            known.contains(kind.rawValue)
            ? "" : StrictKeys.nearest(kind.rawValue, in: known.sorted()).map { " Did you mean \"\($0)\"?" } ?? ""
        return ContainmentError(
            .unknownKind,
            "\(which) kind \(Self.shown(kind.rawValue)), so \(id) cannot be created; the custom kinds registered "
                + "(besides the standard ones): \(registered.joined(separator: "; ")). A host registers a kind "
                + "in its BehaviorRegistry.\(meant)"
        )
    }

    /// Why `verb` cannot be called on `id` (`nil`: it can, or the model will refuse the call itself — an unknown
    /// controller): the host that runs it registered no such verb for its kind (`unknownVerb`), or has not
    /// registered with this supervisor yet, so its verbs are not known (`hostUnavailable`). Not asked of
    /// ``ChildAssignment/verb``, which every kind answers (a topology hands children before any host registers).
    func unknownVerb(_ verb: String, of id: ControllerID, created: IDTable<ControllerID, String>) -> ContainmentError? {
        guard let record = state.controllers[id] else { return nil }
        let host = created[id] ?? placement[id] ?? ""
        guard let verbs = hosts[host]?.verbs else {
            return ContainmentError(
                .hostUnavailable,
                "The verbs of \(id) are not known: its host \(host.isEmpty ? "(none)" : host) has not registered."
            )
        }
        let known = verbs[record.kind.rawValue] ?? []
        guard known.contains(verb) else {
            let list = known.isEmpty ? "none" : known.joined(separator: ", ")
            return ContainmentError(
                .unknownVerb,
                "\(id), a \(record.kind) run by host \(host), has no verb \(Self.shown(verb)); its verbs: \(list)."
            )
        }
        return nil
    }

    /// A name from a request, as a message may repeat it: at most 64 characters.
    static func shown(_ text: String) -> String { text.count <= 64 ? text : String(text.prefix(64)) + "…" }
}
