extension ContainmentState {
    // MARK: Lookups that reject unknown ids

    func controller(_ id: ControllerID) throws(ContainmentError) -> Controller {
        guard let controller = controllers[id] else {
            throw ContainmentError(.unknownController, deferred: "There is no controller \(id).")
        }
        return controller
    }

    func window(_ id: WindowID) throws(ContainmentError) -> Window {
        guard let window = windows[id] else {
            throw ContainmentError(.unknownWindow, deferred: "There is no window \(id).")
        }
        return window
    }

    // MARK: Tree

    /// True when `ancestor` is `id`'s parent, grandparent, … (not `id` itself).
    public func isAncestor(_ ancestor: ControllerID, of id: ControllerID) -> Bool {
        var current = controllers[id]?.parent
        while let parent = current {
            if parent == ancestor { return true }
            current = controllers[parent]?.parent
        }
        return false
    }

    /// The window whose root is `id`, if any.
    public func window(rootedAt id: ControllerID) -> Window? {
        // By position, reading only each window's root: iterating the values would copy every window.
        var index = windows.startIndex
        while index != windows.endIndex {
            if windows.values[index].root == id { return windows.values[index] }
            windows.formIndex(after: &index)
        }
        return nil
    }

    /// Whether `id` is a window's root: ``window(rootedAt:)`` without its window, which is copied out as an optional
    /// of more than four words (through the runtime's witnesses) — the placement checks ask this of most views.
    func isWindowRoot(_ id: ControllerID) -> Bool {
        var index = windows.startIndex
        while index != windows.endIndex {
            if windows.values[index].root == id { return true }
            windows.formIndex(after: &index)
        }
        return false
    }

    /// The controllers without a parent, in creation order (the table's order).
    public var topLevelControllers: [ControllerID] {
        controllers.values.filter { $0.parent == nil }.map(\.id)
    }

    // MARK: Views

    /// True when the root view of `id` is loaded.
    public func isViewLoaded(_ id: ControllerID) -> Bool { views[.root(id)] != nil }

    /// The top of the view hierarchy that holds `view`.
    public func topView(of view: ViewID) -> ViewID {
        var current = view
        while let superview = views[current]?.superview { current = superview }
        return current
    }

    /// True when `view` lies inside `ancestor` (strictly below it).
    public func isView(_ view: ViewID, inside ancestor: ViewID) -> Bool {
        var current = views[view]?.superview
        while let superview = current {
            if superview == ancestor { return true }
            current = views[superview]?.superview
        }
        return false
    }

    /// True when `view` is inside the view tree of controller `id` (below its root view).
    public func isView(_ view: ViewID, inTreeOf id: ControllerID) -> Bool {
        isView(view, inside: .root(id))
    }

    /// A view is on screen when it is in the view tree of an attached window (directly, or in a presented
    /// controller's tree placed over one), no view on the path is hidden, and no presentation that hides its context
    /// covers it (SPEC §4, §7).
    public func isOnScreen(view: ViewID) -> Bool {
        isPlaced(view: view) && !isCovered(view: view)
    }

    /// Under a presentation that takes its context's subtree off screen: `view`, or a view it lies in, is the root
    /// view of such a context.
    func isCovered(view: ViewID) -> Bool {
        guard !presentations.isEmpty else { return false }
        var current: ViewID? = view
        while let step = current {
            if step.isRoot, isHiddenContext(step.owner) { return true }
            current = views[step]?.superview
        }
        return false
    }

    /// True when a presentation that hides its context stands on `id`. At most one presentation stands on a
    /// controller, and the context records it as its `presented`.
    private func isHiddenContext(_ id: ControllerID) -> Bool {
        guard !presentations.isEmpty, let presented = controllers[id]?.presented,
            let presentation = presentations[presented]
        else { return false }
        return presentation.hidesContext && presentation.context == id
    }

    /// The top of a view hierarchy is placed when it is a window's root view, or the root view of a presented
    /// controller whose context is placed.
    private func isPlacedTop(_ top: ViewID) -> Bool {
        guard top.isRoot else { return false }
        if isWindowRoot(top.owner) { return true }
        if let presentation = presentations[top.owner] { return isPlaced(view: .root(presentation.context)) }
        return false
    }

    /// In a window's tree, or a presented controller's tree whose context is, with no hidden view on the way.
    public func isPlaced(view: ViewID) -> Bool {
        var current = view
        while true {
            guard let record = views[current], !record.hidden else { return false }
            guard let superview = record.superview else { break }
            current = superview
        }
        return isPlacedTop(current)
    }

    /// The window a controller's views are placed in (through presentations), if any.
    public func window(placing id: ControllerID) -> Window? {
        let top = topView(of: .root(id))
        guard top.isRoot else { return nil }
        if let window = window(rootedAt: top.owner) { return window }
        if let presentation = presentations[top.owner] { return window(placing: presentation.context) }
        return nil
    }

    /// A controller is on screen when its root view is (SPEC §4).
    public func isOnScreen(_ id: ControllerID) -> Bool { isOnScreen(view: .root(id)) }

    /// The controllers whose root views are `view` or inside it — and, past a presentation context, the presented
    /// controller's tree placed over it.
    func controllersWithRootViews(under view: ViewID) -> [ControllerID] {
        var found: [ControllerID] = []
        var stack = [view]
        while let current = stack.popLast() {
            if current.isRoot {
                found.append(current.owner)
                if let presented = controllers[current.owner]?.presented { stack.append(.root(presented)) }
            }
            if let record = views[current] { stack.append(contentsOf: record.subviews.reversed()) }
        }
        return found
    }

    // MARK: Callback order

    /// The path of child indices from a top-level controller: the sort key of "parent first, then children in
    /// `children` order, depth first" (SPEC §4).
    private func treePath(_ id: ControllerID) -> [Int] {
        var path: [Int] = []
        var current = id
        while let record = controllers[current] {
            guard let parent = record.parent, let parentRecord = controllers[parent] else {
                path.append(record.serial)
                break
            }
            path.append(parentRecord.children.firstIndex(of: current) ?? 0)
            current = parent
        }
        return path.reversed()
    }

    /// Every controller in callback order: ``treeOrder(_:)`` of all of them, without the set. The tops are the
    /// controllers without a parent in creation order, which is the table's order: one pass, no sort.
    func treeOrderOfAll() -> [ControllerID] {
        var ordered: [ControllerID] = []
        ordered.reserveCapacity(controllers.count)
        func visit(_ record: Controller) {
            ordered.append(record.id)
            for child in record.children {
                if let childRecord = controllers[child] { visit(childRecord) } else { ordered.append(child) }
            }
        }
        for record in controllers.values where record.parent == nil { visit(record) }
        return ordered
    }

    /// `ids` in callback order: parent first, then children in `children` order, depth first.
    func treeOrder(_ ids: Set<ControllerID>) -> [ControllerID] {
        guard ids.count > 1 else { return Array(ids) }
        let tops = ids.filter { id in controllers[id]?.parent.map { !ids.contains($0) } ?? true }
        let sortedTops = tops.map { ($0, treePath($0)) }.sorted { $0.1.lexicographicallyPrecedes($1.1) }.map(\.0)
        var ordered: [ControllerID] = []
        ordered.reserveCapacity(ids.count)
        func visit(_ id: ControllerID) {
            ordered.append(id)
            for child in controllers[id]?.children ?? [] where ids.contains(child) { visit(child) }
        }
        for top in sortedTops { visit(top) }
        return ordered
    }
}
