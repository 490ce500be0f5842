import ArgumentParser
import ContainmentBus
import ContainmentModel

extension CtlVerbs {
    struct Push: CtlVerb {
        static let configuration = CommandConfiguration(abstract: "Push a controller onto a navigation stack.")
        @Argument(help: "The navigation container.") var navigation: String
        @Argument(help: "The child controller.") var controller: String
        @Flag(help: "A timed transition of animationDuration (SPEC §13).") var animated = false
        @OptionGroup var options: CtlOptions
        func requests(_ state: () throws -> TreeView) throws -> [Request] {
            [Request(.push(ControllerID(controller), on: ControllerID(navigation), animated: animated), options)]
        }
    }

    struct Pop: CtlVerb {
        static let configuration = CommandConfiguration(
            abstract: "Pop the top of a navigation stack (at the root: nothing)."
        )
        @Argument(help: "The navigation container.") var navigation: String
        @Flag(help: "A timed transition of animationDuration (SPEC §13).") var animated = false
        @OptionGroup var options: CtlOptions
        func requests(_ state: () throws -> TreeView) throws -> [Request] {
            [Request(.pop(ControllerID(navigation), animated: animated), options)]
        }
    }

    struct PopTo: CtlVerb {
        static let configuration = CommandConfiguration(
            commandName: "pop-to",
            abstract: "Pop everything above a controller."
        )
        @Argument(help: "The navigation container.") var navigation: String
        @Argument(help: "The child controller.") var controller: String
        @Flag(help: "A timed transition of animationDuration (SPEC §13).") var animated = false
        @OptionGroup var options: CtlOptions
        func requests(_ state: () throws -> TreeView) throws -> [Request] {
            [Request(.popTo(ControllerID(controller), in: ControllerID(navigation), animated: animated), options)]
        }
    }

    struct PopToRoot: CtlVerb {
        static let configuration = CommandConfiguration(commandName: "pop-to-root", abstract: "Pop to the root.")
        @Argument(help: "The navigation container.") var navigation: String
        @Flag(help: "A timed transition of animationDuration (SPEC §13).") var animated = false
        @OptionGroup var options: CtlOptions
        func requests(_ state: () throws -> TreeView) throws -> [Request] {
            [Request(.popToRoot(ControllerID(navigation), animated: animated), options)]
        }
    }

    struct SetStack: CtlVerb {
        static let configuration = CommandConfiguration(
            commandName: "set-stack",
            abstract: "Replace a navigation stack."
        )
        @Argument(help: "The navigation container.") var navigation: String
        @Argument(help: "A,B,C (bottom first); empty for none.") var stack: String
        @Flag(help: "A timed transition of animationDuration (SPEC §13).") var animated = false
        @OptionGroup var options: CtlOptions
        func requests(_ state: () throws -> TreeView) throws -> [Request] {
            [Request(.setStack(ControllerID(navigation), Parse.list(stack), animated: animated), options)]
        }
    }

    struct SetChildren: CtlVerb {
        static let configuration = CommandConfiguration(
            commandName: "set-children",
            abstract: "Set a tab or menu controller's children."
        )
        @Argument(help: "The container controller.") var container: String
        @Argument(help: "A,B,C; empty for none.") var children: String
        @OptionGroup var options: CtlOptions
        func requests(_ state: () throws -> TreeView) throws -> [Request] {
            [Request(.setChildren(ControllerID(container), Parse.list(children)), options)]
        }
    }

    struct Select: CtlVerb {
        static let configuration = CommandConfiguration(abstract: "Select a tab or menu child, by index or id.")
        @Argument(help: "The container controller.") var container: String
        @Argument(help: "An index, or a child's id.") var target: String
        @Flag(help: "A timed transition of animationDuration (SPEC §13).") var animated = false
        @OptionGroup var options: CtlOptions
        func requests(_ state: () throws -> TreeView) throws -> [Request] {
            let selection: Selection = Int(target).map { .index($0) } ?? .controller(ControllerID(target))
            return [Request(.select(ControllerID(container), selection, animated: animated), options)]
        }
    }

    struct MenuVisible: CtlVerb {
        static let configuration = CommandConfiguration(
            commandName: "menu-visible",
            abstract: "Show or hide a menu container's menu."
        )
        @Argument(help: "The menu container.") var menu: String
        @Argument(help: "true or false") var visible: String
        @Flag(help: "Shown or hidden over 0.3 s (SPEC §13).") var animated = false
        @OptionGroup var options: CtlOptions
        func requests(_ state: () throws -> TreeView) throws -> [Request] {
            [Request(.setMenuVisible(ControllerID(menu), try Parse.bool(visible), animated: animated), options)]
        }
    }
}

extension CtlVerbs {
    struct SetPages: CtlVerb {
        static let configuration = CommandConfiguration(
            commandName: "set-pages",
            abstract: "Show these pages in a page container (as many as its spine needs)."
        )
        @Argument(help: "The page container.") var page: String
        @Argument(help: "A or A,B") var pages: String
        @Option(help: "forward or reverse") var direction: String = "forward"
        @Flag(help: "A timed transition of animationDuration (SPEC §13).") var animated = false
        @OptionGroup var options: CtlOptions
        func requests(_ state: () throws -> TreeView) throws -> [Request] {
            let command = Command.setPages(
                ControllerID(page),
                Parse.list(pages),
                direction: try PageDirection.named(direction, as: "page direction"),
                animated: animated
            )
            return [Request(command, options)]
        }
    }

    struct Next: CtlVerb {
        static let configuration = CommandConfiguration(abstract: "Turn a page container to the next page(s).")
        @Argument(help: "The page container.") var page: String
        @OptionGroup var options: CtlOptions
        func requests(_ state: () throws -> TreeView) throws -> [Request] {
            [Request(.nextPage(ControllerID(page)), options)]
        }
    }

    struct Previous: CtlVerb {
        static let configuration = CommandConfiguration(abstract: "Turn a page container to the previous page(s).")
        @Argument(help: "The page container.") var page: String
        @OptionGroup var options: CtlOptions
        func requests(_ state: () throws -> TreeView) throws -> [Request] {
            [Request(.previousPage(ControllerID(page)), options)]
        }
    }

    struct SplitMode: CtlVerb {
        static let configuration = CommandConfiguration(
            commandName: "split-mode",
            abstract: "Set a split container's display mode: allVisible, primaryHidden, primaryOverlay."
        )
        @Argument(help: "The split container.") var split: String
        @Argument(help: "allVisible, primaryHidden or primaryOverlay.") var mode: String
        @OptionGroup var options: CtlOptions
        func requests(_ state: () throws -> TreeView) throws -> [Request] {
            let mode = try SplitDisplayMode.named(mode, as: "split display mode")
            return [Request(.setSplitMode(ControllerID(split), mode), options)]
        }
    }
}

extension Parse {
    /// `A,B,C` as controller ids; the empty string is the empty list.
    static func list(_ text: String) -> [ControllerID] {
        text.split(separator: ",").map { ControllerID(String($0).trimmingCharacters(in: .whitespaces)) }
    }
}
