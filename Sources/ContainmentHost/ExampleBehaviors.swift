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

/// Seed 003's master list, whose code drives the containers above it (SPEC §15): `show DETAIL` pushes the detail onto
/// its navigation controller (UIKit's `self.navigationController.push…`), `selectTab INDEX` selects a tab of its tab
/// controller. It asks as itself, so the containers' events name it in `requestedBy`; with no such container above it
/// the verb does nothing, as a message to UIKit's nil `navigationController` does.
package struct MasterBehavior: ControllerBehavior {
    /// The verbs it answers.
    package static let verbs = ["show", "selectTab"]

    package init() {}

    package mutating func handle(_ callback: Event, controller: ControllerRef) async {
        switch callback {
        case .verbInvoked(_, "show", let arguments, _) where arguments.count == 1:
            guard let navigation = try? await controller.enclosing(.navigation) else { return }
            _ = try? await controller.push(ControllerID(arguments[0]), on: navigation)
        case .verbInvoked(_, "selectTab", let arguments, _) where arguments.count == 1:
            guard let index = Int(arguments[0]), let tabs = try? await controller.enclosing(.tab) else { return }
            _ = try? await controller.select(.index(index), in: tabs)
        default:
            break
        }
    }
}
