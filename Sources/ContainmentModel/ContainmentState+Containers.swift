/// Geometry of the standard containers' own views.
enum ContainerMetrics {
    static let navigationBarHeight = 44.0
    static let tabBarHeight = 49.0
    /// The side of a menu item (seed 004's menu view holds one per child, on a ring).
    static let menuItemSide = 64.0
}

extension ContainmentState {
    // MARK: SPEC §8 — built only from the containment primitives, issued by the container itself

    func container(_ id: ControllerID, kind: Kind, for verb: String) throws(ContainmentError) -> Controller {
        let record = try controller(id)
        guard record.kind == kind else {
            throw ContainmentError(
                .malformed,
                deferred: "\(verb) needs a \(kind) controller; \(id) is a \(record.kind)."
            )
        }
        return record
    }

    func checkContainerParty(_ party: Party, _ id: ControllerID, verb: String) throws(ContainmentError) {
        guard party == .controller(id) else {
            throw ContainmentError(.unauthorized, deferred: "\(party) may not \(verb) \(id); only \(id) may.")
        }
    }

    /// SPEC §15, children drive their containers: the party a navigation command, a selection or a page turn runs as
    /// — the container itself — when `party` may ask for it: the container, a controller of its subtree (parent
    /// links), or the system. Anyone else is `unauthorized`.
    func drivingParty(_ party: Party, _ id: ControllerID, verb: String) throws(ContainmentError) -> Party {
        switch party {
        case .system: return .controller(id)
        case .controller(let asker) where isInSubtree(asker, of: id): return .controller(id)
        default:
            throw ContainmentError(
                .unauthorized,
                deferred: "\(party) may not \(verb) \(id); only \(id), a controller in its subtree, or the system may."
            )
        }
    }

    /// A container's switch event, then (SPEC §15) the same news as a callback of its delegate, when it is a navigation
    /// or tab container whose `delegate` names a controller: `delegateCallback`, in seq order with the delegate's
    /// other callbacks.
    mutating func emitSwitch(_ event: Event, animated: Bool) {
        emit(event)
        let child: ControllerID?
        switch event {
        case .navigationWillShow(_, let shown, _), .navigationDidShow(_, let shown, _): child = shown
        case .selectionChanged(_, let selected, _, _): child = selected
        default: return
        }
        guard let container = event.controller, let record = controllers[container],
            record.kind == .navigation || record.kind == .tab,
            let delegate = record.properties.delegate, controllers[delegate] != nil
        else { return }
        emit(
            .delegateCallback(
                delegate,
                container: container,
                callback: event.eventKind,
                child: child,
                animated: animated
            )
        )
    }

    /// Whether `id` is `ancestor` or a descendant of it by parent links.
    func isInSubtree(_ id: ControllerID, of ancestor: ControllerID) -> Bool {
        var current: ControllerID? = id
        while let node = current {
            if node == ancestor { return true }
            current = controllers[node]?.parent
        }
        return false
    }

    /// A container's new list of children names each controller once (SPEC §8): `duplicateController`, naming it.
    func checkNoDuplicate(_ list: [ControllerID], in id: ControllerID, as what: String) throws(ContainmentError) {
        guard let duplicate = list.firstDuplicate else { return }
        throw ContainmentError(
            .duplicateController,
            deferred: "\(duplicate) appears more than once in the \(what) given to \(id)."
        )
    }

    // MARK: Navigation

    mutating func push(
        _ pushed: ControllerID,
        on navigation: ControllerID,
        animated: Bool,
        by party: Party
    ) throws(ContainmentError) {
        let record = try container(navigation, kind: .navigation, for: "push")
        let child = try controller(pushed)
        let acting = try drivingParty(party, navigation, verb: "push onto")
        guard !record.children.contains(pushed) else {
            throw ContainmentError(
                .alreadyInStack,
                deferred: "Pushing the same view controller instance (\(pushed)) more than once is not supported."
            )
        }
        guard child.kind != .navigation else {
            throw ContainmentError(
                .pushNavigation,
                deferred: "Pushing a navigation controller (\(pushed)) is not supported."
            )
        }
        try checkNoSwitchRunning(in: navigation)
        emitSwitch(.navigationWillShow(navigation, shown: pushed, requestedBy: party), animated: animated)
        try addChild(pushed, to: navigation, by: acting)
        let end = TransitionEnd.navigation(shown: pushed, arrived: [pushed], left: [], requestedBy: party)
        // Animated, the pushed controller settles when the switch completes.
        guard try !show(pushed, in: navigation, replacing: record.children.last, animated: animated, end: end) else {
            return
        }
        try finish(end, in: navigation, animated: animated)
    }

    mutating func pop(_ navigation: ControllerID, animated: Bool, by party: Party) throws(ContainmentError) {
        let record = try container(navigation, kind: .navigation, for: "pop")
        _ = try drivingParty(party, navigation, verb: "pop")
        guard record.children.count > 1 else { return }
        try popTo(record.children[record.children.count - 2], in: navigation, animated: animated, by: party)
    }

    mutating func popToRoot(_ navigation: ControllerID, animated: Bool, by party: Party) throws(ContainmentError) {
        let record = try container(navigation, kind: .navigation, for: "pop to root")
        _ = try drivingParty(party, navigation, verb: "pop")
        guard let root = record.children.first else { return }
        try popTo(root, in: navigation, animated: animated, by: party)
    }

    /// Pops everything above `target`; only the old top gets disappearance callbacks.
    mutating func popTo(
        _ target: ControllerID,
        in navigation: ControllerID,
        animated: Bool,
        by party: Party
    ) throws(ContainmentError) {
        let record = try container(navigation, kind: .navigation, for: "pop")
        let acting = try drivingParty(party, navigation, verb: "pop")
        guard let index = record.children.firstIndex(of: target) else {
            throw ContainmentError(.notInStack, deferred: "\(target) is not in the navigation stack of \(navigation).")
        }
        guard let top = record.children.last, top != target else { return }
        try checkNoSwitchRunning(in: navigation)
        emitSwitch(.navigationWillShow(navigation, shown: target, requestedBy: party), animated: animated)
        for above in record.children[(index + 1)...] {
            try willMove(above, toParent: nil, by: acting)
            if above != top { detachFromParent(above, navigation) }
        }
        let end = TransitionEnd.navigation(shown: target, arrived: [], left: [top], requestedBy: party)
        // Animated, the old top stays in the tree, and leaves, when the switch completes.
        guard try !show(target, in: navigation, replacing: top, animated: animated, end: end) else { return }
        try finish(end, in: navigation, animated: animated)
    }

    /// Replaces the stack: duplicates and navigation controllers rejected, the removed ones leave cleanly, one swap.
    mutating func setStack(
        _ navigation: ControllerID,
        _ stack: [ControllerID],
        animated: Bool = false,
        by party: Party
    ) throws(ContainmentError) {
        let record = try container(navigation, kind: .navigation, for: "set the stack of")
        let acting = try drivingParty(party, navigation, verb: "set the stack of")
        try checkNoSwitchRunning(in: navigation)
        for id in stack {
            let child = try controller(id)
            guard child.kind != .navigation else {
                throw ContainmentError(
                    .pushNavigation,
                    deferred: "Pushing a navigation controller (\(id)) is not supported."
                )
            }
        }
        try checkNoDuplicate(stack, in: navigation, as: "stack")
        let changes = displayedChild(of: record) != stack.last
        if changes, let top = stack.last {
            emitSwitch(.navigationWillShow(navigation, shown: top, requestedBy: party), animated: animated)
        }
        // Animated, the arrived settle, the shown one leaves and navigationDidShow comes when the switch completes.
        let replaced = try replaceChildren(
            of: record,
            with: stack,
            showing: stack.last,
            animated: animated,
            by: acting,
            requestedBy: party
        )
        // Animated, the switch is still running: its completion says what it showed.
        guard !replaced else { return }
        syncBarControls(navigation)
        if changes, let top = stack.last {
            emitSwitch(.navigationDidShow(navigation, shown: top, requestedBy: party), animated: animated)
        }
    }

    // MARK: Tab and menu

    /// A tab container's or a menu's children. Tab: the selection is kept if still present, else the first, else
    /// none. Menu (seed 004): every old child leaves and the first is selected.
    mutating func setChildren(_ id: ControllerID, _ children: [ControllerID], by party: Party) throws(ContainmentError)
    {
        let record = try controller(id)
        guard [Kind.tab, .menu, .split].contains(record.kind) else {
            throw ContainmentError(
                .malformed,
                deferred: "set-children needs a tab, menu or split controller; \(id) is a \(record.kind)."
            )
        }
        try checkContainerParty(party, id, verb: "set the children of")
        try checkNoSwitchRunning(in: id)
        try checkMoreTabIdle(id)
        for child in children {
            _ = try controller(child)
            try checkNotMoreController(child, verb: "list it as a child of \(id)")
        }
        try checkNoDuplicate(children, in: id, as: "children")
        if record.kind == .split {
            try setSplitChildren(record, children, by: party)
            return
        }
        if record.kind == .menu {
            // Seed 004: the old children all leave first, then the new ones come, the first selected.
            try replaceChildren(of: record, with: [], showing: nil, by: party)
            guard let fresh = controllers[id] else { return }
            try replaceChildren(of: fresh, with: children, showing: children.first, by: party)
            try syncMenuItems(id)
            return
        }
        // SPEC §16: the More tab is rebuilt for the new children (a tab shown in it goes back in its place first).
        if hasMoreTab(record) { syncMoreTab(id, rebuilding: children) }
        guard let fresh = controllers[id] else { return }
        let keep = fresh.selected.flatMap { children.contains($0) ? $0 : nil } ?? children.first
        try replaceChildren(of: fresh, with: children, showing: keep, by: party)
        syncBarControls(id)
    }

    mutating func select(
        _ id: ControllerID,
        _ selection: Selection,
        animated: Bool = false,
        by party: Party
    ) throws(ContainmentError) {
        let record = try controller(id)
        guard record.kind == .tab || record.kind == .menu else {
            throw ContainmentError(
                .malformed,
                deferred: "select needs a tab or menu controller; \(id) is a \(record.kind)."
            )
        }
        _ = try drivingParty(party, id, verb: "select in")
        let target: ControllerID
        let tabs = tabs(of: record)
        switch selection {
        case .index(let index):
            guard tabs.indices.contains(index) else {
                throw ContainmentError(
                    .indexOutOfRange,
                    deferred: "Index \(index) is out of range for the \(tabs.count) children of \(id)."
                )
            }
            target = tabs[index]
        case .controller(let child):
            _ = try controller(child)
            guard record.children.contains(child) else {
                throw ContainmentError(.notAChild, deferred: "\(child) is not a child of \(id).")
            }
            target = child
        }
        guard target != record.selected else { return }
        try checkNoSwitchRunning(in: id)
        if hasMoreTab(record) {
            let more = ControllerID.more(of: id)
            // SPEC §16: a tab reached through More, or More itself, shows in T/more; any other takes T/more's place.
            if target == more || isInMore(target, of: record) {
                try showInMore(target == more ? nil : target, of: id, animated: animated)
            } else {
                try show(target, in: id, replacing: displayedChild(of: record), animated: animated)
            }
        } else {
            try show(target, in: id, replacing: record.selected, animated: animated)
        }
        updateController(id, .selected) { $0.selected = target }
        let index = tabs.firstIndex(of: target)
        emitSwitch(.selectionChanged(id, selected: target, index: index, requestedBy: party), animated: animated)
    }

    /// `selectedIndex`, derived from the selected controller; `nil` (UIKit's NSNotFound) with no selection.
    public func selectedIndex(_ id: ControllerID) -> Int? {
        guard let record = controllers[id], let selected = record.selected else { return nil }
        return tabs(of: record).firstIndex(of: selected)
    }

    /// Shows or hides the menu's own view (seed 004's `setMenuVisible:animated:`), which covers the whole menu and,
    /// while shown, holds one item view per child on a ring.
    mutating func setMenuVisible(
        _ id: ControllerID,
        _ visible: Bool,
        animated: Bool,
        by party: Party
    ) throws(ContainmentError) {
        let record = try container(id, kind: .menu, for: "menu-visible")
        try checkContainerParty(party, id, verb: "show or hide the menu of")
        try checkNoSwitchRunning(in: id)
        guard record.menuVisible != visible else { return }
        try ensureContainerViews(id)
        // Animated (SPEC §13), a timed switch of menuAnimationDuration: the menu view shows at once, or hides at the
        // end; `menuVisible` and `menuVisibilityChanged` settle at the end.
        if animated, menuAnimationDuration > 0 {
            if visible {
                try syncMenuItems(id, showing: true)
                try setHidden(ViewID(owner: id, name: "menu"), false, by: party)
            }
            emit(.transitionBegan(id, from: id, to: id))
            let running = RunningTransition(
                parent: id,
                from: id,
                to: id,
                duration: menuAnimationDuration,
                end: .menu(visible: visible)
            )
            setTransitions(transitions + [running])
            return
        }
        try settleMenu(id, visible: visible)
        emit(.menuVisibilityChanged(id, visible: visible))
    }

    /// A menu's menu view shown (its items in place) or hidden, and `menuVisible` set.
    mutating func settleMenu(_ id: ControllerID, visible: Bool) throws(ContainmentError) {
        updateController(id, .menuVisible) { $0.menuVisible = visible }
        if visible { try syncMenuItems(id) }
        try setHidden(ViewID(owner: id, name: "menu"), !visible, by: .controller(id))
    }

    /// A shown menu's items: `menu/item-I` for each child I, in the menu view, centred on a ring around the middle;
    /// the items of children that left go.
    mutating func syncMenuItems(_ id: ControllerID, showing: Bool = false) throws(ContainmentError) {
        guard let record = controllers[id], record.menuVisible || showing,
            views[ViewID(owner: id, name: "menu")] != nil
        else {
            return
        }
        let menuView = ViewID(owner: id, name: "menu")
        let party = Party.controller(id)
        let count = record.children.count
        for (index, frame) in MenuRing.frames(count: count, in: views[.root(id)]?.frame.size ?? .zero).enumerated() {
            let item = ViewID(owner: id, name: "item-\(index)")
            if views[item]?.superview != menuView { try addSubview(item, to: menuView, at: nil, by: party) }
            changeFrame(item, to: frame, by: party)
        }
        for name in record.subviewNames where name.hasPrefix("item-") {
            guard let index = Int(name.dropFirst(5)), index >= count else { continue }
            let item = ViewID(owner: id, name: name)
            if views[item]?.superview != nil { try removeFromSuperview(item, by: party) }
        }
    }

    /// Seed 004's `viewDidLoad`: a menu selected before its view loaded shows the selection once it does.
    mutating func menuDidLoad(_ id: ControllerID) {
        guard let record = controllers[id], let selected = record.selected, record.children.contains(selected) else {
            return
        }
        // Cannot fail: the selection is the menu's child (R4), whose root view lies, if anywhere, in the menu's own
        // views (a child's view goes only into its parent's), and the menu inserts only its own views.
        _ = try? show(selected, in: id, replacing: nil, animated: false)
    }

    // MARK: Shared machinery

    /// Replaces a container's children: the ones that go leave cleanly (willMove nil, view out, removeFromParent),
    /// the new ones are added in order, and at most one swap shows `showing` in place of the shown one.
    /// Animated (a navigation controller's new stack), the switch is a timed transition: the shown child, if it
    /// leaves, stays first among the children, and it and the arrived ones settle when it completes; returns whether
    /// that is still to come. `requestedBy` asked for it (SPEC §15; the container itself if not given).
    @discardableResult
    private mutating func replaceChildren(
        of record: Controller,
        with children: [ControllerID],
        showing: ControllerID?,
        animated: Bool = false,
        by party: Party,
        requestedBy: Party? = nil
    ) throws(ContainmentError) -> Bool {
        let id = record.id
        let requester = requestedBy ?? .controller(id)
        let shown = displayedChild(of: record)
        let changes = shown != showing
        let leaving = record.children.filter { !children.contains($0) }
        for child in leaving where child != shown { try willMove(child, toParent: nil, by: party) }
        if let shown, leaving.contains(shown) { try willMove(shown, toParent: nil, by: party) }
        for child in leaving where child != shown { detachFromParent(child, id) }
        let arriving = children.filter { !record.children.contains($0) }
        for child in arriving { try addChild(child, to: id, by: party) }
        let shownLeaves = shown.map { leaving.contains($0) } ?? false
        updateController(id, .children) { $0.children = children }
        if changes {
            if let showing {
                // Animated, the shown child stays among the children (first: the new top stays last) until it leaves.
                if animated, let shown, shownLeaves {
                    updateController(id, .children) { $0.children = [shown] + children }
                }
                let end = TransitionEnd.navigation(
                    shown: showing,
                    arrived: arriving,
                    left: shownLeaves ? shown.map { [$0] } ?? [] : [],
                    requestedBy: requester
                )
                if try show(showing, in: id, replacing: shown, animated: animated, end: end) { return true }
            } else if let shown {
                detachWithAppearance(.root(shown), leaving: shown)
            }
        }
        if let shown, shownLeaves { detachFromParent(shown, id) }
        for child in arriving { try didMove(child, toParent: id, by: party) }
        if record.kind == .tab || record.kind == .menu {
            updateController(id, .selected) { $0.selected = showing }
            if record.selected != showing {
                let index = showing.flatMap { children.firstIndex(of: $0) }
                emitSwitch(
                    .selectionChanged(id, selected: showing, index: index, requestedBy: requester),
                    animated: false
                )
            }
        }
        return false
    }

    /// The child whose root view is in the container's tree: a navigation's top, a tab's or menu's selection — the
    /// selection itself when its root view is in the transition view, even if the container's code put another
    /// child's root view there too.
    func displayedChild(of record: Controller) -> ControllerID? {
        if let selected = record.selected, let superview = views[.root(selected)]?.superview,
            superview.owner == record.id, superview.name == "transition"
        {
            return selected
        }
        return record.children.last { isView(.root($0), inTreeOf: record.id) }
    }

    /// Shows `child` in the container's content area in place of `old`: a transition (the swap) when `old` is
    /// shown — animated, a timed one of `animationDuration` whose completion does `end` — otherwise the view goes in
    /// (appearing if on screen). Returns whether a timed transition is now running (its `end` is still to come).
    @discardableResult
    mutating func show(
        _ child: ControllerID,
        in id: ControllerID,
        replacing old: ControllerID?,
        animated: Bool,
        end: TransitionEnd = .plain
    ) throws(ContainmentError) -> Bool {
        // Seed 004: a menu swaps its children's views only once its own view is loaded (viewDidLoad shows the
        // selection then).
        if controllers[id]?.kind == .menu, !isViewLoaded(id) { return false }
        try ensureContainerViews(id)
        let frame = contentFrame(of: id)
        let party = Party.controller(id)
        if let old, old != child, isView(.root(old), inTreeOf: id) {
            let duration = animated ? animationDuration : 0
            try transition(in: id, from: old, to: child, duration: duration, frame: frame, end: end, by: party)
            return duration > 0
        }
        loadViewIfNeeded(child)
        changeFrame(.root(child), to: frame, by: party)
        try addSubview(.root(child), to: contentView(of: id), at: nil, by: party)
        return false
    }

    /// Where a container's children's root views go.
    func contentView(of id: ControllerID) -> ViewID {
        switch controllers[id]?.kind {
        case .menu?, .tab?: ViewID(owner: id, name: "transition")
        default: .root(id)
        }
    }

    /// The frame a container gives its shown child, from its own size: a navigation container's view below its bar,
    /// the bounds of a tab container's transition view (SPEC §16: both placed by the container's constraints).
    func contentFrame(of id: ControllerID) -> Rect {
        let size = views[.root(id)]?.frame.size ?? .zero
        switch controllers[id]?.kind {
        case .navigation?:
            let bar =
                views[ViewID(owner: id, name: "bar")].map { $0.frame.y + $0.frame.height }
                ?? ContainerMetrics.navigationBarHeight
            return Rect(x: 0, y: bar, width: size.width, height: max(0, size.height - bar))
        case .tab?:
            if let transition = views[ViewID(owner: id, name: "transition")] {
                return Rect(size: transition.frame.size)
            }
            return Rect(x: 0, y: 0, width: size.width, height: max(0, size.height - ContainerMetrics.tabBarHeight))
        default:
            return Rect(size: size)
        }
    }

    /// A container's own views: a navigation bar, a tab container's transition view with its bar above, or a menu's
    /// transition view with its menu view above.
    private mutating func ensureContainerViews(_ id: ControllerID) throws(ContainmentError) {
        let party = Party.controller(id)
        let names: [String] =
            switch controllers[id]?.kind {
            case .navigation?: ["bar"]
            case .tab?: ["transition", "bar"]
            case .menu?: ["transition", "menu"]
            default: []
            }
        for name in names where views[ViewID(owner: id, name: name)] == nil {
            try addSubview(ViewID(owner: id, name: name), to: .root(id), at: nil, by: party)
            if name == "menu", controllers[id]?.menuVisible == false {
                updateView(ViewID(owner: id, name: name), .hidden) { $0.hidden = true }
            }
        }
        layoutContainerViews(id)
        // Constraints of the container's code came before its own views: its own join them now (SPEC §16).
        if layouts[id] != nil { pinContainerViews(id) }
    }

    /// A standard container lays out its own views and its shown child when its size changes — as the child's
    /// parent, so R2 holds.
    mutating func layoutContainerViews(_ id: ControllerID) {
        guard let record = controllers[id], Kind.standard.contains(record.kind), record.kind != .content else { return }
        let size = views[.root(id)]?.frame.size ?? .zero
        let party = Party.controller(id)
        switch record.kind {
        case .navigation, .tab:
            if hasContainerPins(id) {
                // SPEC §16: the container's constraints place its bar and content (``containerViewsMoved(_:)``).
                layoutByConstraints(id)
            } else if record.kind == .navigation {
                changeFrame(
                    ViewID(owner: id, name: "bar"),
                    to: Rect(x: 0, y: 0, width: size.width, height: ContainerMetrics.navigationBarHeight),
                    by: party
                )
            } else {
                // The pins' solution: the bar at the bottom, as tall as it is unless the container is shorter.
                let bar = min(ContainerMetrics.tabBarHeight, size.height)
                changeFrame(
                    ViewID(owner: id, name: "bar"),
                    to: Rect(x: 0, y: max(0, size.height - bar), width: size.width, height: bar),
                    by: party
                )
                changeFrame(
                    ViewID(owner: id, name: "transition"),
                    to: Rect(x: 0, y: 0, width: size.width, height: max(0, size.height - bar)),
                    by: party
                )
            }
            syncBarControls(id)
        case .page:
            arrange(id, pageFrames(id, record.children), animated: false)
            return
        case .split:
            rearrangeSplit(id)
            return
        case .menu:
            changeFrame(ViewID(owner: id, name: "transition"), to: Rect(size: size), by: party)
            changeFrame(ViewID(owner: id, name: "menu"), to: Rect(size: size), by: party)
            // Only ever called once the menu's own views exist, so nothing here can fail.
            try? syncMenuItems(id)
        default:
            break
        }
        if let shown = displayedChild(of: record) { changeFrame(.root(shown), to: contentFrame(of: id), by: party) }
        if record.kind == .navigation, id.moreTab != nil { layoutMoreContent(id) }
    }
}

extension Array where Element: Hashable {
    /// The first element that appears a second time.
    var firstDuplicate: Element? {
        var seen: Set<Element> = []
        return first { !seen.insert($0).inserted }
    }
}
