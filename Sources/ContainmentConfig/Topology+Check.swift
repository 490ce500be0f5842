import ContainmentBus
import ContainmentModel

extension Topology {
    /// The topology as the supervisor applies it: ``requests()`` as commands, each create naming its host.
    package func commands() -> ReceivedCommands {
        ReceivedCommands(placed: requests().map { (request: $0.0, host: $0.1) })
    }

    /// What the supervisor refuses of a topology before it applies anything: a host name a host could not register
    /// under, and a text (an id, a kind, a title, a host …) longer than `maxTextBytes` — the limit every client's
    /// request is held to, so that every controller of a topology can also be named by `ctl`.
    package func checkLimits(_ config: RuntimeConfig) throws {
        for host in hosts {
            guard ContainmentState.isValidName(host) else {
                throw ConfigError(
                    "host \"\(host)\" is not a valid name (non-empty, without spaces, \"/\" or control characters)"
                )
            }
            guard host.utf8.count <= config.maxTextBytes else {
                throw ConfigError(
                    "a host name is \(host.utf8.count) bytes long; at most \(config.maxTextBytes) (maxTextBytes)"
                )
            }
        }
        var bytes = 0
        let commands = commands()
        for index in commands.indices {
            // Journaled as one record (one transaction): no larger than a journal record may be.
            bytes += commands.size(at: index)
            guard bytes <= JournalLimits.maxRecord / 2 else {
                throw ConfigError(
                    "the topology is too large to apply as one transaction (over \(JournalLimits.maxRecord / 2 >> 20) "
                        + "MiB of commands): split it, or create the rest with ctl"
                )
            }
            let longest = commands.longestText(at: index)
            guard longest <= config.maxTextBytes else {
                throw ConfigError(
                    "command \(index + 1) (\(Self.describe(index, of: commands))) holds a text \(longest) bytes long; at most "
                        + "\(config.maxTextBytes) (maxTextBytes) are taken"
                )
            }
        }
    }

    /// Checks the topology as the supervisor would apply it, without starting anything: ``checkLimits(_:)``, then
    /// every command through the model, as one transaction on an empty state — all of it or none of it. Throws the
    /// first command refused and why.
    public func check(config: RuntimeConfig) throws {
        try checkLimits(config)
        let commands = commands()
        var requests: [Request] = []
        for index in commands.indices {
            do {
                requests.append(try commands.request(at: index, hostTargets: { _ in [] }))
            } catch {
                throw Self.refusal(index: index, of: commands, error)
            }
        }
        var state = ContainmentState()
        config.configure(&state)
        do {
            _ = try state.apply(batch: requests)
        } catch {
            throw Self.refusal(index: error.index, of: commands, error.error)
        }
    }

    /// Checks that every controller's kind can run on its host: a host the supervisor starts as `containment host`
    /// (no `command`, not `remote`) runs `standardHost`'s kinds (and the model's standard ones) and no other, so a
    /// controller of another kind there would run as plain content (issue 42, item 7: a `wormhole` passed `config
    /// check` and `up.sh`). A host whose program is not known here (an app's own, or one started elsewhere) may run
    /// any kind.
    public func checkKinds(standardHost: [Kind]) throws {
        let runs = Set((standardHost + Kind.standard).map(\.rawValue))
        for controller in controllers where !runs.contains(controller.kind) {
            let settings = hostSettings[controller.host]
            guard settings?.command == nil, settings?.remote != true else { continue }
            throw ConfigError(
                "controller \(controller.id) is of kind \"\(controller.kind)\", which its host \(controller.host) does not "
                    + "run: `containment host` runs \(runs.sorted().joined(separator: ", ")). A kind of an app's own "
                    + "runs in the app's host executable: name it in the topology's hosts, "
                    + "`{name: \(controller.host), command: [path/to/AppHost]}`"
            )
        }
    }

    /// Why a topology is refused: the command (its number and what it does) and the rule it breaks.
    package static func refusal(index: Int, of commands: ReceivedCommands, _ error: ContainmentError) -> ConfigError {
        let what = commands.indices.contains(index) ? Self.describe(index, of: commands) : "?"
        return ConfigError(
            "the topology is refused, and nothing of it applied: its command \(index + 1) of \(commands.count) "
                + "(\(what)) breaks a rule — \(error.code): \(error.message)"
        )
    }

    /// A command in a few words: its verb and subject, its party.
    package static func describe(_ index: Int, of commands: ReceivedCommands) -> String {
        guard let request = try? commands.request(at: index, hostTargets: { _ in [] }) else {
            return "an undecodable command"
        }
        var text = request.command.name
        if let subject = request.command.subject {
            let id = subject.rawValue
            text += " " + (id.utf8.count > 64 ? String(id.prefix(32)) + "…" : id)
        }
        let party = commands.party(at: index)
        if !party.isEmpty { text += " by \(party.prefix(64))" }
        return text
    }
}
