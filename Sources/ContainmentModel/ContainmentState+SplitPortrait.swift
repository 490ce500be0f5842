extension ContainmentState {
    // MARK: SPEC §15 — the split in portrait

    /// Whether split `id` follows the portrait rule: it stands in a window turned to a portrait orientation and is
    /// wide enough not to collapse (600 points, SPEC §8). It then shows its secondary full width, and its primary only
    /// as an overlay, when asked (display mode `primaryOverlay`).
    func splitIsInPortrait(_ id: ControllerID) -> Bool {
        guard let window = window(placing: id), !window.orientation.isLandscape else { return false }
        return (views[.root(id)]?.frame.width ?? 0) >= 600
    }

    /// The split's `showPrimary` button, `S/showPrimary` (64 × 44 at its top-left, in front of the secondary): there
    /// while it follows the portrait rule with a primary hidden behind the secondary, gone otherwise.
    mutating func syncSplitControls(_ id: ControllerID) {
        guard let record = controllers[id], record.kind == .split, isViewLoaded(id) else { return }
        let button = ViewID(owner: id, name: "showPrimary")
        let party = Party.controller(id)
        let wanted =
            splitIsInPortrait(id) && record.children.count >= 2
            && record.properties.splitDisplayMode != .primaryOverlay
        let subviews = views[.root(id)]?.subviews ?? []
        // Cannot fail: the split removes and inserts its own view in its own root view.
        if views[button]?.superview != nil, !wanted || subviews.last != button {
            try? removeFromSuperview(button, by: party)
        }
        guard wanted else { return }
        if views[button]?.superview == nil { try? addSubview(button, to: .root(id), at: nil, by: party) }
        changeFrame(button, to: Rect(x: 0, y: 0, width: ContainerMetrics.barItemWidth, height: 44), by: party)
    }

    /// Lays a split out again from its display mode and where it stands, with its button.
    mutating func rearrangeSplit(_ id: ControllerID) {
        guard let record = controllers[id], record.kind == .split else { return }
        arrange(id, splitFrames(id, record.children), animated: false)
        syncSplitControls(id)
    }

    /// After a tap that hit `view`: each split following the portrait rule with its primary shown as an overlay, that
    /// the tap hit outside that primary, hides it (as UIKit's does on a tap beside the overlay).
    mutating func hideSplitOverlays(outside view: ViewID) {
        var current: ViewID? = view
        var inPrimaryOf: Set<ControllerID> = []
        while let node = current {
            if node.isRoot, let parent = controllers[node.owner]?.parent, controllers[parent]?.kind == .split,
                controllers[parent]?.children.first == node.owner
            {
                inPrimaryOf.insert(parent)
            }
            if node.isRoot, let record = controllers[node.owner], record.kind == .split,
                record.properties.splitDisplayMode == .primaryOverlay, splitIsInPortrait(node.owner),
                !inPrimaryOf.contains(node.owner)
            {
                updateController(node.owner, .properties) { $0.properties.splitDisplayMode = .allVisible }
                rearrangeSplit(node.owner)
            }
            current = views[node]?.superview
        }
    }

    /// A window turned to landscape: a split of it showing its primary as a portrait overlay shows both side by side
    /// again (display mode `allVisible`), laid out by the resize that follows.
    mutating func closeSplitOverlays(in window: WindowID) {
        let overlaid = controllers.values.filter {
            $0.kind == .split && $0.properties.splitDisplayMode == .primaryOverlay
                && self.window(placing: $0.id)?.id == window
        }
        for record in overlaid {
            updateController(record.id, .properties) { $0.properties.splitDisplayMode = .allVisible }
        }
    }
}
