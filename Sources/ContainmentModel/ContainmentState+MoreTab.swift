extension ContainerMetrics {
    /// The height of a row of a tab container's More list (SPEC §16).
    static let moreRowHeight = 44.0
}

extension ContainmentState {
    // MARK: SPEC §16 — the More tab
    //
    // A tab container T with more tabs than `maxVisibleTabs` shows items 0–3 and `T/item-more`, whose content is T's
    // own navigation `T/more` (its last child, after the tabs) rooted at the list `T/more-list`, one row
    // `T/more-list/row-I` per tab I from the fourth on. A tab selected from there stays T's child — T alone adds,
    // removes and places it (R2, R4) — and its root view lies in `T/more`'s, above the list: the one place where a
    // child's root view is in a view tree of its parent's own controller rather than in its parent's.

    /// A tab container's tabs: its children but its own More navigation (its last child while it exists).
    func tabs(of record: Controller) -> [ControllerID] {
        guard record.kind == .tab, hasMoreTab(record) else { return record.children }
        return Array(record.children.dropLast())
    }

    /// Whether tab container `record` has its More tab now: then `T/more` is its last child.
    func hasMoreTab(_ record: Controller) -> Bool {
        guard let last = record.children.last, let tab = last.moreTab else { return false }
        return tab == record.id
    }

    /// Whether tab container `record` has more tabs than its bar shows.
    func overflows(_ record: Controller) -> Bool {
        record.kind == .tab && record.children.count > maxVisibleTabs && tabs(of: record).count > maxVisibleTabs
    }

    /// Whether `child` is one of the tabs of `record` reached through More: the fourth and later, with too many.
    func isInMore(_ child: ControllerID, of record: Controller) -> Bool {
        guard overflows(record), let index = tabs(of: record).firstIndex(of: child) else { return false }
        return index >= maxVisibleTabs - 1
    }

    /// The tab whose root view lies in tab container `id`'s More navigation, above its list.
    public func pushedInMore(_ id: ControllerID) -> ControllerID? {
        let list = ControllerID.moreList(of: id)
        return views[.root(.more(of: id))]?.subviews.first { $0.isRoot && $0.owner != list }?.owner
    }

    /// Whether `id` is the More navigation or list of a tab container (ids with a `/` are no one else's).
    func isMoreController(_ id: ControllerID) -> Bool {
        guard let tab = id.moreTab else { return false }
        return controllers[tab]?.kind == .tab
    }

    /// Puts tab container `id`'s More tab in step with its tabs: with more than `maxVisibleTabs`, `T/more` and
    /// `T/more-list` exist, `T/more` is its last child, the list holds a row per tab beyond the fourth, and the
    /// selected tab lies in `T/more` when it is one of those and in the transition view when not; with fewer, or
    /// when `set-children` is about to give T the tabs `rebuilding`, they go.
    mutating func syncMoreTab(_ id: ControllerID, rebuilding: [ControllerID]? = nil) {
        guard let record = controllers[id], record.kind == .tab,
            record.children.count > maxVisibleTabs || hasMoreTab(record)
        else { return }
        let more = ControllerID.more(of: id)
        // While T or T/more switches, the More tab waits: the switch's completion puts it in step.
        if !transitions.isEmpty, transitions.contains(where: { $0.parent == id || $0.parent == more }) { return }
        guard overflows(record), rebuilding == nil else {
            if controllers[more] != nil { dismantleMoreTab(id, tabsAfter: rebuilding ?? tabs(of: record)) }
            return
        }
        if controllers[more] == nil { buildMoreTab(id) }
        if let fresh = controllers[id], fresh.children.last != more {
            // A tab added since goes before T/more, which stays last.
            updateController(id, .children) { $0.children = $0.children.filter { $0 != more } + [more] }
        }
        syncMoreRows(id)
        placeSelection(id)
        // T/more never stands empty: with no tab in it, its list is back.
        let list = ControllerID.moreList(of: id)
        if pushedInMore(id) == nil, views[.root(list)]?.superview != .root(more) {
            changeFrame(.root(list), to: contentFrame(of: more), by: .controller(more))
            // Cannot fail: the list is T/more's child and T/more inserts it into its own root view.
            try? addSubview(.root(list), to: .root(more), at: nil, by: .controller(more))
        }
        syncBarControls(more)
    }

    /// Creates `T/more` (a navigation container) and `T/more-list`, the list its only child, shown in it, and
    /// makes `T/more` tab container `id`'s last child. No host runs them: they receive no callbacks.
    private mutating func buildMoreTab(_ id: ControllerID) {
        let more = ControllerID.more(of: id)
        let list = ControllerID.moreList(of: id)
        var properties = ControllerProperties()
        properties.title = "More"
        properties.tabItem = TabItem(title: "More")
        for (system, kind) in [(more, Kind.navigation), (list, Kind.content)] where controllers[system] == nil {
            setController(Controller(id: system, kind: kind, properties: properties, serial: takeSerial()), system)
            emit(.controllerCreated(system, kind: kind))
        }
        // None of these can fail: both are new, parentless, in no window, presentation or transition, the list is
        // added by T/more and T/more by T, and each inserts only its own child's root view into its own views.
        try? addChild(list, to: more, by: .controller(more))
        try? didMove(list, toParent: more, by: .controller(more))
        try? addChild(more, to: id, by: .controller(id))
        try? didMove(more, toParent: id, by: .controller(id))
        _ = try? show(list, in: more, replacing: nil, animated: false)
    }

    /// Removes tab container `id`'s More tab: a tab shown in it goes back to the transition view in its place; a
    /// selection of More itself (its list shown) becomes one of the first of `tabsAfter` (T's tabs once this
    /// command is done) — a swap, when that is a tab of T now — or none; and `T/more` and its list leave and are
    /// destroyed. Nothing is left in the views of either.
    private mutating func dismantleMoreTab(_ id: ControllerID, tabsAfter: [ControllerID]) {
        guard let record = controllers[id] else { return }
        let more = ControllerID.more(of: id)
        let list = ControllerID.moreList(of: id)
        let party = Party.controller(id)
        let transition = ViewID(owner: id, name: "transition")
        let moreShown = views[.root(more)]?.superview == transition
        if let pushed = pushedInMore(id) {
            if moreShown {
                move(.root(pushed), replacing: .root(more), frame: contentFrame(of: id))
            } else {
                detachFromSuperview(.root(pushed))
            }
        }
        if record.selected == more {
            if let next = tabsAfter.first, moreShown, tabs(of: record).contains(next) {
                loadViewIfNeeded(next)
                move(.root(next), replacing: .root(more), frame: contentFrame(of: id))
                updateController(id, .selected) { $0.selected = next }
                emitSwitch(
                    .selectionChanged(id, selected: next, index: 0, requestedBy: party),
                    animated: false
                )
            } else {
                detachWithAppearance(.root(more))
                updateController(id, .selected) { $0.selected = nil }
                emitSwitch(.selectionChanged(id, selected: nil, index: nil, requestedBy: party), animated: false)
            }
        }
        // Off screen by now (it left with the tab it held or the list it showed): out of T's views before it goes.
        detachFromSuperview(.root(more))
        // None of these can fail: T/more is T's child and the list T/more's, neither transitioning (a tab
        // container's own verbs wait for its switches), and once detached, each stands alone.
        try? willMove(more, toParent: nil, by: party)
        detachFromParent(more, id)
        try? willMove(list, toParent: nil, by: .controller(more))
        detachFromParent(list, more)
        try? destroy(list, by: .system)
        try? destroy(more, by: .system)
    }

    /// The list's rows: `T/more-list/row-I` for each tab I from the fourth on, stacked from the top, as wide as
    /// the list; the rows of tabs that left go.
    private mutating func syncMoreRows(_ id: ControllerID) {
        guard let record = controllers[id] else { return }
        let list = ControllerID.moreList(of: id)
        let party = Party.controller(list)
        let first = maxVisibleTabs - 1
        let rows = first..<max(first, tabs(of: record).count)
        let width = views[.root(list)]?.frame.width ?? 0
        let height = ContainerMetrics.moreRowHeight
        for index in rows {
            let row = ViewID(owner: list, name: "row-\(index)")
            // Cannot fail: the list inserts its own row into its own root view.
            if views[row]?.superview != .root(list) { try? addSubview(row, to: .root(list), at: nil, by: party) }
            changeFrame(row, to: Rect(x: 0, y: Double(index - first) * height, width: width, height: height), by: party)
        }
        for name in controllers[list]?.subviewNames ?? [] where name.hasPrefix("row-") {
            guard let index = Int(name.dropFirst(4)), !rows.contains(index) else { continue }
            let row = ViewID(owner: list, name: name)
            // Cannot fail: the list removes its own row from its own root view.
            if views[row]?.superview != nil { try? removeFromSuperview(row, by: party) }
        }
    }

    /// The selected tab's root view where it belongs, when it is shown: in `T/more` (which takes its place in the
    /// transition view) when the tab is reached through More, else in the transition view (in `T/more`'s place).
    /// Both places are on screen or both off, so the move itself makes no callbacks; only `T/more` comes or goes.
    private mutating func placeSelection(_ id: ControllerID) {
        guard let record = controllers[id], let selected = record.selected,
            let superview = views[.root(selected)]?.superview
        else { return }
        let more = ControllerID.more(of: id)
        let transition = ViewID(owner: id, name: "transition")
        if isInMore(selected, of: record), superview == transition {
            loadViewIfNeeded(more)
            let scope = visibilityScope(under: [.root(selected), .root(more)])
            detachFromSuperview(.root(more))
            let index = views[transition]?.subviews.firstIndex(of: .root(selected))
            detachFromSuperview(.root(selected))
            for content in views[.root(more)]?.subviews ?? [] where content.isRoot { detachFromSuperview(content) }
            changeFrame(.root(more), to: contentFrame(of: id), by: .controller(id))
            attach(.root(more), to: transition, at: index)
            changeFrame(.root(selected), to: contentFrame(of: more), by: .controller(id))
            attach(.root(selected), to: .root(more), at: nil)
            finishVisibility(scope)
        } else if !isInMore(selected, of: record), superview == .root(more),
            views[.root(more)]?.superview == transition
        {
            move(.root(selected), replacing: .root(more), frame: contentFrame(of: id))
        }
    }

    /// Puts root view `view` in place of `old` in its superview, at `frame` (set by its parent), with the callbacks
    /// that makes: none for `view` when it stays on screen or off, disappearance for what `old` held.
    private mutating func move(_ view: ViewID, replacing old: ViewID, frame: Rect) {
        guard let superview = views[old]?.superview else { return }
        let scope = visibilityScope(under: [view, old])
        detachFromSuperview(view)
        let index = views[superview]?.subviews.firstIndex(of: old)
        detachFromSuperview(old)
        let parent = controllers[view.owner]?.parent.map { Party.controller($0) } ?? .system
        changeFrame(view, to: frame, by: parent)
        attach(view, to: superview, at: index)
        finishVisibility(scope)
    }

    /// `select` of a tab reached through More, or of `T/more` itself (`tab` nil: its list): `T/more` shows it. When
    /// `T/more` is already shown, that is a push (or a pop to the list) inside it — what it showed will-disappear,
    /// the tab will-appear, then did-disappear, did-appear; otherwise its content changes off screen and `T/more`
    /// takes the shown tab's place with the callbacks of a tab switch.
    mutating func showInMore(_ tab: ControllerID?, of id: ControllerID, animated: Bool) throws(ContainmentError) {
        guard let record = controllers[id] else { return }
        let more = ControllerID.more(of: id)
        let list = ControllerID.moreList(of: id)
        let content = tab ?? list
        let current = pushedInMore(id) ?? (views[.root(list)]?.superview == .root(more) ? list : nil)
        let author = Party.controller(content == list ? more : id)
        // A memory warning may have unloaded T/more's views while it was off screen.
        loadViewIfNeeded(more)
        loadViewIfNeeded(content)
        changeFrame(.root(content), to: contentFrame(of: more), by: author)
        if displayedChild(of: record) == more {
            if let current, let moreRecord = controllers[more] {
                guard current != content else { return }
                beginSwitch(in: moreRecord, [(current, content, nil)], duration: 0, end: .plain, by: .controller(more))
                try completeTransition(in: more, from: current, to: content, by: .controller(more))
            } else {
                let scope = visibilityScope(under: [.root(content)])
                attach(.root(content), to: .root(more), at: nil)
                finishVisibility(scope)
            }
        } else {
            // Off screen but for a tab its container's code put elsewhere in its views: that one leaves first.
            let scope = visibilityScope(under: [.root(content)])
            if let current, current != content { detachFromSuperview(.root(current)) }
            if views[.root(content)]?.superview != .root(more) {
                detachFromSuperview(.root(content))
                attach(.root(content), to: .root(more), at: nil)
            }
            finishVisibility(scope)
            try show(more, in: id, replacing: displayedChild(of: record), animated: animated)
        }
        syncBarControls(more)
        syncMoreRows(id)
    }

    /// A More navigation's content, laid out as the navigation's own size changes: the tab in it placed by its
    /// parent, the list's rows as wide as the list.
    mutating func layoutMoreContent(_ more: ControllerID) {
        guard let tab = more.moreTab, more == .more(of: tab), controllers[tab]?.kind == .tab else { return }
        if let pushed = pushedInMore(tab) {
            changeFrame(.root(pushed), to: contentFrame(of: more), by: .controller(tab))
        }
        syncMoreRows(tab)
    }

    /// `T/more` and `T/more-list` are their tab container's own (SPEC §16): no request is made by them or names
    /// them — as its subject, a presenter, or a side of a raw transition, nor a tab shown in `T/more` as such a side
    /// — but `select` of `T/more` in T (More's item). Their views are read and tapped like any other.
    func checkMoreTabUntouched(_ request: borrowing Request, by party: Party) throws(ContainmentError) {
        if let asker = party.controller, isMoreController(asker) {
            throw ContainmentError(
                .unauthorized,
                deferred:
                    "\(asker) is \(asker.moreTab.map { "\($0)" } ?? "")'s own More controller; it asks for nothing."
            )
        }
        switch request.command {
        case .select:
            return
        case .present(_, let presenter, _, _, _, _):
            try checkNotMoreController(presenter, verb: "present on it")
        case .transition(let parent, let from, let to, _, _):
            for side in [from, to] {
                try checkNotMoreController(side, verb: "transition it")
                if let record = controllers[parent], hasMoreTab(record), pushedInMore(parent) == side {
                    throw ContainmentError(
                        .unauthorized,
                        deferred: "\(side) is shown in \(parent)'s More navigation; only \(parent)'s select moves it."
                    )
                }
            }
        default:
            break
        }
        if let subject = request.command.subject {
            try checkNotMoreController(subject, verb: "\(request.command.name) it")
        }
    }

    /// A tab container's own verb that rebuilds its More tab (`setChildren`) waits for its switches and T/more's.
    func checkMoreTabIdle(_ id: ControllerID) throws(ContainmentError) {
        guard let record = controllers[id], hasMoreTab(record) else { return }
        let more = ControllerID.more(of: id)
        guard let running = transitions.first(where: { $0.parent == id || $0.parent == more }) else { return }
        throw ContainmentError(
            .transitionInProgress,
            deferred:
                "\(running.parent) is still switching from \(running.from) to \(running.to); wait for it to complete."
        )
    }

    /// R4 for the More tab: only its tab container moves or removes `T/more` or `T/more-list`, and only by the
    /// More tab's own rules.
    func checkNotMoreController(_ id: ControllerID, verb: @autoclosure () -> String) throws(ContainmentError) {
        guard isMoreController(id) else { return }
        let verb = verb()
        throw ContainmentError(
            .unauthorized,
            deferred: "\(id) is \(id.moreTab.map { "\($0)" } ?? "")'s own More controller; no one may \(verb)."
        )
    }
}
