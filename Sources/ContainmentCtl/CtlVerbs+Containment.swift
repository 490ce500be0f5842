import ArgumentParser
import ContainmentBus
import ContainmentModel

extension CtlVerbs {
    struct AddChild: CtlVerb {
        static let configuration = CommandConfiguration(commandName: "add-child", abstract: "addChild (SPEC §2).")
        @Argument(help: "The parent (container) controller.") var parent: String
        @Argument(help: "The child controller.") var child: String
        @OptionGroup var options: CtlOptions
        func requests(_ state: () throws -> TreeView) throws -> [Request] {
            [Request(.addChild(ControllerID(child), to: ControllerID(parent)), options)]
        }
    }

    struct WillMove: CtlVerb {
        static let configuration = CommandConfiguration(commandName: "will-move", abstract: "willMove(toParent:).")
        @Argument(help: "The child controller.") var child: String
        @Option(help: "The parent, or `none` for nil.") var to: String
        @OptionGroup var options: CtlOptions
        func requests(_ state: () throws -> TreeView) throws -> [Request] {
            [Request(.willMove(ControllerID(child), toParent: to == "none" ? nil : ControllerID(to)), options)]
        }
    }

    struct DidMove: CtlVerb {
        static let configuration = CommandConfiguration(commandName: "did-move", abstract: "didMove(toParent:).")
        @Argument(help: "The child controller.") var child: String
        @Option(help: "The parent it moved to.") var to: String
        @OptionGroup var options: CtlOptions
        func requests(_ state: () throws -> TreeView) throws -> [Request] {
            [Request(.didMove(ControllerID(child), toParent: ControllerID(to)), options)]
        }
    }

    struct Remove: CtlVerb {
        static let configuration = CommandConfiguration(abstract: "removeFromParent.")
        @Argument(help: "The child controller.") var child: String
        @OptionGroup var options: CtlOptions
        func requests(_ state: () throws -> TreeView) throws -> [Request] {
            [Request(.removeFromParent(ControllerID(child)), options)]
        }
    }

    struct Embed: CtlVerb {
        static let configuration = CommandConfiguration(
            abstract: "The seeds' displayContentController: addChild, frame, add the view, didMove — one transaction."
        )
        @Argument(help: "The parent (container) controller.") var parent: String
        @Argument(help: "The child controller.") var child: String
        @Option(name: .customLong("in"), help: "The parent's view to embed into (default: its root view).")
        var superview: String?
        @Option(parsing: .unconditional, help: "x,y,width,height (default: the parent's bounds).") var frame: String?
        @OptionGroup var options: CtlOptions

        func requests(_ state: () throws -> TreeView) throws -> [Request] {
            let frame: Rect
            if let text = self.frame {
                frame = try Parse.rect(text)
            } else {
                frame = Rect(size: try state().nodes[parent]?.frame?.size ?? .zero)
            }
            let superview = try self.superview.map { try Parse.view($0) }
            return SeedListings.displayContentController(
                ControllerID(child),
                in: ControllerID(parent),
                superview: superview,
                frame: frame
            ).map { Request($0.command, options) }
        }
    }

    struct Unembed: CtlVerb {
        static let configuration = CommandConfiguration(
            abstract: "The seeds' hideContentController: willMove(nil), remove the view, removeFromParent."
        )
        @Argument(help: "The child controller.") var child: String
        @OptionGroup var options: CtlOptions
        func requests(_ state: () throws -> TreeView) throws -> [Request] {
            // The container is the child's parent: the natural party of each of the three.
            SeedListings.hideContentController(ControllerID(child), in: ControllerID(child)).map {
                Request($0.command, options)
            }
        }
    }

    struct Appearance: CtlVerb {
        static let configuration = CommandConfiguration(
            abstract: "beginAppearanceTransition / endAppearanceTransition, for manual forwarding (SPEC §4).",
            usage:
                "containment ctl appearance C begin --appearing|--disappearing [--animated]\ncontainment ctl appearance C end"
        )
        enum Phase: String, ExpressibleByArgument { case begin, end }
        @Argument(help: "The controller.") var controller: String
        @Argument(help: "begin or end.") var phase: Phase
        @Flag(name: .customLong("appearing"), help: "Begin appearing (viewWillAppear).") var appearing = false
        @Flag(name: .customLong("disappearing"), help: "Begin disappearing (viewWillDisappear).") var disappearing =
            false
        @Flag(help: "The appearance callbacks say animated, as beginAppearanceTransition's animated does.")
        var animated = false
        @OptionGroup var options: CtlOptions

        func validate() throws {
            if phase == .begin, appearing == disappearing {
                throw ValidationError("begin takes exactly one of --appearing and --disappearing")
            }
            if phase == .end, appearing || disappearing || animated {
                throw ValidationError("end takes no direction")
            }
        }

        func requests(_ state: () throws -> TreeView) throws -> [Request] {
            let id = ControllerID(controller)
            switch phase {
            case .begin: return [Request(.beginAppearance(id, appearing: appearing, animated: animated), options)]
            case .end: return [Request(.endAppearance(id), options)]
            }
        }
    }

    struct Transition: CtlVerb {
        static let configuration = CommandConfiguration(
            abstract:
                "transition(from:to:duration:) in a parent (SPEC §5); the supervisor completes it after --duration."
        )
        @Argument(help: "The parent (container) controller.") var parent: String
        @Argument(help: "The child leaving.") var from: String
        @Argument(help: "The child arriving.") var to: String
        @Option(help: "Seconds; 0 completes at once.") var duration = 0.0
        @Option(parsing: .unconditional, help: "The new child's frame, x,y,width,height.") var frame: String?
        @OptionGroup var options: CtlOptions
        func requests(_ state: () throws -> TreeView) throws -> [Request] {
            let command = Command.transition(
                in: ControllerID(parent),
                from: ControllerID(from),
                to: ControllerID(to),
                duration: duration,
                frame: try frame.map { try Parse.rect($0) }
            )
            return [Request(command, options)]
        }
    }

    struct CompleteTransition: CtlVerb {
        static let configuration = CommandConfiguration(
            commandName: "complete-transition",
            abstract: "Complete a running transition now."
        )
        @Argument(help: "The parent (container) controller.") var parent: String
        @Argument(help: "The child leaving.") var from: String
        @Argument(help: "The child arriving.") var to: String
        @OptionGroup var options: CtlOptions
        func requests(_ state: () throws -> TreeView) throws -> [Request] {
            [
                Request(
                    .completeTransition(in: ControllerID(parent), from: ControllerID(from), to: ControllerID(to)),
                    options
                )
            ]
        }
    }
}
