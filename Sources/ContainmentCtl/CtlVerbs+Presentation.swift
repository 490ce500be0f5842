import ArgumentParser
import ContainmentBus
import ContainmentModel

extension CtlVerbs {
    struct Present: CtlVerb {
        static let configuration = CommandConfiguration(
            abstract: "Present a controller on a presenter (SPEC §7).",
            usage: "containment ctl present PRESENTER PRESENTED [--style S] [--transition T] [--animated] [--anchor V]"
        )
        @Argument(help: "The controller that presents.") var presenter: String
        @Argument(help: "The controller presented.") var presented: String
        @Option(
            help: "fullScreen, pageSheet, formSheet, currentContext, overFullScreen, overCurrentContext, popover."
        )
        var style: String?
        @Option(help: "A popover's anchor: a view of the presenter's tree (default: its root view).") var anchor:
            String?
        @Option(help: "coverVertical, flipHorizontal, crossDissolve, partialCurl.") var transition: String?
        @Flag(help: "A timed transition of animationDuration (SPEC §13).") var animated = false
        @OptionGroup var options: CtlOptions

        func requests(_ state: () throws -> TreeView) throws -> [Request] {
            let style = try self.style.map { try ModalPresentationStyle.named($0, as: "presentation style") }
            let transition = try self.transition.map { try ModalTransitionStyle.named($0, as: "transition style") }
            let command = Command.present(
                ControllerID(presented),
                on: ControllerID(presenter),
                style: style,
                transitionStyle: transition,
                animated: animated,
                anchor: try anchor.map(Parse.view)
            )
            return [Request(command, options)]
        }
    }

    struct Dismiss: CtlVerb {
        static let configuration = CommandConfiguration(
            abstract: "Dismiss what a controller (or its subtree) presents, or the controller itself if presented."
        )
        @Argument(help: "The presented controller to dismiss (with those it presented).") var controller: String
        @Flag(help: "A timed transition of animationDuration (SPEC §13).") var animated = false
        @OptionGroup var options: CtlOptions

        func requests(_ state: () throws -> TreeView) throws -> [Request] {
            [Request(.dismiss(ControllerID(controller), animated: animated), options)]
        }
    }
}
