import ArgumentParser
import ContainmentBus
import ContainmentModel
import Foundation

extension CtlVerbs {
    struct Send: CtlVerb {
        static let configuration = CommandConfiguration(
            abstract: "Send a message from one controller to a related one or its delegate (SPEC §11).",
            discussion: """
                Issued by FROM (the default --by). TO receives messageReceived(FROM, NAME, PAYLOAD) in order with \
                its other callbacks. TO must be FROM's parent, a child, its presenter, the controller it presented, \
                or its delegate: anything else is notRelated.
                """
        )
        @Argument(help: "The controller that sends it.") var from: String
        @Argument(help: "The controller that receives it.") var to: String
        @Argument(help: "The message's name, e.g. done.") var name: String
        @Argument(help: "The payload as text (clients use JSON); default: none.") var payload: String?
        @Option(help: "Read the payload from this file (any bytes) instead.") var payloadFile: String?
        @OptionGroup var options: CtlOptions

        func requests(_ state: () throws -> TreeView) throws -> [Request] {
            let bytes: [UInt8]
            if let payloadFile {
                guard payload == nil else {
                    throw ValidationError("Give the payload as text or --payload-file, not both.")
                }
                bytes = Array(try Data(contentsOf: URL(fileURLWithPath: payloadFile)))
            } else {
                bytes = Array((payload ?? "").utf8)
            }
            let command = Command.send(from: ControllerID(from), to: ControllerID(to), name: name, payload: bytes)
            return [Request(command, options)]
        }
    }
}

extension CtlVerbs {
    struct Input: CtlVerb {
        static let configuration = CommandConfiguration(
            abstract: "Touch a window at a point (SPEC §12), as the system: hit test, then the responder chain.",
            discussion: """
                The deepest visible view under the point (presentations first) starts the responder chain; the first \
                controller that handles the kind receives inputReceived. The menu container handles threeFingerTap \
                (shows its menu) and tap (on item I: selects child I; anywhere: hides the menu). A tap on a bar's \
                control is its container's: N/back pops, T/item-I selects, T/item-more and T/more/back show a More tab's \
                list, T/more-list/row-I selects tab I, N/edit toggles the top's editing (SPEC \
                §15). A page container handles swipe: --direction left turns to the next pages, right to the previous.
                """
        )
        @Argument(help: "The window's name.") var window: String
        @Argument(help: "X,Y in window coordinates.") var point: String
        @Option(help: "tap, threeFingerTap, swipe, or any other name.") var kind = "tap"
        @Option(help: "A swipe's direction: left, right, up, down.") var direction: String?
        @OptionGroup var options: CtlOptions
        func requests(_ state: () throws -> TreeView) throws -> [Request] {
            let direction = try direction.map { text throws(ContainmentError) in
                try SwipeDirection.named(text, as: "swipe direction")
            }
            return [
                Request(.input(WindowID(window), at: try Parse.point(point), kind: kind, direction: direction), options)
            ]
        }
    }

    struct Action: CtlVerb {
        static let configuration = CommandConfiguration(
            abstract: "Send a control's action to no particular target (SPEC §12): it walks the chain from FROM."
        )
        @Argument(help: "The controller that sends it.") var from: String
        @Argument(help: "The action's name, e.g. done.") var name: String
        @Argument(help: "The payload as text; default: none.") var payload: String?
        @OptionGroup var options: CtlOptions
        func requests(_ state: () throws -> TreeView) throws -> [Request] {
            let command = Command.action(from: ControllerID(from), name: name, payload: Array((payload ?? "").utf8))
            return [Request(command, options)]
        }
    }
}

extension CtlVerbs {
    struct Invoke: CtlVerb {
        static let configuration = CommandConfiguration(
            abstract: "Call a verb a custom container exposes (seed 000's public methods), e.g. invoke main add card.",
            discussion: """
                The host running CONTROLLER registered its kind's verbs; its code receives verbInvoked and acts as \
                CONTROLLER. A verb its host did not register is refused unknownVerb, but setViewControllers, which \
                every kind answers: it hands a container the children named as arguments. Without --by, issued by \
                the system. A typed method (a distributed func) is called with `ctl call`, and listed by \
                `containment methods`.

                It prints verbInvoked, then waits until the runtime is idle (as --wait) and prints what the code did \
                in answer: the events published after the verb's, up to the idle point (with --json, as `followed`).
                """
        )
        @Argument(help: "The controller.") var controller: String
        @Argument(help: "The verb its kind registered (ctl invoke C VERB ARGUMENTS…).") var verb: String
        // Unrecognized words are arguments too: `ctl invoke ring rotate -1` needs no `--` (ctl's own flags still parse).
        @Argument(parsing: .allUnrecognized, help: "Its arguments (a negative number needs no --).")
        var arguments: [String] = []
        @Flag(help: "Print verbInvoked only: do not wait for what the code does in answer.") var noFollow = false
        @OptionGroup var options: CtlOptions
        func requests(_ state: () throws -> TreeView) throws -> [Request] {
            [Request(.invoke(ControllerID(controller), verb: verb, arguments: arguments), options)]
        }
        func run() async throws {
            let connection = try Connection(options.runtime)
            let placed = try requests { try connection.snapshot().tree }.map { Placed($0) }
            if noFollow {
                try submit(placed, through: connection, options: options)
            } else {
                try Following(connection: connection, options: options).submit(placed)
            }
        }
    }
}
