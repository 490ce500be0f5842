extension ContainmentState {
    // MARK: SPEC §13 — orientation and manual size forwarding

    /// `rotate(W, orientation)` by the system: allowed when the controller that decides supports it, else
    /// `unsupportedOrientation`. Then `orientationChanged` and a size transition to the rotated size: the window's
    /// longer side across in landscape, down in portrait (so width and height swap between portrait and landscape,
    /// even for a window a resize left in another shape); when that is its size already (the two landscapes, the two
    /// portraits), only `viewWillTransition(to:)` goes down the tree.
    mutating func rotate(_ id: WindowID, to orientation: Orientation, by party: Party) throws(ContainmentError) {
        try checkSystem(party, doing: "rotate window \(id)")
        let window = try window(id)
        let decider = orientationDecider(of: window)
        let supported = controllers[decider]?.properties.supportedOrientations ?? Orientation.defaultSupported
        guard supported.contains(orientation) else {
            let names = supported.sorted().map(\.rawValue).joined(separator: ", ")
            throw ContainmentError(
                .unsupportedOrientation,
                deferred: "\(decider) decides the orientation of window \(id) and does not support"
                    + " \(orientation.rawValue); it supports \(names)."
            )
        }
        guard window.orientation != orientation else { return }
        // SPEC §15: from portrait to landscape, a split's primary overlay gives way to both side by side.
        if orientation.isLandscape, !window.orientation.isLandscape { closeSplitOverlays(in: id) }
        var turned = window
        turned.orientation = orientation
        setWindow(turned, id)
        emit(.orientationChanged(window.root, window: id, orientation: orientation))
        let long = max(window.size.width, window.size.height)
        let short = min(window.size.width, window.size.height)
        let size = orientation.isLandscape ? Size(width: long, height: short) : Size(width: short, height: long)
        if size == window.size {
            forwardSizeTransition(window.root, size: size)
        } else {
            resize(turned, to: size)
        }
    }

    /// The controller whose `supportedOrientations` rule a window: the top-most presented controller covering the
    /// whole window (full screen, or a sheet fallen back to it), else the window's root.
    public func orientationDecider(of window: Window) -> ControllerID {
        var decider = window.root
        var depth = 0
        for (presented, presentation) in presentations where presentation.coversWindow {
            guard self.window(placing: presented)?.id == window.id else { continue }
            let level = presentationDepth(presented)
            if level > depth || (level == depth && presented < decider) {
                (decider, depth) = (presented, level)
            }
        }
        return decider
    }

    /// How many presentations stand under `id`'s tree: 0 in a window's root tree, 1 for one presented on it, …
    func presentationDepth(_ id: ControllerID) -> Int {
        var depth = 0
        var top = topView(of: .root(id)).owner
        while let presentation = presentations[top] {
            depth += 1
            top = topView(of: .root(presentation.context)).owner
        }
        return depth
    }

    /// `forwardSizeTransition(P, child: C, size)` by P: C receives `viewWillTransition(to:)`, forwarded on to its
    /// own children by its own rule — for a container that turned automatic forwarding off (SPEC §13).
    mutating func forwardSizeTransition(
        in id: ControllerID,
        to child: ControllerID,
        size: Size,
        by party: Party
    ) throws(ContainmentError) {
        let record = try controller(id)
        _ = try controller(child)
        try checkContainerParty(party, id, verb: "forward a size transition from")
        guard record.children.contains(child) else {
            throw ContainmentError(.notAChild, deferred: "\(child) is not a child of \(id).")
        }
        guard size.isValid else {
            throw ContainmentError(
                .malformed,
                deferred: "Size \(size) is not finite, is beyond 1e9 points or is negative."
            )
        }
        forwardSizeTransition(child, size: size)
    }
}
