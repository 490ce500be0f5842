import ContainmentModel

/// SplitMix64: a small, seedable generator, so a failing seed replays exactly.
public struct SplitMix64: RandomNumberGenerator, Sendable {
    public var state: UInt64
    public init(seed: UInt64) { state = seed }
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// The ids a ``RandomCommands`` draws from. Commands name only these, so two generators over disjoint pools drive
/// independent parts of one tree (as long as neither sends an unscoped memory warning).
public struct CommandPool: Sendable {
    /// Content controllers.
    public var ids: [ControllerID]
    /// Standard containers: children of others like any controller, but parents only through their own verbs. The
    /// second page container of each pool (if any) has a mid spine and is double-sided.
    public var containers: [(ControllerID, Kind)]
    public var windows: [WindowID]
    public var names = ["a", "b"]
    /// The kind the non-container controllers are created with: content, or a custom kind the model treats as content
    /// (`stress --answering`: forms, whose code answers).
    public var contentKind: Kind = .content

    public init(ids: [ControllerID], containers: [(ControllerID, Kind)], windows: [WindowID]) {
        precondition(!ids.isEmpty && !containers.isEmpty && !windows.isEmpty, "a command pool needs every kind of id")
        self.ids = ids
        self.containers = containers
        self.windows = windows
    }

    /// The small pool the model's randomized tests use: ten content controllers, six containers, two windows.
    public static let small = CommandPool(
        ids: (0..<10).map { ControllerID("c\($0)") },
        containers: [
            ("nav0", .navigation), ("tab0", .tab), ("menu0", .menu), ("page0", .page), ("page1", .page),
            ("split0", .split),
        ],
        windows: ["w0", "w1"]
    )

    /// A pool of `count` controllers named `PREFIX-…`: one in seven a standard container (every kind in turn), the rest
    /// content, and two windows.
    public static func prefixed(_ prefix: String, count: Int) -> CommandPool {
        let kinds: [Kind] = [.navigation, .tab, .menu, .page, .page, .split]
        let containerCount = max(kinds.count, count / 7)
        let containers = (0..<containerCount).map { index in
            (ControllerID("\(prefix)-k\(index)"), kinds[index % kinds.count])
        }
        let ids = (0..<max(1, count - containerCount)).map { ControllerID("\(prefix)-c\($0)") }
        return CommandPool(
            ids: ids,
            containers: containers,
            windows: [WindowID("\(prefix)-w0"), WindowID("\(prefix)-w1")]
        )
    }

    /// Every controller of the pool.
    public var all: [ControllerID] { ids + containers.map(\.0) }

    /// The properties a container of the pool is created with: its page sequence drawn from the pool.
    func properties(of container: ControllerID, kind: Kind, using rng: inout SplitMix64) -> ControllerProperties {
        var properties = ControllerProperties()
        properties.pageSequence = Array(ids.shuffled(using: &rng).prefix(12))
        if kind == .page, containers.filter({ $0.1 == .page }).dropFirst().first?.0 == container {
            properties.spineLocation = .mid
            properties.doubleSided = true
        }
        // The cases of an enumeration: never empty.
        properties.splitDisplayMode = SplitDisplayMode.allCases.randomElement(using: &rng)!
        // Half the navigation and tab containers tell a delegate of their switches (SPEC §15).
        if kind == .navigation || kind == .tab, Bool.random(using: &rng) {
            properties.delegate = ids.randomElement(using: &rng)
        }
        // Half the page containers ask a data source (SPEC §15: its code names the pages where it answers).
        if kind == .page, Bool.random(using: &rng) {
            properties.pageDataSource = ids.randomElement(using: &rng)
        }
        return properties
    }

    /// The system's creations of the whole pool, containers first.
    public func creations(seed: UInt64) -> [Request] {
        var rng = SplitMix64(seed: seed)
        return containers.map { id, kind in
            .system(.create(id, kind: kind, properties: properties(of: id, kind: kind, using: &rng)))
        } + ids.map { .system(.create($0, kind: contentKind)) }
    }
}

/// Random requests over a pool of ids, valid and invalid: mostly issued by the natural party, sometimes by anyone.
/// With `manual` false there is no manual forwarding and no explicit appearance call, and transitions are instant, so
/// every controller's appearance must match whether it is on screen. (Every `randomElement(using:)!` below draws from
/// a non-empty pool — the ids, containers, windows or names, which ``CommandPool`` requires, a constant list of sizes,
/// or the cases of an enumeration — so it cannot be nil.)
public struct RandomCommands: Sendable {
    var rng: SplitMix64
    public let manual: Bool
    public let pool: CommandPool
    /// Transitions with a duration, which someone must complete later. Off where a timer might complete them.
    public var timedTransitions: Bool
    /// Memory warnings to every controller, not only to ones of the pool.
    public var globalMemoryWarnings: Bool
    /// Calls of custom container verbs (`invoke`). Off where a runtime judges them: which verbs exist is what its hosts
    /// registered, refused before the model, so a client's replica could not predict the answer.
    public var invocations = false
    /// Layout constraints (SPEC §16): mostly a container's on its children's root views and its own views, now and
    /// then on a view it may not name, required ones that conflict, removals. Off by default: the streams seeds were
    /// recorded with stay as they were.
    public var constraints = false
    /// Tab containers given more children than their bars show (SPEC §16, the More tab), and tabs selected through
    /// More. Off by default, for the same reason.
    public var moreTabs = false

    var ids: [ControllerID] { pool.ids }
    var containers: [(ControllerID, Kind)] { pool.containers }
    var windows: [WindowID] { pool.windows }
    var names: [String] { pool.names }

    public init(seed: UInt64, manual: Bool, pool: CommandPool = .small) {
        rng = SplitMix64(seed: seed)
        self.manual = manual
        self.pool = pool
        timedTransitions = manual
        globalMemoryWarnings = true
    }

    mutating func id() -> ControllerID { ids.randomElement(using: &rng)! }
    mutating func chance(_ percent: Int) -> Bool { Int.random(in: 0..<100, using: &rng) < percent }

    mutating func view(of owner: ControllerID? = nil) -> ViewID {
        let owner = owner ?? id()
        return chance(50) ? .root(owner) : ViewID(owner: owner, name: names.randomElement(using: &rng)!)
    }

    mutating func rect() -> Rect {
        if chance(3) { return Rect(x: 0, y: 0, width: -5, height: 1) }
        return Rect(
            x: Double(Int.random(in: -100...400, using: &rng)),
            y: Double(Int.random(in: -100...400, using: &rng)),
            width: Double([0, 100, 320, 768].randomElement(using: &rng)!),
            height: Double([0, 100, 480, 1024].randomElement(using: &rng)!)
        )
    }

    /// The party that would naturally issue a command about `id` (its parent), or sometimes anyone.
    mutating func party(natural: Party, in state: ContainmentState) -> Party {
        guard chance(15) else { return natural }
        return chance(20) ? .system : .controller(id())
    }

    func parentParty(of id: ControllerID, in state: ContainmentState) -> Party {
        state.controllers[id]?.parent.map { .controller($0) } ?? .system
    }

    /// Whether a container's switch is animated: a timed transition, so only where timed transitions are drawn
    /// (someone must complete them).
    mutating func animated() -> Bool { timedTransitions && chance(40) }

    /// SPEC §16, the More tab: a tab container given six or seven children (those it can take first), a selection
    /// through More — by index, by controller, or More itself — or one of its first tabs.
    mutating func moreTabCommand(in state: ContainmentState) -> [Request] {
        guard let tab = containers.filter({ $0.1 == .tab }).randomElement(using: &rng)?.0 else { return [] }
        let children = state.controllers[tab]?.children ?? []
        let command: Command
        let free = ids.filter { id in
            guard let record = state.controllers[id] else { return false }
            return (record.parent == nil || record.parent == tab) && record.children.isEmpty
                && record.presenting == nil && record.presented == nil && state.window(rootedAt: id) == nil
        }
        switch Int.random(in: 0..<10, using: &rng) {
        case 0..<3 where free.count >= 5:
            let count = Int.random(in: 5...min(7, free.count), using: &rng)
            command = .setChildren(tab, Array(free.shuffled(using: &rng).prefix(count)))
        case 0..<3:
            // Not enough to take: one of the pool leaves its parent, by itself.
            let busy = ids.filter { state.controllers[$0]?.parent != nil }
            guard let leaving = busy.randomElement(using: &rng) else { return [] }
            return [.by(leaving, .removeFromParent(leaving))]
        case 3..<7:
            command = .select(tab, .index(Int.random(in: 2...7, using: &rng)), animated: false)
        case 7:
            command = .select(tab, .controller(.more(of: tab)), animated: false)
        default:
            command = .select(tab, .controller(children.randomElement(using: &rng) ?? id()), animated: false)
        }
        return [Request(command, by: .controller(tab))]
    }

    /// A standard container's own verb, on a container that exists (or not, now and then).
    mutating func containerCommand(in state: ContainmentState) -> [Request] {
        let (container, kind) = containers.randomElement(using: &rng)!
        let children = state.controllers[container]?.children ?? []
        let some = Array(ids.shuffled(using: &rng).prefix(Int.random(in: 0...4, using: &rng)))
        let command: Command
        switch kind {
        case .navigation:
            switch Int.random(in: 0..<5, using: &rng) {
            case 0, 1: command = .push(chance(80) ? id() : container, on: container, animated: animated())
            case 2: command = .pop(container, animated: animated())
            case 3: command = .popTo(children.randomElement(using: &rng) ?? id(), in: container, animated: animated())
            default:
                command =
                    chance(50)
                    ? .popToRoot(container, animated: animated()) : .setStack(container, some, animated: animated())
            }
        case .menu where chance(20):
            command = .setMenuVisible(container, chance(50), animated: animated())
        case .page:
            if chance(40) {
                command = .setPages(
                    container,
                    Array(ids.shuffled(using: &rng).prefix(Int.random(in: 1...2, using: &rng))),
                    animated: animated()
                )
            } else {
                command = chance(50) ? .nextPage(container) : .previousPage(container)
            }
        case .split:
            if chance(60) {
                command = .setChildren(
                    container,
                    Array(ids.shuffled(using: &rng).prefix(Int.random(in: 0...3, using: &rng)))
                )
            } else {
                command = .setSplitMode(container, SplitDisplayMode.allCases.randomElement(using: &rng)!)
            }
        default:
            if chance(40) {
                command = .setChildren(container, some)
            } else if chance(50) {
                command = .select(container, .index(Int.random(in: -1...4, using: &rng)), animated: animated())
            } else {
                command = .select(
                    container,
                    .controller(children.randomElement(using: &rng) ?? id()),
                    animated: animated()
                )
            }
        }
        // SPEC §15: a controller of its subtree drives it too, now and then.
        let drivable =
            switch command {
            case .setChildren, .setMenuVisible, .setSplitMode: false
            default: true
            }
        if drivable, chance(25), let child = children.randomElement(using: &rng) {
            return [Request(command, by: .controller(child))]
        }
        return [Request(command, by: party(natural: .controller(container), in: state))]
    }

    /// A message (SPEC §11), mostly to a controller `from` is related to, sometimes to anyone or as someone else.
    mutating func message(from: ControllerID, in state: ContainmentState) -> Request {
        let record = state.controllers[from]
        let related: [ControllerID] =
            [record?.parent, record?.presenting, record?.presented, record?.properties.delegate].compactMap { $0 }
            + (record?.children ?? [])
        let to = chance(80) ? related.randomElement(using: &rng) ?? id() : id()
        let payload = Array(
            repeating: UInt8.random(in: 0...255, using: &rng),
            count: Int.random(in: 0...3, using: &rng)
        )
        let name = chance(3) ? "" : names.randomElement(using: &rng)!
        return Request(
            .send(from: from, to: to, name: name, payload: payload),
            by: party(natural: .controller(from), in: state)
        )
    }

    /// One to three property changes (SPEC §13), now and then an invalid one.
    mutating func propertyChanges() -> [PropertyChange] {
        (0..<Int.random(in: 1...3, using: &rng)).map { _ in
            switch Int.random(in: 0..<8, using: &rng) {
            case 0: .title(chance(20) ? nil : names.randomElement(using: &rng)!)
            case 7:
                .state(
                    chance(5)
                        ? ["": "an empty key"]
                        : Dictionary(
                            names.prefix(Int.random(in: 0...2, using: &rng)).map { ($0, id().rawValue) },
                            uniquingKeysWith: { first, _ in first }
                        )
                )
            case 1: .delegate(chance(20) ? nil : id())
            case 2: .handles(chance(50) ? ["tap", "a"] : ["b"])
            case 3: .supportedOrientations(Set(Orientation.allCases.filter { _ in chance(50) }))
            case 4: .toolbarItems(Array(names.prefix(Int.random(in: 0...2, using: &rng))))
            case 5:
                .navigationItem(
                    NavigationItem(
                        title: names.randomElement(using: &rng)!,
                        backTitle: nil,
                        leftItems: chance(50) ? [names.randomElement(using: &rng)!] : [],
                        rightItems: chance(50) ? ["edit", names.randomElement(using: &rng)!] : []
                    )
                )
            default: .preferredContentSize(chance(5) ? Size(width: -1, height: 0) : Size(width: 320, height: 480))
            }
        }
    }

    /// The middle of a control in a navigation or tab container's bar that lies in a window, and that window: one at
    /// random, if there is one.
    mutating func barControlTarget(in state: ContainmentState) -> (WindowID, Point)? {
        var targets: [(WindowID, Point)] = []
        for (container, kind) in containers where kind == .navigation || kind == .tab || kind == .split {
            let button = ViewID(owner: container, name: "showPrimary")
            let controls =
                kind == .split
                ? (state.views[button]?.superview == nil ? [] : [button])
                : state.views[ViewID(owner: container, name: "bar")]?.subviews ?? []
            // A navigation bar's back button pops animated (SPEC §15): a timed transition, which a timer completes —
            // not to be drawn where timed transitions are not (a client's replica cannot see the timer's completion:
            // `simulate` seed 103 found its replica expecting a transition the supervisor had completed).
            for control in controls where timedTransitions || control.name != "back" {
                let top = state.topView(of: control)
                guard top.isRoot, let window = state.window(placing: top.owner) else { continue }
                let frame = state.absoluteFrame(of: control)
                targets.append((window.id, Point(x: frame.x + frame.width / 2, y: frame.y + frame.height / 2)))
            }
        }
        return targets.randomElement(using: &rng)
    }

    /// One step: a single request or a batch.
    public mutating func next(in state: ContainmentState) -> [Request] {
        // The More tab's commands come often enough that a tab container keeps more tabs than fit for a while.
        if moreTabs, chance(20) { return moreTabCommand(in: state) }
        let child = id()
        let parent = id()
        switch Int.random(in: 0..<149, using: &rng) {
        case 0..<8 where state.controllers.count < ids.count + containers.count || chance(10):
            if chance(25), let (id, kind) = containers.randomElement(using: &rng) {
                return [.system(.create(id, kind: kind, properties: pool.properties(of: id, kind: kind, using: &rng)))]
            }
            var properties = ControllerProperties()
            if chance(20) { properties.delegate = id() }
            if chance(40) { properties.handles = chance(50) ? ["tap", "a"] : ["b"] }
            if manual { properties.automaticallyForwardsAppearance = chance(70) }
            properties.automaticallyForwardsSizeTransitions = chance(70)
            return [.system(.create(child, kind: pool.contentKind, properties: properties))]
        case 8..<16:
            return [Request(.addChild(child, to: parent), by: party(natural: .controller(parent), in: state))]
        case 16..<26:
            let child = chance(20) ? containers.randomElement(using: &rng)!.0 : child
            let superview = chance(70) ? ViewID.root(parent) : ViewID(owner: parent, name: "a")
            return SeedListings.displayContentController(child, in: parent, superview: superview, frame: rect())
        case 26..<31:
            let owner = state.controllers[child]?.parent ?? parent
            return SeedListings.hideContentController(child, in: owner)
        case 31..<35:
            let natural = parentParty(of: child, in: state)
            return [
                Request(.willMove(child, toParent: chance(50) ? nil : parent), by: party(natural: natural, in: state))
            ]
        case 35..<39:
            let owner = state.controllers[child]?.parent ?? parent
            return [Request(.didMove(child, toParent: owner), by: party(natural: .controller(owner), in: state))]
        case 39..<43:
            return [Request(.removeFromParent(child), by: party(natural: parentParty(of: child, in: state), in: state))]
        case 43..<53:
            let superview = view(of: chance(60) ? state.controllers[child]?.parent ?? parent : parent)
            let moved = chance(60) ? ViewID.root(child) : view(of: superview.owner)
            let index: Int? = chance(20) ? Int.random(in: 0...3, using: &rng) : nil
            return [
                Request(
                    .addSubview(moved, to: superview, at: index),
                    by: party(natural: .controller(superview.owner), in: state)
                )
            ]
        case 53..<58:
            let target = view(of: child)
            let natural: Party = target.isRoot ? parentParty(of: child, in: state) : .controller(child)
            return [Request(.removeFromSuperview(target), by: party(natural: natural, in: state))]
        case 58..<66:
            let target = view(of: child)
            let natural: Party =
                if !target.isRoot {
                    .controller(child)
                } else if let window = state.window(rootedAt: child) {
                    .window(window.id)
                } else {
                    parentParty(of: child, in: state)
                }
            return [Request(.setFrame(target, rect()), by: party(natural: natural, in: state))]
        case 66..<68:
            return [
                Request(
                    .setAlpha(view(of: child), chance(5) ? 2 : 0.5),
                    by: party(natural: .controller(child), in: state)
                )
            ]
        case 68..<73:
            return [Request(.setHidden(view(of: child), chance(50)), by: party(natural: .controller(child), in: state))]
        case 73..<79 where manual:
            let command: Command =
                chance(50)
                ? .beginAppearance(child, appearing: chance(50), animated: chance(50)) : .endAppearance(child)
            return [Request(command, by: party(natural: parentParty(of: child, in: state), in: state))]
        case 73..<84:
            var owner = state.controllers[child]?.parent ?? parent
            var child = child
            var siblings = state.controllers[owner]?.children ?? []
            // Mostly a real candidate: a container with an embedded child and another child.
            if chance(70),
                let container = state.controllers.values.filter({ $0.children.count >= 2 }).sorted(by: { $0.id < $1.id }
                )
                .randomElement(using: &rng),
                let embedded = container.children.filter({ state.isView(.root($0), inTreeOf: container.id) })
                    .randomElement(using: &rng)
            {
                owner = container.id
                child = embedded
                siblings = container.children.filter { $0 != embedded }
            }
            let to = siblings.randomElement(using: &rng) ?? id()
            let duration: Double = timedTransitions && chance(50) ? 0.25 : 0
            if chance(30), manual {
                return state.cycleRequests(from: child, to: id(), in: owner, duration: duration)
            }
            return [
                Request(
                    .transition(in: owner, from: child, to: to, duration: duration, frame: chance(50) ? rect() : nil),
                    by: party(natural: .controller(owner), in: state)
                )
            ]
        case 84..<88:
            guard let running = state.transitions.randomElement(using: &rng) else { return [] }
            return [.by(running.parent, .completeTransition(in: running.parent, from: running.from, to: running.to))]
        case 88..<90:
            return [.system(.memoryWarning(globalMemoryWarnings && chance(50) ? nil : [child, parent]))]
        case 90..<94:
            let size = Size(width: Double([320, 768, 1024].randomElement(using: &rng)!), height: 480)
            // Now and then a standard container roots a window, so that its bar is on screen to be tapped.
            let root = chance(50) ? containers.randomElement(using: &rng)?.0 ?? child : child
            return [.system(.attachWindow(windows.randomElement(using: &rng)!, root: root, size: size))]
        case 94..<96:
            let size = Size(width: Double([320, 768, 1024].randomElement(using: &rng)!), height: 600)
            return [.system(.resizeWindow(windows.randomElement(using: &rng)!, size: size))]
        case 96..<98:
            return [Request(.destroy(child), by: party(natural: .system, in: state))]
        case 98..<100:
            return [Request(.loadView(child), by: .controller(parent))]
        case 100..<106:
            // Mostly on a presenter that is on screen, so that many presentations are accepted.
            let onScreen = state.controllers.keys.filter { state.isOnScreen($0) }.sorted()
            let parent = chance(70) ? onScreen.randomElement(using: &rng) ?? parent : parent
            let style = chance(40) ? nil : ModalPresentationStyle.allCases.randomElement(using: &rng)
            return [
                Request(
                    .present(child, on: parent, style: style, animated: animated()),
                    by: party(natural: .controller(parent), in: state)
                )
            ]
        case 106..<110 where constraints:
            return [constraintCommand(child: child, parent: parent, in: state)]
        case 110..<125:
            return containerCommand(in: state)
        case 125..<131:
            return [message(from: child, in: state)]
        case 131..<134:
            return [
                Request(.setProperties(child, propertyChanges()), by: party(natural: .controller(child), in: state))
            ]
        case 141..<146:
            // Some on a bar's control (SPEC §15); a third of the others along the top or bottom edge, where the bars are.
            if chance(60), let (window, point) = barControlTarget(in: state) {
                return [.system(.input(window, at: point, kind: "tap"))]
            }
            let y: Int =
                switch Int.random(in: 0..<6, using: &rng) {
                case 0: Int.random(in: 0..<44, using: &rng)
                case 1: Int.random(in: 719..<768, using: &rng)
                default: Int.random(in: -10...780, using: &rng)
                }
            let point = Point(x: Double(Int.random(in: -10...1030, using: &rng)), y: Double(y))
            var kind = ["tap", "tap", "threeFingerTap", "swipe", "a", "b"].randomElement(using: &rng)!
            let direction = kind == "swipe" ? SwipeDirection.allCases.randomElement(using: &rng) : nil
            let window = windows.randomElement(using: &rng)!
            // A tap that lands on a back button pops animated: not where timed transitions are not drawn.
            if kind == "tap", !timedTransitions, state.view(hitIn: window, at: point)?.name == "back" { kind = "b" }
            return [
                Request(
                    .input(window, at: point, kind: kind, direction: direction),
                    by: party(natural: .system, in: state)
                )
            ]
        case 146..<149:
            let name = chance(3) ? "" : names.randomElement(using: &rng)!
            if invocations, chance(30) {
                return [
                    Request(
                        .invoke(child, verb: name, arguments: [parent.rawValue]),
                        by: party(natural: .system, in: state)
                    )
                ]
            }
            return [Request(.action(from: child, name: name), by: party(natural: .controller(child), in: state))]
        case 137..<139:
            return [
                .system(.rotate(windows.randomElement(using: &rng)!, Orientation.allCases.randomElement(using: &rng)!))
            ]
        case 139..<141:
            let owner = state.controllers[child]?.parent ?? parent
            let size = Size(width: Double([320, 768].randomElement(using: &rng)!), height: chance(5) ? -1 : 480)
            return [
                Request(
                    .forwardSizeTransition(owner, child: child, size: size),
                    by: party(natural: .controller(owner), in: state)
                )
            ]
        case 134..<137:
            let natural: Party = chance(50) ? .controller(child) : parentParty(of: child, in: state)
            return [
                Request(.setEditing(child, chance(50), animated: chance(50)), by: party(natural: natural, in: state))
            ]
        default:
            let target =
                state.presentations.keys.sorted().randomElement(using: &rng).flatMap { chance(70) ? $0 : nil } ?? child
            return [Request(.dismiss(target, animated: animated()), by: party(natural: .natural, in: state))]
        }
    }
}

extension RandomCommands {
    /// A constraint added or removed (SPEC §16): mostly by a parent, on a child's root view, its own root view or its
    /// own named views, in one of a few ids (so some are taken); now and then on any view, or by anyone.
    mutating func constraintCommand(child: ControllerID, parent: ControllerID, in state: ContainmentState) -> Request {
        // Mostly a parent with a child whose root view is in its tree: what can be constrained.
        let placing = state.controllers.values.filter { record in
            record.children.contains { state.isView(.root($0), inTreeOf: record.id) }
        }.map(\.id).sorted()
        let elsewhere = chance(50) ? state.controllers[child]?.parent ?? parent : parent
        let owner = chance(80) ? placing.randomElement(using: &rng) ?? parent : elsewhere
        let natural = Party.controller(owner)
        if chance(25), let entry = state.layouts[owner]?.entries.randomElement(using: &rng) {
            return Request(.unconstrain(owner, id: entry.id), by: party(natural: natural, in: state))
        }
        // Now and then one that contradicts a required one the owner has: refused as unsatisfiable (or, for an
        // inequality that leaves room, accepted).
        if chance(40),
            let entry = state.layouts[owner]?.entries.filter({ $0.constraint.isRequired }).randomElement(using: &rng)
        {
            let clash = LayoutConstraint(entry.constraint.first, .equal, constant: entry.constraint.constant + 17)
            return Request(
                .constrain(owner, id: "x\(Int.random(in: 0..<6, using: &rng))", clash),
                by: party(natural: natural, in: state)
            )
        }
        let placed = (state.controllers[owner]?.children ?? []).filter { state.isView(.root($0), inTreeOf: owner) }
        let anyView = view(of: chance(50) ? owner : id())
        let placedView = placed.randomElement(using: &rng).map { ViewID.root($0) } ?? view(of: owner)
        let first = chance(85) ? placedView : anyView
        let attribute = LayoutAttribute.allCases.randomElement(using: &rng)!
        let second: LayoutAnchor? =
            chance(30)
            ? nil
            : LayoutAnchor(
                chance(50) ? .root(owner) : view(of: owner),
                LayoutAttribute.allCases.filter { $0.isHorizontal == attribute.isHorizontal }.randomElement(
                    using: &rng
                )!
            )
        let constraint = LayoutConstraint(
            LayoutAnchor(first, attribute),
            LayoutRelation.allCases.randomElement(using: &rng)!,
            second,
            multiplier: [1, 1, 0.5, 2].randomElement(using: &rng)!,
            constant: Double(Int.random(in: -50...300, using: &rng)),
            priority: chance(60) ? LayoutConstraint.requiredPriority : [250, 500, 750].randomElement(using: &rng)!
        )
        return Request(
            .constrain(owner, id: "k\(Int.random(in: 0..<6, using: &rng))", constraint),
            by: party(natural: natural, in: state)
        )
    }

    /// What a controller's code might answer to `question` (SPEC §15), valid or not: now and then nothing in time; for
    /// `loadView`, subviews of its own (and sometimes a frame it may not set, which the model takes back); for
    /// `viewWillLayoutSubviews`, frames of its subviews and its children's root views within `size`; for a page, any
    /// controller of the pool or none.
    public mutating func answer(_ question: Question, in state: ContainmentState) -> Answer {
        if chance(10) { return .timedOut }
        let id = question.controller
        switch question {
        case .loadView:
            var commands: [Command] = []
            for name in names where chance(50) {
                commands.append(.addSubview(ViewID(owner: id, name: name), to: .root(id)))
                if chance(50) { commands.append(.setFrame(ViewID(owner: id, name: name), rect())) }
            }
            if chance(10) { commands.append(.setFrame(.root(self.id()), rect())) }
            return Answer(commands: commands)
        case .viewWillLayoutSubviews(_, let size):
            let children = state.controllers[id]?.children ?? []
            let targets = names.map { ViewID(owner: id, name: $0) } + children.map { .root($0) }
            var commands: [Command] = []
            for view in targets where chance(40) {
                let width = Double(Int.random(in: 0...max(0, Int(size.width)), using: &rng))
                commands.append(.setFrame(view, Rect(x: 0, y: 0, width: width, height: size.height)))
            }
            return Answer(commands: commands)
        case .pageAfter, .pageBefore:
            return Answer(page: chance(80) ? self.id() : nil)
        }
    }
}
