extension ContainmentState {
    // MARK: Loading (SPEC §6)

    /// Loads the root view of `id` if it is not loaded: `loadView` (and what the controller's code answers to it, SPEC
    /// §15) then `viewDidLoad`.
    mutating func loadViewIfNeeded(_ id: ControllerID) {
        guard views[.root(id)] == nil else { return }
        setView(View(id: .root(id)), .root(id))
        emit(.loadView(id))
        ask(.loadView(id))
        emit(.viewDidLoad(id))
        if controllers[id]?.kind == .menu { menuDidLoad(id) }
    }

    mutating func loadViewCommand(_ id: ControllerID, by party: Party) throws(ContainmentError) {
        _ = try controller(id)
        loadViewIfNeeded(id)
    }

    /// The view `id`, loading its owner's views first. A named subview that does not exist yet is created when its
    /// owner asks for it (`creating`); anyone else gets `unknownView`.
    mutating func resolveView(_ id: ViewID, creating party: Party? = nil) throws(ContainmentError) -> View {
        _ = try controller(id.owner)
        // A view exists only while its owner's views are loaded: one that exists needs no loading.
        if let view = views[id] { return view }
        loadViewIfNeeded(id.owner)
        if let view = views[id] { return view }
        guard let name = id.name, party == .controller(id.owner) else {
            throw ContainmentError(.unknownView, deferred: "There is no view \(id).")
        }
        // `T/more` and `T/more-list` are the More controllers' root views (SPEC §16): the text has one reading.
        guard !ControllerID.moreSuffixes.contains(name) else {
            throw ContainmentError(
                .malformed,
                deferred: "\(id) would read as a More controller's root view; \"more\" and \"more-list\" are reserved."
            )
        }
        let view = View(id: id)
        setView(view, id)
        appendSubviewName(name, to: id.owner)
        return view
    }

    // MARK: Insertion and removal (R3–R5)

    mutating func addSubview(
        _ viewID: ViewID,
        to superviewID: ViewID,
        at index: Int?,
        by party: Party
    ) throws(ContainmentError) {
        try checkInsertion(of: viewID, into: superviewID, by: party)
        _ = try resolveView(superviewID, creating: party)
        let currentSuperview = try resolveView(viewID, creating: party).superview
        guard viewID != superviewID, !isView(superviewID, inside: viewID) else {
            throw ContainmentError(
                .hierarchyInconsistency,
                deferred: "View \(viewID) cannot be inserted into \(superviewID), which is inside it."
            )
        }
        let subviews = views[superviewID]?.subviews ?? []
        let siblingCount = subviews.count - subviews.lazy.filter { $0 == viewID }.count
        if let index, !(0...siblingCount).contains(index) {
            throw ContainmentError(
                .indexOutOfRange,
                deferred: "Index \(index) is out of range for the \(siblingCount) subviews of \(superviewID)."
            )
        }
        if currentSuperview == superviewID {
            let position = index ?? siblingCount
            guard subviews.firstIndex(of: viewID) != position else { return }
            var reordered = subviews.filter { $0 != viewID }
            reordered.insert(viewID, at: position)
            updateView(superviewID, .subviews) { $0.subviews = reordered }
            emit(.viewInserted(view: viewID, superview: superviewID, index: position))
            return
        }
        // The copy of the subviews ends here, so inserting into them changes the array in place.
        _ = consume subviews
        let scope = visibilityScope(under: [viewID])
        detachFromSuperview(viewID)
        attach(viewID, to: superviewID, at: index)
        finishVisibility(scope)
    }

    /// R3–R5: who may put which view where.
    private func checkInsertion(of viewID: ViewID, into superviewID: ViewID, by party: Party) throws(ContainmentError) {
        let child = try controller(viewID.owner)
        let destination = try controller(superviewID.owner)
        if viewID.isRoot {
            if let window = window(rootedAt: child.id) {
                throw ContainmentError(
                    .hierarchyInconsistency,
                    deferred:
                        "\(child.id) is the root of window \(window.id); its view cannot be inserted into \(superviewID)."
                )
            }
            if let parent = child.parent, parent != destination.id {
                throw ContainmentError(
                    .hierarchyInconsistency,
                    deferred:
                        "child \(child.id) should have parent \(parent) but requested parent is \(destination.id)."
                )
            }
        }
        guard let requester = party.controller, requester == destination.id else {
            throw ContainmentError(
                .foreignView,
                deferred: "\(party) may not insert views into \(superviewID), which \(destination.id) owns."
            )
        }
        if viewID.isRoot, child.id == requester {
            throw ContainmentError(
                .hierarchyInconsistency,
                deferred: "\(requester) cannot insert its own root view into its own view \(superviewID)."
            )
        }
        guard viewID.owner == requester || (viewID.isRoot && child.parent == requester) else {
            throw ContainmentError(
                .foreignView,
                deferred: "\(requester) may not insert \(viewID): only its own views and its children's root views."
            )
        }
    }

    mutating func removeFromSuperview(_ viewID: ViewID, by party: Party) throws(ContainmentError) {
        let owner = try controller(viewID.owner)
        let allowed =
            party == .controller(owner.id) && (!viewID.isRoot || views[viewID]?.superview == nil)
            || (viewID.isRoot && owner.parent.map { party == .controller($0) } == true)
        guard allowed else {
            let rule =
                viewID.isRoot ? "only the parent of \(owner.id) places its root view" : "\(owner.id) owns it"
            throw ContainmentError(.foreignView, deferred: "\(party) may not remove \(viewID): \(rule).")
        }
        // Only the field is kept: a copy of the view held across the change would make the table copy its box.
        guard try resolveView(viewID).superview != nil else { return }
        let scope = visibilityScope(under: [viewID])
        detachFromSuperview(viewID)
        finishVisibility(scope)
    }

    /// Removes `viewID` from its superview, if it has one, with a `viewRemoved` event. No appearance callbacks.
    mutating func detachFromSuperview(_ viewID: ViewID) {
        // Constraints leave first (SPEC §16); without any, one lookup as before.
        if !layouts.isEmpty { removeConstraints(using: viewID) }
        guard let superview = views[viewID]?.superview else { return }
        removeSubview(viewID, from: superview)
        updateView(viewID, .superview) { $0.superview = nil }
        emit(.viewRemoved(view: viewID, superview: superview))
    }

    /// Inserts `viewID` into `superviewID` at `index` (counted among the others; the end when nil or beyond), with a
    /// `viewInserted` event. No appearance callbacks. A view still in a superview leaves it first (`viewRemoved`), as
    /// UIKit's `insertSubview` does: a view never stands twice in a tree.
    mutating func attach(_ viewID: ViewID, to superviewID: ViewID, at index: Int?) {
        if views[viewID]?.superview != nil { detachFromSuperview(viewID) }
        let count = views[superviewID]?.subviews.count ?? 0
        let position = min(index ?? count, count)
        insertSubview(viewID, into: superviewID, at: position)
        updateView(viewID, .superview) { $0.superview = superviewID }
        emit(.viewInserted(view: viewID, superview: superviewID, index: position))
    }

    /// Detaches `viewID` with the appearance callbacks that causes.
    mutating func detachWithAppearance(_ viewID: ViewID, animated: Bool = false, leaving: ControllerID? = nil) {
        guard views[viewID]?.superview != nil else { return }
        let scope = visibilityScope(under: [viewID])
        detachFromSuperview(viewID)
        finishVisibility(scope, animated: animated, leaving: leaving)
    }

    // MARK: Properties (R1–R3)

    mutating func setFrame(_ viewID: ViewID, _ frame: Rect, by party: Party) throws(ContainmentError) {
        guard frame.isValid else {
            throw ContainmentError(
                .malformed,
                deferred: "Frame \(frame) of \(viewID) is not finite, lies beyond ±1e9 points or has a negative size."
            )
        }
        let owner = try controller(viewID.owner)
        if viewID.isRoot {
            try checkFrameAuthority(owner, by: party)
        } else {
            try checkOwnership(viewID, by: party, changing: "the frame of")
        }
        _ = try resolveView(viewID)
        // A standard container's bar or transition view given a frame: its constraints (SPEC §16) hold from now on.
        if viewID.name == "bar" || viewID.name == "transition" { pinContainerViews(viewID.owner) }
        changeFrame(viewID, to: frame, by: party)
    }

    /// R2: the parent; the window for its root (by a resize: the system may not set it); the system for any other
    /// controller without a parent (a presented one).
    private func checkFrameAuthority(_ owner: Controller, by party: Party) throws(ContainmentError) {
        let authority: Party =
            if let parent = owner.parent {
                .controller(parent)
            } else if let window = window(rootedAt: owner.id) {
                .window(window.id)
            } else {
                .system
            }
        guard party == authority else {
            throw ContainmentError(
                .frameAuthority,
                deferred: "Only \(authority) may set the frame of \(owner.id)'s root view; \(party) may not."
            )
        }
    }

    /// R1, R3: only the owner changes a view's properties (its root view's frame excepted, see R2).
    private func checkOwnership(_ viewID: ViewID, by party: Party, changing what: String) throws(ContainmentError) {
        guard party == .controller(viewID.owner) else {
            throw ContainmentError(
                .foreignView,
                deferred: "\(party) may not change \(what) \(viewID): only its owner \(viewID.owner) may."
            )
        }
    }

    /// Sets a loaded view's frame; a root view whose size changes lays out (SPEC §6).
    mutating func changeFrame(_ viewID: ViewID, to frame: Rect, by party: Party) {
        guard let oldFrame = views[viewID]?.frame, oldFrame != frame else { return }
        updateView(viewID, .frame, .frameSetBy) {
            $0.frame = frame
            $0.frameSetBy = party
        }
        emit(.frameChanged(view: viewID, frame: frame, by: party))
        if !layouts.isEmpty { frameChangedOutsideLayout(viewID) }
        if viewID.isRoot, oldFrame.size != frame.size { layout(viewID.owner) }
    }

    /// `viewWillLayoutSubviews` (and what the controller's code answers to it), the container lays out its children's
    /// views, `viewDidLayoutSubviews`.
    mutating func layout(_ id: ControllerID) {
        emit(.viewWillLayoutSubviews(id))
        ask(.viewWillLayoutSubviews(id, size: views[.root(id)]?.frame.size ?? .zero))
        layoutContainerViews(id)
        if !layouts.isEmpty { layoutByConstraints(id) }
        emit(.viewDidLayoutSubviews(id))
    }

    mutating func setAlpha(_ viewID: ViewID, _ alpha: Double, by party: Party) throws(ContainmentError) {
        guard alpha.isFinite, (0...1).contains(alpha) else {
            throw ContainmentError(.malformed, deferred: "Alpha \(alpha) of \(viewID) is not between 0 and 1.")
        }
        _ = try controller(viewID.owner)
        try checkOwnership(viewID, by: party, changing: "the alpha of")
        // Only the field is kept: a copy of the view held across the change would make the table copy its box.
        guard try resolveView(viewID).alpha != alpha else { return }
        updateView(viewID, .alpha) { $0.alpha = alpha }
        emit(.alphaChanged(view: viewID, alpha: alpha, by: party))
    }

    mutating func setHidden(_ viewID: ViewID, _ hidden: Bool, by party: Party) throws(ContainmentError) {
        _ = try controller(viewID.owner)
        try checkOwnership(viewID, by: party, changing: "whether it hides")
        // Only the field is kept: a copy of the view held across the change would make the table copy its box.
        guard try resolveView(viewID).hidden != hidden else { return }
        let scope = visibilityScope(under: [viewID])
        updateView(viewID, .hidden) { $0.hidden = hidden }
        emit(.hiddenChanged(view: viewID, hidden: hidden, by: party))
        finishVisibility(scope)
    }
}
