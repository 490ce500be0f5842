import ContainmentModel

/// A custom container: on every layout it stacks its children's root views vertically, each the container's full
/// width and an equal share of its height — as their parent, the one party allowed to (SPEC §3, R2). Its public
/// methods (seed 000), called with `ctl invoke`: `add CHILD` embeds a controller at the bottom, `remove CHILD` takes
/// one out; either way it lays its children out again.
package struct StackBehavior: ControllerBehavior {
    /// The verbs it answers.
    package static let verbs = ["add", "remove"]

    package init() {}

    package mutating func handle(_ callback: Event, controller: ControllerRef) async {
        switch callback {
        case .viewWillLayoutSubviews:
            await Self.layOut(controller)
        case .verbInvoked(_, "add", let arguments, _) where arguments.count == 1:
            let child = ControllerID(arguments[0])
            _ = try? await controller.perform(
                SeedListings.displayContentController(child, in: controller.id, frame: .zero).map(\.command)
            )
            await Self.layOut(controller)
        case .verbInvoked(_, "remove", let arguments, _) where arguments.count == 1:
            try? await controller.unembed(ControllerID(arguments[0]))
            await Self.layOut(controller)
        default:
            break
        }
    }

    /// Each embedded child the full width and an equal share of the height, top to bottom, in children order.
    static func layOut(_ controller: ControllerRef) async {
        guard let snapshot = try? await controller.snapshot(),
            let frame = snapshot.controller(controller.id)?.frame
        else { return }
        let embedded = snapshot.embeddedChildren(of: controller.id)
        guard !embedded.isEmpty else { return }
        let share = frame.height / Double(embedded.count)
        let commands = embedded.enumerated().map { index, child in
            Command.setFrame(
                .root(child),
                Rect(x: 0, y: share * Double(index), width: frame.width, height: share)
            )
        }
        _ = try? await controller.perform(commands)
    }
}

/// Slow controller code: it takes two seconds over each callback (without blocking a thread). Only its own controller
/// waits: its host's other controllers go on meanwhile.
package struct SlowBehavior: ControllerBehavior {
    package init() {}

    package mutating func handle(_ callback: Event, controller: ControllerRef) async {
        try? await Task.sleep(for: .seconds(2))
    }
}

/// Busy controller code: about 50 µs of computation in each callback, holding its thread meanwhile as CPU-bound code
/// does. `containment bench` measures a host's callbacks with it.
package struct BusyBehavior: ControllerBehavior {
    /// The computation each callback takes.
    package static let work: Duration = .microseconds(50)
    /// What the computation gives, kept so that it is not optimized away.
    private(set) var result: UInt64 = 0

    package init() {}

    package mutating func handle(_ callback: Event, controller: ControllerRef) async {
        let clock = ContinuousClock()
        let end = clock.now + Self.work
        var value = result &+ 1
        repeat {
            for _ in 0..<64 { value = (value ^ 0x9E37_79B9_7F4A_7C15) &* 0x100_0000_01B3 }
        } while clock.now < end
        result = value
    }
}

/// Seed 003's master list, whose code drives the containers above it (SPEC §15). Its rows are the controllers its
/// `pageSequence` names (topology: `pages`): once its view loads it builds one row view per detail (`ID/row-I`, 44
/// points high, the full width at each layout), and a `tap` on a row (it needs `handles: [tap]`) pushes that detail onto
/// its navigation controller, as UIKit's `self.navigationController.push…`. Its verbs do the same from code: `show
/// DETAIL` pushes, `selectTab INDEX` selects a tab of its tab controller. It asks as itself, so the containers'
/// events name it in `requestedBy`; with no such container above it nothing happens, as a message to UIKit's nil
/// `navigationController` does.
package struct MasterBehavior: ControllerBehavior {
    /// The verbs it answers.
    package static let verbs = ["show", "selectTab"]
    /// A row's height.
    static let rowHeight = 44.0

    package init() {}

    package mutating func handle(_ callback: Event, controller: ControllerRef) async {
        switch callback {
        case .viewDidLoad, .viewDidLayoutSubviews:
            await Self.layOutRows(controller)
        case .inputReceived(_, "tap", _, let view):
            guard let name = view.name, name.hasPrefix("row-"), let index = Int(name.dropFirst(4)),
                let details = try? await controller.state().properties.pageSequence, details.indices.contains(index)
            else { return }
            await Self.show(details[index], controller)
        case .verbInvoked(_, "show", let arguments, _) where arguments.count == 1:
            await Self.show(ControllerID(arguments[0]), controller)
        case .verbInvoked(_, "selectTab", let arguments, _) where arguments.count == 1:
            guard let index = Int(arguments[0]), let tabs = try? await controller.enclosing(.tab) else { return }
            _ = try? await controller.select(.index(index), in: tabs)
        default:
            break
        }
    }

    /// Pushes `detail` onto the navigation controller above, as this controller.
    static func show(_ detail: ControllerID, _ controller: ControllerRef) async {
        guard let navigation = try? await controller.enclosing(.navigation) else { return }
        _ = try? await controller.push(detail, on: navigation)
    }

    /// One row per detail, top to bottom, the root view's full width: the ones missing go in, all get their frames.
    static func layOutRows(_ controller: ControllerRef) async {
        guard let tree = try? await controller.snapshot(), let me = tree.controller(controller.id),
            let width = me.frame?.width
        else { return }
        var commands: [Command] = []
        for index in me.properties.pageSequence.indices {
            let row = ViewID(owner: controller.id, name: "row-\(index)")
            if tree.views[row]?.superview == nil { commands.append(.addSubview(row, to: .root(controller.id))) }
            let frame = Rect(x: 0, y: Double(index) * rowHeight, width: width, height: rowHeight)
            if tree.views[row]?.frame != frame { commands.append(.setFrame(row, frame)) }
        }
        guard !commands.isEmpty else { return }
        _ = try? await controller.perform(commands)
    }
}
