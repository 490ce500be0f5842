import ContainmentBus
import ContainmentModel

extension Topology {
    /// The topology as the supervisor applies it: ``requests()`` as commands, each create naming its host.
    func commands() -> [WireCommand] {
        requests().map { request, host in
            var wire = WireCommand(request, host: host)
            if request.by == .natural { wire.by = "" }
            return wire
        }
    }

    /// What the supervisor refuses of a topology before it applies anything: a host name a host could not register
    /// under, and a text (an id, a kind, a title, a host …) longer than `maxTextBytes` — the limit every client's
    /// request is held to, so that every controller of a topology can also be named by `ctl`.
    func checkLimits(_ config: RuntimeConfig) throws {
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
        for (index, command) in commands().enumerated() {
            // Journaled as one record (one transaction): no larger than a journal record may be.
            bytes += (try? command.serializedBytes() as [UInt8])?.count ?? 0
            guard bytes <= JournalFormat.maxRecord / 2 else {
                throw ConfigError(
                    "the topology is too large to apply as one transaction (over \(JournalFormat.maxRecord / 2 >> 20) "
                        + "MiB of commands): split it, or create the rest with ctl"
                )
            }
            let longest = LongestText.of(command)
            guard longest <= config.maxTextBytes else {
                throw ConfigError(
                    "command \(index + 1) (\(Self.describe(command))) holds a text \(longest) bytes long; at most "
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
        for (index, command) in commands.enumerated() {
            do {
                requests.append(try command.request(hostTargets: { _ in [] }))
            } catch {
                throw Self.refusal(index: index, of: commands, error)
            }
        }
        var state = ContainmentState()
        state.animationDuration = Double(config.animationDuration.milliseconds) / 1_000
        do {
            _ = try state.apply(batch: requests)
        } catch {
            throw Self.refusal(index: error.index, of: commands, error.error)
        }
    }

    /// Why a topology is refused: the command (its number and what it does) and the rule it breaks.
    static func refusal(index: Int, of commands: [WireCommand], _ error: ContainmentError) -> ConfigError {
        let what = commands.indices.contains(index) ? Self.describe(commands[index]) : "?"
        return ConfigError(
            "the topology is refused, and nothing of it applied: its command \(index + 1) of \(commands.count) "
                + "(\(what)) breaks a rule — \(error.code): \(error.message)"
        )
    }

    /// A command in a few words: its verb and subject, its party.
    static func describe(_ command: WireCommand) -> String {
        guard let request = try? command.request(hostTargets: { _ in [] }) else { return "an undecodable command" }
        var text = request.command.name
        if let subject = request.command.subject {
            let id = subject.rawValue
            text += " " + (id.utf8.count > 64 ? String(id.prefix(32)) + "…" : id)
        }
        if !command.by.isEmpty { text += " by \(command.by.prefix(64))" }
        return text
    }
}
