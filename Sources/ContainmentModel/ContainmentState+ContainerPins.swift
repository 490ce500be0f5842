/// SPEC §16's standard containers laid out by constraints (seed 004: "UITransitionView's position and size are decided
/// by its constraints to UILayoutContainerView and UITabBar … to change the tab bar's size or position we need not
/// touch the switching code"): the container's own constraints on its own views, with ids starting with `@`.
extension ContainmentState {
    /// A tab container's transition view pinned to its top, leading and trailing edges and to the top of its bar, the
    /// bar to the bottom, leading and trailing edges; a navigation container's bar to the top, leading and trailing
    /// edges (its content goes below the bar: ``contentFrame(of:)``). Each bar has its height, `@bar.height` at
    /// priority 999 (what a bar's intrinsic height is in UIKit: constraints of the container's code may override it):
    /// the height its container last gave its bar's frame (``keepBarHeight(_:)``), and the rest follows.
    static func containerPins(
        of id: ControllerID,
        _ kind: Kind,
        barHeight: Double
    ) -> [(id: String, constraint: LayoutConstraint)] {
        let root = ViewID.root(id)
        let bar = ViewID(owner: id, name: "bar")
        func pin(
            _ view: ViewID,
            _ attribute: LayoutAttribute,
            to other: ViewID,
            _ otherAttribute: LayoutAttribute
        )
            -> (id: String, constraint: LayoutConstraint)
        {
            (
                "@\(view.name ?? "root").\(attribute.rawValue)",
                LayoutConstraint(LayoutAnchor(view, attribute), .equal, LayoutAnchor(other, otherAttribute))
            )
        }
        let height = (id: barHeightPin, constraint: barHeightConstraint(bar, barHeight))
        switch kind {
        case .tab:
            let transition = ViewID(owner: id, name: "transition")
            return [
                pin(bar, .leading, to: root, .leading), pin(bar, .trailing, to: root, .trailing),
                pin(bar, .bottom, to: root, .bottom), height, pin(transition, .top, to: root, .top),
                pin(transition, .leading, to: root, .leading), pin(transition, .trailing, to: root, .trailing),
                pin(transition, .bottom, to: bar, .top),
            ]
        case .navigation:
            return [
                pin(bar, .top, to: root, .top), pin(bar, .leading, to: root, .leading),
                pin(bar, .trailing, to: root, .trailing), height,
            ]
        default:
            return []
        }
    }

    static let barHeightPin = "@bar.height"

    static func barHeightConstraint(_ bar: ViewID, _ height: Double) -> LayoutConstraint {
        LayoutConstraint(LayoutAnchor(bar, .height), .equal, constant: height, priority: 999)
    }

    /// The container gave its bar a frame (`setFrame` of its own bar): the bar's height pin takes its height, before
    /// its constraints are solved again.
    mutating func keepBarHeight(_ id: ControllerID) {
        let bar = ViewID(owner: id, name: "bar")
        guard let pin = layouts[id]?.constraint(Self.barHeightPin), let height = views[bar]?.frame.height,
            pin.constant != height
        else { return }
        removeConstraint(Self.barHeightPin, of: id)
        do {
            try install(Self.barHeightConstraint(bar, height), id: Self.barHeightPin, of: id)
        } catch {
            journal.layoutFailure = error
        }
    }

    /// Whether the container's own views are pinned yet (once they exist and have their first frames).
    func hasContainerPins(_ id: ControllerID) -> Bool {
        layouts[id]?.entries.contains(where: \.isContainers) == true
    }

    /// Pins a standard container's own views, once they exist, when anything could bend the layout the pins give —
    /// a frame given to its bar or transition view, or a constraint of its code. Until then, the container places them
    /// as the pins' solution (``layoutContainerViews(_:)``): the same frames, without a solver for every container.
    /// The frames hold the pins already, so adding them moves nothing.
    mutating func pinContainerViews(_ id: ControllerID) {
        guard let kind = controllers[id]?.kind, kind == .tab || kind == .navigation, !hasContainerPins(id) else {
            return
        }
        // Never given a frame by its container yet, the bar has the height of its kind (however short the container).
        let height = kind == .tab ? ContainerMetrics.tabBarHeight : ContainerMetrics.navigationBarHeight
        let pins = Self.containerPins(of: id, kind, barHeight: height)
        guard !pins.isEmpty, pins.allSatisfy({ $0.constraint.views.allSatisfy { views[$0] != nil } }) else { return }
        for pin in pins {
            do {
                try install(pin.constraint, id: pin.id, of: id, applying: false)
            } catch {
                journal.layoutFailure = error
                return
            }
        }
        applyLayout(id)
    }

    /// The container's own views moved by its constraints: its bar's controls follow the bar, and the shown child fills
    /// the content — a tab's transition view, or a navigation container's view below its bar.
    mutating func containerViewsMoved(_ id: ControllerID) {
        guard let record = controllers[id], record.kind == .tab || record.kind == .navigation else { return }
        syncBarControls(id)
        if let shown = displayedChild(of: record), views[.root(shown)]?.superview == contentView(of: id) {
            changeFrame(.root(shown), to: contentFrame(of: id), by: .controller(id))
        }
    }
}
