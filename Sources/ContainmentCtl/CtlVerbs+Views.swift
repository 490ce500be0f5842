import ArgumentParser
import ContainmentBus
import ContainmentModel

extension CtlVerbs {
    struct LoadView: CtlVerb {
        static let configuration = CommandConfiguration(commandName: "load-view", abstract: "Load a root view now.")
        @Argument(help: "The controller's id.") var id: String
        @OptionGroup var options: CtlOptions
        func requests(_ state: () throws -> TreeView) throws -> [Request] {
            [Request(.loadView(ControllerID(id)), options)]
        }
    }

    struct AddView: CtlVerb {
        static let configuration = CommandConfiguration(
            commandName: "add-view",
            abstract: "Insert a view into a superview (a named subview is created by its owner on first use)."
        )
        @Argument(help: "A view: a controller id (its root view) or ID/NAME, a subview it owns.") var view: String
        @Option(help: "The superview.") var to: String
        @Option(help: "The index among the superview's subviews (default: on top).") var at: Int?
        @OptionGroup var options: CtlOptions
        func requests(_ state: () throws -> TreeView) throws -> [Request] {
            [Request(.addSubview(try Parse.view(view), to: try Parse.view(to), at: at), options)]
        }
    }

    struct RemoveView: CtlVerb {
        static let configuration = CommandConfiguration(commandName: "remove-view", abstract: "removeFromSuperview.")
        @Argument(help: "A view: a controller id (its root view) or ID/NAME, a subview it owns.") var view: String
        @OptionGroup var options: CtlOptions
        func requests(_ state: () throws -> TreeView) throws -> [Request] {
            [Request(.removeFromSuperview(try Parse.view(view)), options)]
        }
    }

    struct SetFrame: CtlVerb {
        static let configuration = CommandConfiguration(
            commandName: "set-frame",
            abstract: "Set a view's frame (a root view's only by its parent, SPEC §3 R2)."
        )
        @Argument(help: "A view: a controller id (its root view) or ID/NAME, a subview it owns.") var view: String
        /// Captured as "unrecognized" so a negative origin (`-320,0,320,480`) is a value, not an option.
        @Argument(parsing: .allUnrecognized, help: "x,y,width,height") var frame: [String]
        @OptionGroup var options: CtlOptions

        func validate() throws {
            guard frame.count == 1 else { throw ValidationError("set-frame takes one frame: x,y,width,height") }
        }

        func requests(_ state: () throws -> TreeView) throws -> [Request] {
            [Request(.setFrame(try Parse.view(view), try Parse.rect(frame[0])), options)]
        }
    }

    struct SetAlpha: CtlVerb {
        static let configuration = CommandConfiguration(commandName: "set-alpha", abstract: "Set a view's alpha.")
        @Argument(help: "A view: a controller id (its root view) or ID/NAME, a subview it owns.") var view: String
        @Argument(help: "The opacity, from 0 to 1.") var alpha: Double
        @OptionGroup var options: CtlOptions
        func requests(_ state: () throws -> TreeView) throws -> [Request] {
            [Request(.setAlpha(try Parse.view(view), alpha), options)]
        }
    }

    struct SetHidden: CtlVerb {
        static let configuration = CommandConfiguration(commandName: "set-hidden", abstract: "Hide or show a view.")
        @Argument(help: "A view: a controller id (its root view) or ID/NAME, a subview it owns.") var view: String
        @Argument(help: "true or false") var hidden: String
        @OptionGroup var options: CtlOptions
        func requests(_ state: () throws -> TreeView) throws -> [Request] {
            [Request(.setHidden(try Parse.view(view), try Parse.bool(hidden)), options)]
        }
    }

    struct Batch: CtlVerb {
        static let configuration = CommandConfiguration(
            abstract: "Several commands as one transaction: one per line, each the words that would follow `ctl`.",
            discussion: "Blank lines and lines starting with # are skipped. `-` reads standard input."
        )
        @Argument(help: "A file, or - for standard input.") var file: String
        @OptionGroup var options: CtlOptions

        func requests(_ state: () throws -> TreeView) throws -> [Request] {
            try placedRequests(state).map(\.request)
        }

        func run() async throws {
            let connection = try Connection(options.runtime)
            let commands = try placedRequests { try connection.snapshot().tree }
            try submit(commands, through: connection, options: options)
        }

        /// Each line parsed as the verb it names; a create keeps its --host.
        func placedRequests(_ state: () throws -> TreeView) throws -> [Placed] {
            let text: String
            if file == "-" {
                var lines: [String] = []
                while let line = readLine() { lines.append(line) }
                text = lines.joined(separator: "\n")
            } else {
                do {
                    text = try String(contentsOfFile: file, encoding: .utf8)
                } catch {
                    throw ValidationError("cannot read \(file): \(error.localizedDescription)")
                }
            }
            var commands: [Placed] = []
            var snapshot: TreeView?
            func cachedState() throws -> TreeView {
                if let snapshot { return snapshot }
                let fetched = try state()
                snapshot = fetched
                return fetched
            }
            for (number, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                let line = rawLine.trimmingCharacters(in: .whitespaces)
                guard !line.isEmpty, !line.hasPrefix("#") else { continue }
                let words = Words.split(line)
                let parsed: any ParsableCommand
                do {
                    parsed = try CtlCommand.parseAsRoot(words)
                } catch {
                    throw ValidationError("line \(number + 1): \(CtlCommand.message(for: error))")
                }
                switch parsed {
                case let create as Create:
                    commands += try create.placed()
                case is Batch:
                    throw ValidationError("line \(number + 1): a batch cannot hold another batch")
                case let verb as any CtlVerb:
                    commands += try verb.requests(cachedState).map { Placed($0) }
                default:
                    throw ValidationError("line \(number + 1): \"\(line)\" is not a ctl verb")
                }
            }
            guard !commands.isEmpty else { throw ValidationError("\(file) holds no command") }
            return commands
        }
    }
}

/// Splits a line into words, honouring single and double quotes.
enum Words {
    static func split(_ line: String) -> [String] {
        var words: [String] = []
        var current = ""
        var quote: Character?
        var inWord = false
        for character in line {
            if let open = quote {
                if character == open { quote = nil } else { current.append(character) }
            } else if character == "\"" || character == "'" {
                quote = character
                inWord = true
            } else if character == " " || character == "\t" {
                if inWord { words.append(current) }
                current = ""
                inWord = false
            } else {
                current.append(character)
                inWord = true
            }
        }
        if inWord { words.append(current) }
        return words
    }
}
