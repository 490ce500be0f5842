extension ContainerMetrics {
    /// The width of a bar's control: a navigation bar's back button and items.
    static let barItemWidth = 64.0
}

extension ContainmentState {
    // MARK: SPEC §15 — bars with controls

    /// The controls a navigation or tab container's bar holds now, in order, with their frames in the bar.
    /// Navigation: `N/back` at the leading edge while the stack has two or more controllers, then the top's
    /// `navigationItem` left items (`N/left-I`) after it, its right items (`N/right-I`, the first outermost) from the
    /// trailing edge; an item named `edit` is `N/edit`. Tab: `T/item-I` per child, in order, sharing the bar's width.
    func barControls(of id: ControllerID) -> [(view: ViewID, frame: Rect)] {
        guard let record = controllers[id], let bar = views[ViewID(owner: id, name: "bar")] else { return [] }
        let size = bar.frame.size
        switch record.kind {
        case .navigation:
            let width = ContainerMetrics.barItemWidth
            var controls: [(view: ViewID, frame: Rect)] = []
            // A More navigation's stack is its list and the tab shown above it (SPEC §16).
            let pushed = id.moreTab.flatMap { isMoreController(id) ? pushedInMore($0) : nil }
            if record.children.count > 1 || pushed != nil {
                controls.append((ViewID(owner: id, name: "back"), Rect(x: 0, y: 0, width: width, height: size.height)))
            }
            let item = record.children.last.flatMap { controllers[$0]?.properties.navigationItem }
            let start = controls.isEmpty ? 0 : width
            for (index, name) in (item?.leftItems ?? []).enumerated() {
                let frame = Rect(x: start + Double(index) * width, y: 0, width: width, height: size.height)
                controls.append((Self.barItemView(id, name, side: "left", index: index), frame))
            }
            for (index, name) in (item?.rightItems ?? []).enumerated() {
                let frame = Rect(x: size.width - Double(index + 1) * width, y: 0, width: width, height: size.height)
                controls.append((Self.barItemView(id, name, side: "right", index: index), frame))
            }
            return controls
        case .tab:
            // With more tabs than fit (SPEC §16), the last item is More.
            let tabs = tabs(of: record)
            guard !tabs.isEmpty else { return [] }
            let overflow = tabs.count > maxVisibleTabs
            let count = overflow ? maxVisibleTabs : tabs.count
            let width = size.width / Double(count)
            return (0..<count).map { index in
                (
                    ViewID(owner: id, name: overflow && index == count - 1 ? "item-more" : "item-\(index)"),
                    Rect(x: Double(index) * width, y: 0, width: width, height: size.height)
                )
            }
        default:
            return []
        }
    }

    /// A navigation item's view: `N/edit` for the `edit` item, else `N/SIDE-INDEX`.
    static func barItemView(_ id: ControllerID, _ name: String, side: String, index: Int) -> ViewID {
        ViewID(owner: id, name: name == "edit" ? "edit" : "\(side)-\(index)")
    }

    /// Whether `name` is one of a bar's controls (the names `barControls` gives).
    static func isBarControlName(_ name: String) -> Bool {
        name == "back" || name == "edit" || name.hasPrefix("left-") || name.hasPrefix("right-")
            || name.hasPrefix("item-")
    }

    /// Puts a navigation or tab container's bar in step with its stack or children: the controls it should hold go
    /// in (as the container, the bar's owner) at their frames, the ones it should not come out. Nothing before the
    /// container's views are loaded: loading them does it.
    mutating func syncBarControls(_ id: ControllerID) {
        guard let kind = controllers[id]?.kind, kind == .navigation || kind == .tab else { return }
        if kind == .tab { syncMoreTab(id) }
        let barID = ViewID(owner: id, name: "bar")
        guard let bar = views[barID] else { return }
        let party = Party.controller(id)
        let controls = barControls(of: id)
        let wanted = Set(controls.map(\.view))
        for view in bar.subviews where view.owner == id && !wanted.contains(view) {
            if let name = view.name, Self.isBarControlName(name) {
                // Cannot fail: the bar is the container's own view and so is the control.
                try? removeFromSuperview(view, by: party)
            }
        }
        for (view, frame) in controls {
            if views[view]?.superview != barID {
                // Cannot fail: the container inserts its own view into its own bar, which is not inside the control.
                try? addSubview(view, to: barID, at: nil, by: party)
            }
            changeFrame(view, to: frame, by: party)
        }
    }

    /// The container whose bar control `view` is, when a tap on it is the container's (SPEC §15): a navigation or
    /// tab bar's control, or a split's `showPrimary` button.
    func barControlOwner(_ view: ViewID?) -> ControllerID? {
        // A row of a More list is its tab container's (SPEC §16).
        if let view, let name = view.name, name.hasPrefix("row-"), let tab = view.owner.moreTab,
            view.owner == .moreList(of: tab), controllers[tab]?.kind == .tab,
            views[view]?.superview == .root(view.owner)
        {
            return tab
        }
        if let view, view.name == "showPrimary", controllers[view.owner]?.kind == .split,
            views[view]?.superview == .root(view.owner)
        {
            return view.owner
        }
        guard let view, let name = view.name, Self.isBarControlName(name), let record = controllers[view.owner],
            record.kind == .navigation || record.kind == .tab,
            views[view]?.superview == ViewID(owner: view.owner, name: "bar")
        else { return nil }
        return view.owner
    }

    /// A tap on a bar control of container `id`: back pops (animated), a tab item selects its tab, `edit` toggles the
    /// top's editing; any other navigation item is an action named after the item, walked up the responder chain from
    /// the top (SPEC §12), sent from the container.
    mutating func barControlTapped(_ view: ViewID, in id: ControllerID) throws(ContainmentError) {
        guard let record = controllers[id], let name = view.name else { return }
        let party = Party.controller(id)
        if record.kind == .split {
            // The split's showPrimary button: the primary comes over the secondary.
            try setSplitMode(id, .primaryOverlay, by: party)
        } else if name == "back", let tab = id.moreTab, isMoreController(id) {
            // A More navigation's back button shows its list again (SPEC §16).
            try select(tab, .controller(id), by: .controller(tab))
        } else if name == "back" {
            try pop(id, animated: true, by: party)
        } else if record.kind == .tab, view.owner != id, name.hasPrefix("row-"), let index = Int(name.dropFirst(4)) {
            try select(id, .index(index), animated: false, by: party)
        } else if record.kind == .tab, name == "item-more" {
            try select(id, .controller(.more(of: id)), animated: false, by: party)
        } else if record.kind == .tab, name.hasPrefix("item-"), let index = Int(name.dropFirst(5)) {
            try select(id, .index(index), animated: false, by: party)
        } else if let top = record.children.last, let topRecord = controllers[top] {
            if name == "edit" {
                try setEditing(top, !topRecord.properties.editing, animated: true, by: party)
                return
            }
            let item = topRecord.properties.navigationItem
            let parts = name.split(separator: "-", maxSplits: 1)
            guard parts.count == 2, let index = Int(parts[1]) else { return }
            let items = parts[0] == "left" ? item.leftItems : item.rightItems
            guard items.indices.contains(index) else { return }
            let (chain, handler) = walk(from: .controller(top), handling: items[index])
            emit(.actionDelivered(handler, from: id, name: items[index], chain: chain))
            if let handler { emit(.actionReceived(handler, name: items[index], from: id, payload: [])) }
        }
    }
}
