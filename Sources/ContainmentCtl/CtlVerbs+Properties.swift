import ArgumentParser
import ContainmentBus
import ContainmentModel
import Foundation

extension CtlVerbs {
    struct SetProperties: CtlVerb {
        static let configuration = CommandConfiguration(
            commandName: "set-properties",
            abstract: "Change a controller's properties (SPEC §13); issued by the controller itself (or --by system).",
            discussion: """
                Only the properties given change; one propertiesChanged event names those whose value did. A \
                navigation or tab item option keeps the item's other parts as they are. Lists are A,B,C (empty: \
                none). --clear NAME sets a property back to its default (title, navigationItem, tabItem, \
                toolbarItems, delegate, handles, supportedOrientations, preferredContentSize, …).
                """
        )
        @Argument(help: "The controller.") var controller: String
        @Option(help: "The title.") var title: String?
        @Option(help: "The navigation item's title.") var navTitle: String?
        @Option(help: "The navigation item's back button title (shown when it is the previous one).")
        var backTitle: String?
        @Option(help: "The navigation item's left bar button items: A,B.") var leftItems: String?
        @Option(help: "The navigation item's right bar button items: A,B.") var rightItems: String?
        @Option(help: "The tab bar item's title.") var tabTitle: String?
        @Option(help: "The tab bar item's badge.") var badge: String?
        @Option(help: "The toolbar items: A,B.") var toolbarItems: String?
        @Option(help: "Its delegate (SPEC §11).") var delegate: String?
        @Option(help: "The input kinds and action names it handles (SPEC §12): tap,threeFingerTap,done.")
        var handles: String?
        @Option(help: "Supported orientations: portrait,portraitUpsideDown,landscapeLeft,landscapeRight.")
        var orientations: String?
        @Option(help: "The size it prefers as a popover: WIDTHxHEIGHT.") var preferredSize: String?
        @Option(help: "definesPresentationContext: true or false.") var definesContext: String?
        @Option(help: "providesPresentationContextTransitionStyle: true or false.") var providesContextStyle: String?
        @Option(help: "modalPresentationStyle.") var presentationStyle: String?
        @Option(help: "modalTransitionStyle.") var transitionStyle: String?
        @Option(
            help: """
                Its published state, KEY=VALUE (repeatable): what a custom container shows of itself. The entries \
                given replace the whole state; --clear state empties it.
                """
        )
        var state: [String] = []
        @Option(help: "Set this property back to its default (repeatable).") var clear: [String] = []
        @OptionGroup var options: CtlOptions

        func requests(_ state: () throws -> TreeView) throws -> [Request] {
            let id = ControllerID(controller)
            var changes: [PropertyChange] = []
            for name in clear {
                guard let change = PropertyChange(named: name, from: ControllerProperties()) else {
                    throw ValidationError(
                        "\"\(name)\" is not a property: \(PropertyChange.names.joined(separator: ", "))"
                    )
                }
                changes.append(change)
            }
            if let title { changes.append(.title(title)) }
            let navigationGiven = [navTitle, backTitle, leftItems, rightItems].contains { $0 != nil }
            let tabGiven = tabTitle != nil || badge != nil
            if navigationGiven || tabGiven {
                let current = try Self.properties(of: id, in: state())
                if navigationGiven {
                    var item = current.navigationItem
                    if let navTitle { item.title = navTitle }
                    if let backTitle { item.backTitle = backTitle }
                    if let leftItems { item.leftItems = Self.list(leftItems) }
                    if let rightItems { item.rightItems = Self.list(rightItems) }
                    changes.append(.navigationItem(item))
                }
                if tabGiven {
                    var item = current.tabItem
                    if let tabTitle { item.title = tabTitle }
                    if let badge { item.badge = badge }
                    changes.append(.tabItem(item))
                }
            }
            if let toolbarItems { changes.append(.toolbarItems(Self.list(toolbarItems))) }
            if let delegate { changes.append(.delegate(ControllerID(delegate))) }
            if let handles { changes.append(.handles(Self.list(handles))) }
            if !self.state.isEmpty {
                var published: [String: String] = [:]
                for entry in self.state {
                    guard let equals = entry.firstIndex(of: "=") else {
                        throw ValidationError("--state takes KEY=VALUE, not \"\(entry)\"")
                    }
                    published[String(entry[..<equals])] = String(entry[entry.index(after: equals)...])
                }
                changes.append(.state(published))
            }
            if let orientations {
                var set: Set<Orientation> = []
                for name in Self.list(orientations) { set.insert(try Orientation.named(name, as: "orientation")) }
                changes.append(.supportedOrientations(set))
            }
            if let preferredSize { changes.append(.preferredContentSize(try Parse.size(preferredSize))) }
            if let definesContext { changes.append(.definesPresentationContext(try Parse.bool(definesContext))) }
            if let providesContextStyle {
                changes.append(.providesPresentationContextTransitionStyle(try Parse.bool(providesContextStyle)))
            }
            if let presentationStyle {
                changes.append(
                    .modalPresentationStyle(
                        try ModalPresentationStyle.named(presentationStyle, as: "presentation style")
                    )
                )
            }
            if let transitionStyle {
                changes.append(
                    .modalTransitionStyle(try ModalTransitionStyle.named(transitionStyle, as: "transition style"))
                )
            }
            guard !changes.isEmpty else { throw ValidationError("Name at least one property to change.") }
            return [Request(.setProperties(id, changes), options)]
        }

        /// A comma-separated list; empty: none.
        static func list(_ text: String) -> [String] {
            text.split(separator: ",", omittingEmptySubsequences: true).map(String.init)
        }

        /// The controller's properties in the snapshot.
        static func properties(of id: ControllerID, in tree: TreeView) throws -> ControllerProperties {
            guard let node = tree.nodes[id.rawValue] else { throw ValidationError("There is no controller \(id).") }
            return node.properties
        }
    }

    struct SetEditing: CtlVerb {
        static let configuration = CommandConfiguration(
            commandName: "set-editing",
            abstract: "Turn a controller's editing on or off (SPEC §13); issued by the controller or its parent."
        )
        @Argument(help: "The controller.") var controller: String
        @Argument(help: "true or false") var editing: String
        @Flag(help: "The setEditing callback says animated.") var animated = false
        @OptionGroup var options: CtlOptions
        func requests(_ state: () throws -> TreeView) throws -> [Request] {
            [Request(.setEditing(ControllerID(controller), try Parse.bool(editing), animated: animated), options)]
        }
    }
}

extension CtlVerbs {
    struct Rotate: CtlVerb {
        static let configuration = CommandConfiguration(
            abstract: "Turn a window (SPEC §13), as the system: refused unless the controller that decides supports it."
        )
        @Argument(help: "The window's name.") var window: String
        @Argument(help: "portrait, portraitUpsideDown, landscapeLeft or landscapeRight") var orientation: String
        @OptionGroup var options: CtlOptions
        func requests(_ state: () throws -> TreeView) throws -> [Request] {
            [Request(.rotate(WindowID(window), try Orientation.named(orientation, as: "orientation")), options)]
        }
    }

    struct ForwardSize: CtlVerb {
        static let configuration = CommandConfiguration(
            commandName: "forward-size",
            abstract: "Forward a size transition from a container to a child (SPEC §13), as the container."
        )
        @Argument(help: "The container controller.") var container: String
        @Argument(help: "The child controller.") var child: String
        @Argument(help: "WIDTHxHEIGHT") var size: String
        @OptionGroup var options: CtlOptions
        func requests(_ state: () throws -> TreeView) throws -> [Request] {
            let command = Command.forwardSizeTransition(
                ControllerID(container),
                child: ControllerID(child),
                size: try Parse.size(size)
            )
            return [Request(command, options)]
        }
    }
}
