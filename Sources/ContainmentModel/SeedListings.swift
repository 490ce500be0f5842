/// The seeds' container methods (seed 000, listings 14-1 to 14-3; seed 001), each as one atomic batch issued by the
/// container.
public enum SeedListings {
    /// `displayContentController:` — addChild, set the child's frame, add its view, didMove.
    public static func displayContentController(
        _ content: ControllerID,
        in container: ControllerID,
        superview: ViewID? = nil,
        frame: Rect
    ) -> [Request] {
        [
            .by(container, .addChild(content, to: container)),
            .by(container, .setFrame(.root(content), frame)),
            .by(container, .addSubview(.root(content), to: superview ?? .root(container))),
            .by(container, .didMove(content, toParent: container)),
        ]
    }

    /// `hideContentController:` — willMove(nil), remove its view, removeFromParent.
    public static func hideContentController(_ content: ControllerID, in container: ControllerID) -> [Request] {
        [
            .by(container, .willMove(content, toParent: nil)),
            .by(container, .removeFromSuperview(.root(content))),
            .by(container, .removeFromParent(content)),
        ]
    }

    /// `cycleFromViewController:toViewController:` — willMove(nil) on the old child, addChild the new one at its
    /// start frame, the transition whose animation moves the new view to the old one's frame and the old one to its
    /// end frame, then the completion: the old child leaves, the new one gets didMove.
    public static func cycle(
        from old: ControllerID,
        to new: ControllerID,
        in container: ControllerID,
        oldFrame: Rect,
        newStartFrame: Rect,
        oldEndFrame: Rect,
        duration: Double = 0.25
    ) -> [Request] {
        [
            .by(container, .willMove(old, toParent: nil)),
            .by(container, .addChild(new, to: container)),
            .by(container, .setFrame(.root(new), newStartFrame)),
            .by(container, .transition(in: container, from: old, to: new, duration: duration)),
            .by(container, .setFrame(.root(new), oldFrame)),
            .by(container, .setFrame(.root(old), oldEndFrame)),
            .by(container, .completeTransition(in: container, from: old, to: new)),
            .by(container, .removeFromParent(old)),
            .by(container, .didMove(new, toParent: container)),
        ]
    }
}

extension ContainmentState {
    /// ``SeedListings/cycle(from:to:in:oldFrame:newStartFrame:oldEndFrame:duration:)`` with the old child's current
    /// frame: the new one slides in from the right, the old one out to the left.
    public func cycleRequests(
        from old: ControllerID,
        to new: ControllerID,
        in container: ControllerID,
        duration: Double = 0.25
    ) -> [Request] {
        let frame = views[.root(old)]?.frame ?? .zero
        var start = frame
        start.x += frame.width
        var end = frame
        end.x -= frame.width
        return SeedListings.cycle(
            from: old,
            to: new,
            in: container,
            oldFrame: frame,
            newStartFrame: start,
            oldEndFrame: end,
            duration: duration
        )
    }
}
