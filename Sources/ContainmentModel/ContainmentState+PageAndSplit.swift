extension ContainmentState {
    // MARK: Page (SPEC §8)

    /// How many pages a page container shows: scroll 1; page curl 1, or 2 when double-sided, and always 2 at a mid
    /// spine.
    public func requiredPageCount(_ id: ControllerID) -> Int {
        guard let properties = controllers[id]?.properties, properties.pageTransitionStyle == .pageCurl else {
            return 1
        }
        switch properties.spineLocation {
        case .mid: return 2
        case .min, .max: return properties.doubleSided ? 2 : 1
        case .none: return 1
        }
    }

    mutating func setPages(
        _ id: ControllerID,
        _ pages: [ControllerID],
        direction: PageDirection,
        animated: Bool,
        by party: Party
    ) throws(ContainmentError) {
        let record = try container(id, kind: .page, for: "set-pages")
        let acting = try drivingParty(party, id, verb: "set the pages of")
        try checkNoSwitchRunning(in: id)
        for page in pages { _ = try controller(page) }
        try checkNoDuplicate(pages, in: id, as: "pages")
        let required = requiredPageCount(id)
        guard pages.count == required else {
            throw ContainmentError(
                .spineMismatch,
                deferred: "The number of view controllers provided (\(pages.count)) doesn't match the number required"
                    + " (\(required)) for the requested transition."
            )
        }
        let leaving = record.children.filter { !pages.contains($0) }
        let arriving = pages.filter { !record.children.contains($0) }
        for page in leaving { try willMove(page, toParent: nil, by: acting) }
        for page in arriving { try addChild(page, to: id, by: acting) }
        updateController(id, .children) { $0.children = pages + leaving }
        let end = TransitionEnd.pages(
            arrived: arriving,
            left: leaving,
            pages: pages,
            direction: direction,
            requestedBy: party
        )
        // Animated, the pages turning over the old ones are a timed transition (SPEC §13): both pages of a two-page
        // spine at once; the rest comes at its completion.
        let shownLeaving = leaving.filter { isView(.root($0), inTreeOf: id) && views[.root($0)]?.superview != nil }
        if animated, animationDuration > 0, !leaving.isEmpty, leaving.count == arriving.count,
            shownLeaving == leaving, let fresh = controllers[id]
        {
            for page in leaving + arriving { try checkNotTransitioning(page, action: "turned") }
            let frames = Dictionary(pageFrames(id, pages), uniquingKeysWith: { first, _ in first })
            // A page that stays moves to its new place at once (as the container, their parent).
            for page in pages where !arriving.contains(page) {
                if let frame = frames[page] { changeFrame(.root(page), to: frame, by: .controller(id)) }
            }
            let pairs = zip(leaving, arriving).map { (from: $0, to: $1, frame: frames[$1]) }
            beginSwitch(in: fresh, pairs, duration: animationDuration, end: end, by: .controller(id))
            return
        }
        arrange(id, pageFrames(id, pages), animated: animated)
        try finish(end, in: id, animated: animated)
    }

    /// `next` / `previous`: the pages after (before) the visible ones in the data source — the sequence of the data
    /// source controller if one is set, else the container's own — if there are enough.
    mutating func turnPage(_ id: ControllerID, forward: Bool, by party: Party) throws(ContainmentError) {
        let record = try container(id, kind: .page, for: forward ? "next" : "previous")
        _ = try drivingParty(party, id, verb: "turn the pages of")
        let book =
            record.properties.pageDataSource.flatMap { controllers[$0]?.properties.pageSequence }
            ?? record.properties.pageSequence
        let count = requiredPageCount(id)
        guard let anchor = forward ? record.children.last : record.children.first else { return }
        if let source = record.properties.pageDataSource,
            let pages = askPages(of: source, from: anchor, count: count, forward: forward, in: id)
        {
            guard pages.count == count else { return }
            try setPages(id, pages, direction: forward ? .forward : .reverse, animated: false, by: party)
            return
        }
        guard let index = book.firstIndex(of: anchor) else { return }
        let range = forward ? (index + 1)..<(index + 1 + count) : (index - count)..<index
        guard range.lowerBound >= 0, range.upperBound <= book.count else { return }
        // A turn through the data source is not a timed switch: it shows the pages at once.
        try setPages(id, Array(book[range]), direction: forward ? .forward : .reverse, animated: false, by: party)
    }

    /// The `count` pages after (before) `anchor` as the data source's code answers them, one question per page, in
    /// page order (SPEC §15); fewer when it names no more; `nil` when its code does not answer (the model then reads
    /// its `pageSequence`).
    mutating func askPages(
        of source: ControllerID,
        from anchor: ControllerID,
        count: Int,
        forward: Bool,
        in id: ControllerID
    ) -> [ControllerID]? {
        var pages: [ControllerID] = []
        var anchor = anchor
        while pages.count < count {
            let question: Question =
                forward
                ? .pageAfter(source, page: anchor, container: id) : .pageBefore(source, page: anchor, container: id)
            guard let answer = ask(question) else { return pages.isEmpty ? nil : pages }
            guard let page = answer.page, !answer.timedOut else { break }
            pages.append(page)
            anchor = page
        }
        return forward ? pages : pages.reversed()
    }

    /// One page fills the container; two share it at the spine.
    func pageFrames(_ id: ControllerID, _ pages: [ControllerID]) -> [(ControllerID, Rect)] {
        let size = views[.root(id)]?.frame.size ?? .zero
        guard pages.count == 2 else { return pages.map { ($0, Rect(size: size)) } }
        let half = size.width / 2
        return [
            (pages[0], Rect(x: 0, y: 0, width: half, height: size.height)),
            (pages[1], Rect(x: half, y: 0, width: size.width - half, height: size.height)),
        ]
    }

    // MARK: Split (SPEC §8)

    /// A split's children: a primary and a secondary at most; the ones that go leave cleanly.
    mutating func setSplitChildren(
        _ record: Controller,
        _ children: [ControllerID],
        by party: Party
    ) throws(ContainmentError) {
        let id = record.id
        guard children.count <= 2 else {
            throw ContainmentError(
                .malformed,
                deferred: "A split takes a primary and a secondary; \(children.count) given to \(id)."
            )
        }
        let leaving = record.children.filter { !children.contains($0) }
        let arriving = children.filter { !record.children.contains($0) }
        for child in leaving { try willMove(child, toParent: nil, by: party) }
        for child in arriving { try addChild(child, to: id, by: party) }
        updateController(id, .children) { $0.children = children + leaving }
        arrange(id, splitFrames(id, children), animated: false)
        syncSplitControls(id)
        for child in leaving { detachFromParent(child, id) }
        for child in arriving { try didMove(child, toParent: id, by: party) }
    }

    mutating func setSplitMode(_ id: ControllerID, _ mode: SplitDisplayMode, by party: Party) throws(ContainmentError) {
        let record = try container(id, kind: .split, for: "split-mode")
        try checkContainerParty(party, id, verb: "change the display mode of")
        guard record.properties.splitDisplayMode != mode else { return }
        updateController(id, .properties) { $0.properties.splitDisplayMode = mode }
        rearrangeSplit(id)
    }

    /// Which children a split shows, where: side by side (primary = fraction × width, exact: no rounding) when all visible; only the
    /// secondary with the primary hidden; the primary over the secondary as an overlay; only the primary when
    /// collapsed (narrower than 600 points).
    func splitFrames(_ id: ControllerID, _ children: [ControllerID]) -> [(ControllerID, Rect)] {
        guard let record = controllers[id], let primary = children.first else { return [] }
        let size = views[.root(id)]?.frame.size ?? .zero
        let full = Rect(size: size)
        guard children.count == 2 else { return [(primary, full)] }
        let secondary = children[1]
        // Collapsed (SPEC §8): one child, the primary unless the display mode hides it.
        guard size.width >= 600 else {
            return [(record.properties.splitDisplayMode == .primaryHidden ? secondary : primary, full)]
        }
        let width = size.width * record.properties.splitFraction
        let primaryFrame = Rect(x: 0, y: 0, width: width, height: size.height)
        // In portrait (SPEC §15): the secondary full width, the primary only as an overlay when asked.
        if splitIsInPortrait(id) {
            return record.properties.splitDisplayMode == .primaryOverlay
                ? [(secondary, full), (primary, primaryFrame)] : [(secondary, full)]
        }
        switch record.properties.splitDisplayMode {
        case .allVisible:
            return [
                (primary, primaryFrame),
                (secondary, Rect(x: width, y: 0, width: size.width - width, height: size.height)),
            ]
        case .primaryHidden:
            return [(secondary, full)]
        case .primaryOverlay:
            return [(secondary, full), (primary, primaryFrame)]
        }
    }

    // MARK: Arrangement

    /// Shows exactly `wanted` of a container's children, at those frames (set as their parent), in that order on
    /// top of each other: the ones no longer wanted go, the new ones come, with the appearance swap between them.
    mutating func arrange(_ id: ControllerID, _ wanted: [(ControllerID, Rect)], animated: Bool) {
        guard let record = controllers[id] else { return }
        loadViewIfNeeded(id)
        let superview = contentView(of: id)
        let wantedIDs = wanted.map(\.0)
        let shown = record.children.filter { isView(.root($0), inTreeOf: id) }
        let leaving = shown.filter { !wantedIDs.contains($0) }
        let entering = wantedIDs.filter { !shown.contains($0) }
        for (child, frame) in wanted {
            loadViewIfNeeded(child)
            changeFrame(.root(child), to: frame, by: .controller(id))
        }
        guard !leaving.isEmpty || !entering.isEmpty else { return }
        let scope = visibilityScope(under: (leaving + entering).map { .root($0) })
        for child in leaving { detachFromSuperview(.root(child)) }
        for child in entering {
            detachFromSuperview(.root(child))
            attach(.root(child), to: superview, at: nil)
        }
        finishVisibility(scope, animated: animated)
    }
}
