import ArgumentParser
import ContainmentConfig

/// A mistyped subcommand (`ctl slect menu 1`) is told the one it most likely means, rather than "3 unexpected
/// arguments".
package enum SubcommandSuggestion {
    /// The error for `arguments` (the command line without the program) when, where a subcommand is expected, one
    /// names none: the path so far, the word, and the nearest subcommand if any. `nil` when the line names subcommands
    /// all the way, or leaves them for options and arguments.
    /// Subcommands that moved to another program, and where.
    package static let moved = [
        "inspector": """
        the inspector is its own program now, with the metrics: `containment-web inspector` (built by \
        `swift build --product containment-web`; `scripts/up.sh --inspector` builds and starts it)
        """
    ]

    package static func message(for arguments: [String], in root: any ParsableCommand.Type) -> String? {
        var command = root
        var path = [root._commandName]
        for argument in arguments {
            let subcommands = command.configuration.subcommands
            guard !subcommands.isEmpty, command.configuration.defaultSubcommand == nil, !argument.hasPrefix("-"),
                argument != "help"
            else { return nil }
            guard
                let next = subcommands.first(where: {
                    $0._commandName == argument || $0.configuration.aliases.contains(argument)
                })
            else {
                if path.count == 1, let moved = moved[argument] { return "\(path[0]) \(argument): \(moved)" }
                let names = subcommands.flatMap { [$0._commandName] + $0.configuration.aliases }
                let hint = StrictKeys.nearest(argument, in: names).map { "; did you mean \"\($0)\"?" } ?? ""
                let where_ = path.joined(separator: " ")
                return "\(where_): no subcommand \"\(argument.prefix(64))\"\(hint) (see '\(where_) --help')"
            }
            command = next
            path.append(next._commandName)
        }
        return nil
    }
}
