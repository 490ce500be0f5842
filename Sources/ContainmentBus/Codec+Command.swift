import Foundation
import ContainmentModel

extension Containment_V1_Properties {
    public init(_ properties: ControllerProperties) {
        self.init()
        let defaults = ControllerProperties()
        if properties.automaticallyForwardsAppearance != defaults.automaticallyForwardsAppearance {
            automaticallyForwardsAppearance = properties.automaticallyForwardsAppearance
        }
        if properties.automaticallyForwardsSizeTransitions != defaults.automaticallyForwardsSizeTransitions {
            automaticallyForwardsSizeTransitions = properties.automaticallyForwardsSizeTransitions
        }
        if properties.definesPresentationContext { definesPresentationContext = true }
        if properties.providesPresentationContextTransitionStyle { providesPresentationContextTransitionStyle = true }
        if properties.modalPresentationStyle != defaults.modalPresentationStyle {
            modalPresentationStyle = properties.modalPresentationStyle.rawValue
        }
        if properties.modalTransitionStyle != defaults.modalTransitionStyle {
            modalTransitionStyle = properties.modalTransitionStyle.rawValue
        }
        if let title = properties.title { self.title = title }
        if let title = properties.tabItem.title { tabItem = title }
        if let badge = properties.tabItem.badge { tabBadge = badge }
        let navigation = properties.navigationItem
        if let title = navigation.title { navigationItem = title }
        if let back = navigation.backTitle { navigationBackTitle = back }
        navigationLeftItems = navigation.leftItems
        navigationRightItems = navigation.rightItems
        toolbarItems = properties.toolbarItems
        handles = properties.handles
        if properties.supportedOrientations != Orientation.defaultSupported {
            supportedOrientations = properties.supportedOrientations.sorted().map(\.rawValue)
        }
        if let size = properties.preferredContentSize { preferredContentSize = Containment_V1_Size(size) }
        if properties.editing { editing = true }
        if properties.pageTransitionStyle != defaults.pageTransitionStyle {
            pageTransitionStyle = properties.pageTransitionStyle.rawValue
        }
        if properties.spineLocation != defaults.spineLocation { spineLocation = properties.spineLocation.rawValue }
        if properties.doubleSided { doubleSided = true }
        pageSequence = properties.pageSequence.map(\.rawValue)
        if let source = properties.pageDataSource { pageDataSource = source.rawValue }
        if properties.splitFraction != defaults.splitFraction { splitFraction = properties.splitFraction }
        if properties.splitDisplayMode != defaults.splitDisplayMode {
            splitDisplayMode = properties.splitDisplayMode.rawValue
        }
        if let delegate = properties.delegate { self.delegate = delegate.rawValue }
        // Sorted: the same state encodes to the same bytes in every process (a dictionary's order is per process).
        state = properties.state.sorted { $0.key < $1.key }.map { entry in
            .with {
                $0.key = entry.key
                $0.value = entry.value
            }
        }
    }

    public func model() throws(ContainmentError) -> ControllerProperties {
        var properties = ControllerProperties()
        if hasAutomaticallyForwardsAppearance {
            properties.automaticallyForwardsAppearance = automaticallyForwardsAppearance
        }
        if hasAutomaticallyForwardsSizeTransitions {
            properties.automaticallyForwardsSizeTransitions = automaticallyForwardsSizeTransitions
        }
        if hasDefinesPresentationContext { properties.definesPresentationContext = definesPresentationContext }
        if hasProvidesPresentationContextTransitionStyle {
            properties.providesPresentationContextTransitionStyle = providesPresentationContextTransitionStyle
        }
        if hasModalPresentationStyle {
            properties.modalPresentationStyle = try ModalPresentationStyle.named(
                modalPresentationStyle,
                as: "modal presentation style"
            )
        }
        if hasModalTransitionStyle {
            properties.modalTransitionStyle = try ModalTransitionStyle.named(
                modalTransitionStyle,
                as: "modal transition style"
            )
        }
        if hasTitle { properties.title = title }
        properties.tabItem = TabItem(title: hasTabItem ? tabItem : nil, badge: hasTabBadge ? tabBadge : nil)
        properties.navigationItem = NavigationItem(
            title: hasNavigationItem ? navigationItem : nil,
            backTitle: hasNavigationBackTitle ? navigationBackTitle : nil,
            leftItems: navigationLeftItems,
            rightItems: navigationRightItems
        )
        properties.toolbarItems = toolbarItems
        properties.handles = handles
        if !supportedOrientations.isEmpty {
            var orientations: Set<Orientation> = []
            for name in supportedOrientations { orientations.insert(try Orientation.named(name, as: "orientation")) }
            properties.supportedOrientations = orientations
        }
        if hasPreferredContentSize { properties.preferredContentSize = preferredContentSize.model }
        if hasEditing { properties.editing = editing }
        if hasPageTransitionStyle {
            properties.pageTransitionStyle = try PageTransitionStyle.named(
                pageTransitionStyle,
                as: "page transition style"
            )
        }
        if hasSpineLocation {
            properties.spineLocation = try SpineLocation.named(spineLocation, as: "spine location")
        }
        if hasDoubleSided { properties.doubleSided = doubleSided }
        if !pageSequence.isEmpty { properties.pageSequence = pageSequence.map { ControllerID($0) } }
        if hasPageDataSource { properties.pageDataSource = ControllerID(pageDataSource) }
        if hasSplitFraction {
            guard splitFraction.isFinite, (0...1).contains(splitFraction) else {
                throw .malformed("A split fraction is between 0 and 1, not \(splitFraction).")
            }
            properties.splitFraction = splitFraction
        }
        if hasSplitDisplayMode {
            properties.splitDisplayMode = try SplitDisplayMode.named(splitDisplayMode, as: "split display mode")
        }
        if hasDelegate { properties.delegate = try controllerID(delegate, field: "delegate") }
        var published: [String: String] = [:]
        for entry in state {
            guard published.updateValue(entry.value, forKey: entry.key) == nil else {
                throw .malformed("A published state names the key \"\(entry.key)\" twice.")
            }
        }
        properties.state = published
        return properties
    }
}

extension WireCommand {
    /// The wire form of `request`; `host` is the host a created controller should run on.
    public init(_ request: Request, host: String? = nil) {
        self.init()
        by = request.by.description
        switch request.command {
        case .create(let id, let kind, let properties):
            create = .with {
                $0.id = id.rawValue
                $0.kind = kind.rawValue
                // Left out when all are defaults (most creates): nothing to write, read or convert.
                if properties != ControllerProperties() { $0.properties = Containment_V1_Properties(properties) }
                $0.host = host ?? ""
            }
        case .destroy(let id): destroy = .with { $0.id = id.rawValue }
        case .attachWindow(let window, let root, let size):
            attachWindow = .with {
                $0.window = window.rawValue
                $0.root = root.rawValue
                $0.size = Containment_V1_Size(size)
            }
        case .resizeWindow(let window, let size):
            resizeWindow = .with {
                $0.window = window.rawValue
                $0.size = Containment_V1_Size(size)
            }
        case .memoryWarning(let targets):
            memoryWarning = .with {
                $0.all = targets == nil
                $0.controllers = targets?.map(\.rawValue) ?? []
            }
        case .addChild(let child, let parent):
            addChild = .with {
                $0.child = child.rawValue
                $0.parent = parent.rawValue
            }
        case .willMove(let child, let parent):
            willMove = .with {
                $0.child = child.rawValue
                if let parent { $0.parent = parent.rawValue }
            }
        case .didMove(let child, let parent):
            didMove = .with {
                $0.child = child.rawValue
                $0.parent = parent.rawValue
            }
        case .removeFromParent(let child): removeFromParent = .with { $0.child = child.rawValue }
        case .loadView(let id): loadView = .with { $0.controller = id.rawValue }
        case .addSubview(let view, let superview, let index):
            addSubview = .with {
                $0.view = view.description
                $0.superview = superview.description
                if let index { $0.index = Int32(clamping: index) }
            }
        case .removeFromSuperview(let view): removeFromSuperview = .with { $0.view = view.description }
        case .setFrame(let view, let frame):
            setFrame = .with {
                $0.view = view.description
                $0.frame = Containment_V1_Rect(frame)
            }
        case .setAlpha(let view, let alpha):
            setAlpha = .with {
                $0.view = view.description
                $0.alpha = alpha
            }
        case .setHidden(let view, let hidden):
            setHidden = .with {
                $0.view = view.description
                $0.hidden = hidden
            }
        case .beginAppearance(let id, let appearing, let animated):
            beginAppearance = .with {
                $0.controller = id.rawValue
                $0.appearing = appearing
                $0.animated = animated
            }
        case .endAppearance(let id): endAppearance = .with { $0.controller = id.rawValue }
        case .transition(let parent, let from, let to, let duration, let frame):
            transition = .with {
                $0.parent = parent.rawValue
                $0.from = from.rawValue
                $0.to = to.rawValue
                $0.duration = duration
                if let frame { $0.frame = Containment_V1_Rect(frame) }
            }
        case .completeTransition(let parent, let from, let to):
            completeTransition = .with {
                $0.parent = parent.rawValue
                $0.from = from.rawValue
                $0.to = to.rawValue
            }
        case .present(let presented, let presenter, let style, let transitionStyle, let animated, let anchor):
            present = .with {
                $0.presented = presented.rawValue
                $0.presenter = presenter.rawValue
                if let style { $0.style = style.rawValue }
                if let transitionStyle { $0.transitionStyle = transitionStyle.rawValue }
                $0.animated = animated
                if let anchor { $0.anchor = anchor.description }
            }
        case .dismiss(let id, let animated):
            dismiss = .with {
                $0.controller = id.rawValue
                $0.animated = animated
            }
        case .push(let pushed, let navigation, let animated):
            push = .with {
                $0.pushed = pushed.rawValue
                $0.navigation = navigation.rawValue
                $0.animated = animated
            }
        case .pop(let navigation, let animated):
            pop = .with {
                $0.navigation = navigation.rawValue
                $0.animated = animated
            }
        case .popTo(let target, let navigation, let animated):
            popTo = .with {
                $0.target = target.rawValue
                $0.navigation = navigation.rawValue
                $0.animated = animated
            }
        case .popToRoot(let navigation, let animated):
            popToRoot = .with {
                $0.navigation = navigation.rawValue
                $0.animated = animated
            }
        case .setStack(let navigation, let stack, let animated):
            setStack = .with {
                $0.navigation = navigation.rawValue
                $0.stack = stack.map(\.rawValue)
                $0.animated = animated
            }
        case .setChildren(let container, let children):
            setChildren = .with {
                $0.container = container.rawValue
                $0.children = children.map(\.rawValue)
            }
        case .select(let container, let selection, let animated):
            select = .with {
                $0.container = container.rawValue
                switch selection {
                case .index(let index): $0.index = Int32(clamping: index)
                case .controller(let id): $0.controller = id.rawValue
                }
                $0.animated = animated
            }
        case .setMenuVisible(let menu, let visible, let animated):
            setMenuVisible = .with {
                $0.menu = menu.rawValue
                $0.visible = visible
                $0.animated = animated
            }
        case .invoke(let id, let verb, let arguments):
            invoke = .with {
                $0.controller = id.rawValue
                $0.verb = verb
                $0.arguments = arguments
            }
        case .input(let window, let point, let kind, let direction):
            input = .with {
                $0.window = window.rawValue
                $0.point = Containment_V1_Point(point)
                $0.kind = kind
                $0.direction = direction?.rawValue ?? ""
            }
        case .action(let from, let name, let payload):
            action = .with {
                $0.from = from.rawValue
                $0.name = name
                $0.payload = Data(payload)
            }
        case .setPages(let page, let pages, let direction, let animated):
            setPages = .with {
                $0.page = page.rawValue
                $0.pages = pages.map(\.rawValue)
                $0.direction = direction.rawValue
                $0.animated = animated
            }
        case .nextPage(let page), .previousPage(let page):
            turnPage = .with {
                $0.page = page.rawValue
                if case .nextPage = request.command { $0.forward = true }
            }
        case .setSplitMode(let split, let mode):
            setSplitMode = .with {
                $0.split = split.rawValue
                $0.mode = mode.rawValue
            }
        case .setProperties(let id, let changes):
            var properties = ControllerProperties()
            for change in changes { change.apply(to: &properties) }
            setProperties = .with {
                $0.controller = id.rawValue
                $0.properties = Containment_V1_Properties(properties)
                $0.changed = changes.map(\.name)
                // Named, the list is written as it is, even the default one or none (which the model refuses).
                for case .supportedOrientations(let set) in changes {
                    $0.properties.supportedOrientations = set.sorted().map(\.rawValue)
                }
            }
        case .rotate(let window, let orientation):
            rotate = .with {
                $0.window = window.rawValue
                $0.orientation = orientation.rawValue
            }
        case .forwardSizeTransition(let id, let child, let size):
            forwardSizeTransition = .with {
                $0.container = id.rawValue
                $0.child = child.rawValue
                $0.size = Containment_V1_Size(size)
            }
        case .setEditing(let id, let editing, let animated):
            setEditing = .with {
                $0.controller = id.rawValue
                $0.editing = editing
                $0.animated = animated
            }
        case .send(let from, let to, let name, let payload):
            send = .with {
                $0.from = from.rawValue
                $0.to = to.rawValue
                $0.name = name
                $0.payload = Data(payload)
            }
        case .constrain(let owner, let id, let constraint):
            constrain = .with {
                $0.owner = owner.rawValue
                $0.id = id
                $0.expression = constraint.description
            }
        case .unconstrain(let owner, let id):
            unconstrain = .with {
                $0.owner = owner.rawValue
                $0.id = id
            }
        }
    }

    /// The party that issues it; an empty `by` is the natural party (``Party/natural``).
    public var party: Party { Party(parsing: by) }

    /// The model request it carries, or `malformed`.
    ///
    /// A memory warning to a host is resolved by the supervisor, which knows the host's controllers (`hostTargets`).
    public func request(hostTargets: (String) -> [ControllerID] = { _ in [] }) throws(ContainmentError) -> Request {
        guard let kind else { throw .malformed("The command has no kind.") }
        let command: Command
        switch kind {
        case .create(let m):
            command = .create(
                try controllerID(m.id, field: "create.id"),
                kind: Kind(m.kind),
                properties: m.hasProperties ? try m.properties.model() : ControllerProperties()
            )
        case .destroy(let m): command = .destroy(try controllerID(m.id, field: "destroy.id"))
        case .attachWindow(let m):
            command = .attachWindow(
                WindowID(m.window),
                root: try controllerID(m.root, field: "root"),
                size: m.size.model
            )
        case .resizeWindow(let m): command = .resizeWindow(WindowID(m.window), size: m.size.model)
        case .memoryWarning(let m):
            if m.all {
                command = .memoryWarning(nil)
            } else if !m.host.isEmpty {
                command = .memoryWarning(hostTargets(m.host))
            } else {
                command = .memoryWarning(m.controllers.map { ControllerID($0) })
            }
        case .addChild(let m):
            command = .addChild(
                try controllerID(m.child, field: "child"),
                to: try controllerID(m.parent, field: "parent")
            )
        case .willMove(let m):
            command = .willMove(
                try controllerID(m.child, field: "child"),
                toParent: m.hasParent ? try controllerID(m.parent, field: "parent") : nil
            )
        case .didMove(let m):
            command = .didMove(
                try controllerID(m.child, field: "child"),
                toParent: try controllerID(m.parent, field: "parent")
            )
        case .removeFromParent(let m): command = .removeFromParent(try controllerID(m.child, field: "child"))
        case .loadView(let m): command = .loadView(try controllerID(m.controller, field: "controller"))
        case .addSubview(let m):
            command = .addSubview(
                try viewID(m.view, field: "view"),
                to: try viewID(m.superview, field: "superview"),
                at: m.hasIndex ? Int(m.index) : nil
            )
        case .removeFromSuperview(let m): command = .removeFromSuperview(try viewID(m.view, field: "view"))
        case .setFrame(let m): command = .setFrame(try viewID(m.view, field: "view"), m.frame.model)
        case .setAlpha(let m): command = .setAlpha(try viewID(m.view, field: "view"), m.alpha)
        case .setHidden(let m): command = .setHidden(try viewID(m.view, field: "view"), m.hidden)
        case .beginAppearance(let m):
            command = .beginAppearance(
                try controllerID(m.controller, field: "controller"),
                appearing: m.appearing,
                animated: m.animated
            )
        case .endAppearance(let m): command = .endAppearance(try controllerID(m.controller, field: "controller"))
        case .transition(let m):
            command = .transition(
                in: try controllerID(m.parent, field: "parent"),
                from: try controllerID(m.from, field: "from"),
                to: try controllerID(m.to, field: "to"),
                duration: m.duration,
                frame: m.hasFrame ? m.frame.model : nil
            )
        case .completeTransition(let m):
            command = .completeTransition(
                in: try controllerID(m.parent, field: "parent"),
                from: try controllerID(m.from, field: "from"),
                to: try controllerID(m.to, field: "to")
            )
        case .present(let m):
            let style = m.hasStyle ? try ModalPresentationStyle.named(m.style, as: "modal presentation style") : nil
            let transitionStyle =
                m.hasTransitionStyle
                ? try ModalTransitionStyle.named(m.transitionStyle, as: "modal transition style") : nil
            command = .present(
                try controllerID(m.presented, field: "presented"),
                on: try controllerID(m.presenter, field: "presenter"),
                style: style,
                transitionStyle: transitionStyle,
                animated: m.animated,
                anchor: m.hasAnchor ? try viewID(m.anchor, field: "anchor") : nil
            )
        case .dismiss(let m):
            command = .dismiss(try controllerID(m.controller, field: "controller"), animated: m.animated)
        case .push(let m):
            command = .push(
                try controllerID(m.pushed, field: "pushed"),
                on: try controllerID(m.navigation, field: "navigation"),
                animated: m.animated
            )
        case .pop(let m):
            command = .pop(try controllerID(m.navigation, field: "navigation"), animated: m.animated)
        case .popTo(let m):
            command = .popTo(
                try controllerID(m.target, field: "target"),
                in: try controllerID(m.navigation, field: "navigation"),
                animated: m.animated
            )
        case .popToRoot(let m):
            command = .popToRoot(try controllerID(m.navigation, field: "navigation"), animated: m.animated)
        case .setStack(let m):
            var stack: [ControllerID] = []
            for id in m.stack { stack.append(try controllerID(id, field: "stack")) }
            command = .setStack(try controllerID(m.navigation, field: "navigation"), stack, animated: m.animated)
        case .setChildren(let m):
            var children: [ControllerID] = []
            for id in m.children { children.append(try controllerID(id, field: "children")) }
            command = .setChildren(try controllerID(m.container, field: "container"), children)
        case .select(let m):
            let selection: Selection
            switch m.target {
            case .index(let index)?: selection = .index(Int(index))
            case .controller(let id)?: selection = .controller(try controllerID(id, field: "controller"))
            case nil: throw .malformed("select names neither an index nor a controller.")
            }
            command = .select(try controllerID(m.container, field: "container"), selection, animated: m.animated)
        case .setMenuVisible(let m):
            command = .setMenuVisible(try controllerID(m.menu, field: "menu"), m.visible, animated: m.animated)
        case .invoke(let m):
            command = .invoke(try controllerID(m.controller, field: "controller"), verb: m.verb, arguments: m.arguments)
        case .input(let m):
            command = .input(
                WindowID(m.window),
                at: m.point.model,
                kind: m.kind,
                direction: m.direction.isEmpty ? nil : try SwipeDirection.named(m.direction, as: "swipe direction")
            )
        case .action(let m):
            command = .action(from: try controllerID(m.from, field: "from"), name: m.name, payload: Array(m.payload))
        case .setPages(let m):
            var pages: [ControllerID] = []
            for id in m.pages { pages.append(try controllerID(id, field: "pages")) }
            let direction = m.direction.isEmpty ? .forward : try PageDirection.named(m.direction, as: "page direction")
            command = .setPages(
                try controllerID(m.page, field: "page"),
                pages,
                direction: direction,
                animated: m.animated
            )
        case .turnPage(let m):
            let page = try controllerID(m.page, field: "page")
            command = m.forward ? .nextPage(page) : .previousPage(page)
        case .setSplitMode(let m):
            command = .setSplitMode(
                try controllerID(m.split, field: "split"),
                try SplitDisplayMode.named(m.mode, as: "split display mode")
            )
        case .setProperties(let m):
            let properties = try m.properties.model()
            var changes: [PropertyChange] = []
            for name in m.changed {
                guard var change = PropertyChange(named: name, from: properties) else {
                    throw .malformed("\"\(name)\" is not a property set-properties changes.")
                }
                // Named, an empty list means none (elsewhere it means the default).
                if name == "supportedOrientations", m.properties.supportedOrientations.isEmpty {
                    change = .supportedOrientations([])
                }
                changes.append(change)
            }
            command = .setProperties(try controllerID(m.controller, field: "controller"), changes)
        case .rotate(let m):
            command = .rotate(WindowID(m.window), try Orientation.named(m.orientation, as: "orientation"))
        case .forwardSizeTransition(let m):
            command = .forwardSizeTransition(
                try controllerID(m.container, field: "container"),
                child: try controllerID(m.child, field: "child"),
                size: m.size.model
            )
        case .setEditing(let m):
            command = .setEditing(
                try controllerID(m.controller, field: "controller"),
                m.editing,
                animated: m.animated
            )
        case .send(let m):
            command = .send(
                from: try controllerID(m.from, field: "from"),
                to: try controllerID(m.to, field: "to"),
                name: m.name,
                payload: Array(m.payload)
            )
        case .constrain(let m):
            let constraint: LayoutConstraint
            do {
                constraint = try LayoutConstraint(parsing: m.expression)
            } catch {
                throw .malformed(error.message)
            }
            command = .constrain(try controllerID(m.owner, field: "owner"), id: m.id, constraint)
        case .unconstrain(let m):
            command = .unconstrain(try controllerID(m.owner, field: "owner"), id: m.id)
        }
        return Request(command, by: party)
    }
}
