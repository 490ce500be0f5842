import ArgumentParser
import ContainmentBus
import ContainmentModel

enum CtlVerbs {
    static let all: [any ParsableCommand.Type] = [
        Create.self, Destroy.self, Attach.self, Resize.self, MemoryWarning.self, AddChild.self, WillMove.self,
        DidMove.self, Remove.self, Embed.self, Unembed.self, LoadView.self, AddView.self, RemoveView.self,
        SetFrame.self, SetAlpha.self, SetHidden.self, Appearance.self, Transition.self, CompleteTransition.self,
        Present.self, Dismiss.self, Push.self, Pop.self, PopTo.self, PopToRoot.self, SetStack.self, SetChildren.self,
        Select.self, MenuVisible.self, SetPages.self, Next.self, Previous.self, SplitMode.self, Send.self,
        SetProperties.self, SetEditing.self, Rotate.self, ForwardSize.self, Input.self, Action.self, Invoke.self,
        Constrain.self, Unconstrain.self, Batch.self,
    ]

    struct Create: CtlVerb {
        static let configuration = CommandConfiguration(abstract: "Create a controller (SPEC §1).")
        @Argument(help: "The controller's id.") var id: String
        @Option(help: "content, navigation, tab, page, split, menu, or a custom kind a host registers.")
        var kind = "content"
        @Option(help: "The host process that runs it; default: the least loaded connected host.")
        var host: String?
        @Flag(help: "automaticallyForwardsAppearance = false (the container forwards appearance itself).")
        var manualAppearance = false
        @Flag(help: "automaticallyForwardsSizeTransitions = false.")
        var manualSizeTransitions = false
        @Flag(help: "definesPresentationContext = true.")
        var definesContext = false
        @Flag(help: "providesPresentationContextTransitionStyle = true.")
        var providesContextStyle = false
        @Option(
            help:
                "modalPresentationStyle: fullScreen, pageSheet, formSheet, currentContext, overFullScreen, overCurrentContext."
        )
        var presentationStyle: String?
        @Option(help: "modalTransitionStyle: coverVertical, flipHorizontal, crossDissolve, partialCurl.")
        var transitionStyle: String?
        @Option(help: "The title.") var title: String?
        @Option(help: "The tab bar item's title.") var tabItem: String?
        @Option(help: "The navigation item's title.") var navigationItem: String?
        @Option(help: "A page container's transition: scroll or pageCurl.") var pageStyle: String?
        @Option(help: "A page curl's spine: none, min, mid, max.") var spine: String?
        @Flag(help: "A page container's pages are double-sided.") var doubleSided = false
        @Option(help: "A page container's data source: A,B,C in order.") var pages: String?
        @Option(help: "A page container's data source controller (its --pages are the book).") var dataSource: String?
        @Option(help: "A split's primary column share of the width (default 0.4).") var splitFraction: Double?
        @Option(help: "A split's display mode: allVisible, primaryHidden, primaryOverlay.") var displayMode: String?
        @Option(help: "Its delegate: a controller it may send messages to (SPEC §11).") var delegate: String?
        @OptionGroup var options: CtlOptions

        func properties() throws -> ControllerProperties {
            var names = PropertyNames()
            names.manualAppearance = manualAppearance
            names.manualSizeTransitions = manualSizeTransitions
            names.definesPresentationContext = definesContext
            names.providesPresentationContextTransitionStyle = providesContextStyle
            names.presentationStyle = presentationStyle
            names.transitionStyle = transitionStyle
            names.title = title
            names.tabItem = tabItem
            names.navigationItem = navigationItem
            names.pageStyle = pageStyle
            names.spine = spine
            names.doubleSided = doubleSided
            names.pages = pages.map { Parse.list($0).map(\.rawValue) } ?? []
            names.pageDataSource = dataSource
            names.delegate = delegate
            names.splitFraction = splitFraction
            names.displayMode = displayMode
            do {
                return try names.properties()
            } catch {
                throw ValidationError(error.message)
            }
        }

        func requests(_ state: () throws -> TreeView) throws -> [Request] {
            [Request(.create(ControllerID(id), kind: Kind(kind), properties: try properties()), options)]
        }

        /// A create carries its host on the wire, so it is sent here rather than through `requests`.
        func run() async throws {
            let connection = try Connection(options.runtime)
            try submit(try placed(), through: connection, options: options)
        }

        /// Its request with the host it is to run on: a create reads no state.
        func placed() throws -> [Placed] {
            try requests { throw ValidationError("create reads no state") }.map { Placed($0, host: host) }
        }
    }

    struct Destroy: CtlVerb {
        static let configuration = CommandConfiguration(abstract: "Destroy a controller that stands alone.")
        @Argument(help: "The controller's id.") var id: String
        @OptionGroup var options: CtlOptions
        func requests(_ state: () throws -> TreeView) throws -> [Request] {
            [Request(.destroy(ControllerID(id)), options)]
        }
    }

    struct Attach: CtlVerb {
        static let configuration = CommandConfiguration(abstract: "Make a controller the root of a window.")
        @Argument(help: "The controller's id.") var id: String
        @Option(help: "The window's name.") var window: String
        @Option(help: "WIDTHxHEIGHT") var size: String
        @OptionGroup var options: CtlOptions
        func requests(_ state: () throws -> TreeView) throws -> [Request] {
            [Request(.attachWindow(WindowID(window), root: ControllerID(id), size: try Parse.size(size)), options)]
        }
    }

    struct Resize: CtlVerb {
        static let configuration = CommandConfiguration(abstract: "Resize a window (a size transition, SPEC §6).")
        @Argument(help: "The window's name.") var window: String
        @Argument(help: "WIDTHxHEIGHT") var size: String
        @OptionGroup var options: CtlOptions
        func requests(_ state: () throws -> TreeView) throws -> [Request] {
            [Request(.resizeWindow(WindowID(window), size: try Parse.size(size)), options)]
        }
    }

    struct MemoryWarning: CtlVerb {
        static let configuration = CommandConfiguration(
            commandName: "memory-warning",
            abstract: "Send a memory warning to every controller, one host's, or those named."
        )
        @Option(help: "Only the controllers this host runs.") var host: String?
        @Argument(help: "The controllers to warn (none named: every controller).") var controllers: [String] = []
        @OptionGroup var options: CtlOptions

        func requests(_ state: () throws -> TreeView) throws -> [Request] {
            if let host {
                let tree = try state()
                let ids = tree.order.filter { tree.nodes[$0]?.host == host }.map { ControllerID($0) }
                return [Request(.memoryWarning(ids), options)]
            }
            return [Request(.memoryWarning(controllers.isEmpty ? nil : controllers.map { ControllerID($0) }), options)]
        }
    }
}
