import ContainmentBus
import ContainmentModel

/// What a controller does: user code a host wraps in the controller's actor.
///
/// A behavior receives every callback of its controller in SPEC order, one at a time, and acts through
/// ``ControllerRef`` — adding children, setting frames, embedding — as its controller, whichever process runs the
/// target. Register custom kinds with a ``BehaviorRegistry``.
public protocol ControllerBehavior: Sendable {
    /// One callback (`loadView`, `viewWillAppear`, `viewWillLayoutSubviews`, …), in order.
    mutating func handle(_ callback: Event, controller: ControllerRef) async

    /// The first call of a behavior whose host process replaces one that died: its controller's state now (parent,
    /// children, appearance, view loaded and frame, properties). Only later callbacks follow. Does nothing unless
    /// implemented.
    mutating func restored(_ state: Containment_V1_ControllerState, controller: ControllerRef) async
}

extension ControllerBehavior {
    public mutating func restored(_ state: Containment_V1_ControllerState, controller: ControllerRef) async {}
}

/// A content controller: it has no children to lay out and no views of its own beyond its root.
public struct ContentBehavior: ControllerBehavior {
    public init() {}
    public mutating func handle(_ callback: Event, controller: ControllerRef) async {}
}

/// A custom container: on every layout it stacks its children's root views vertically, each the container's full
/// width and an equal share of its height — as their parent, the one party allowed to (SPEC §3, R2). Its public
/// methods (seed 000), called with `ctl invoke`: `add CHILD` embeds a controller at the bottom, `remove CHILD` takes
/// one out; either way it lays its children out again.
public struct StackBehavior: ControllerBehavior {
    /// The verbs it answers.
    public static let verbs = ["add", "remove"]

    public init() {}

    public mutating func handle(_ callback: Event, controller: ControllerRef) async {
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
            let me = snapshot.controllers.first(where: { $0.id == controller.id.rawValue }), me.hasFrame
        else { return }
        let frame = me.frame.model
        let embedded = me.children.filter { child in
            snapshot.views.contains { $0.id == child && $0.hasSuperview }
        }
        guard !embedded.isEmpty else { return }
        let share = frame.height / Double(embedded.count)
        let commands = embedded.enumerated().map { index, child in
            Command.setFrame(
                .root(ControllerID(child)),
                Rect(x: 0, y: share * Double(index), width: frame.width, height: share)
            )
        }
        _ = try? await controller.perform(commands)
    }
}

/// Slow controller code: it takes two seconds over each callback (without blocking a thread). Only its own controller
/// waits: its host's other controllers go on meanwhile.
public struct SlowBehavior: ControllerBehavior {
    public init() {}

    public mutating func handle(_ callback: Event, controller: ControllerRef) async {
        try? await Task.sleep(for: .seconds(2))
    }
}

/// Busy controller code: about 50 µs of computation in each callback, holding its thread meanwhile as CPU-bound code
/// does. `containment bench` measures a host's callbacks with it.
public struct BusyBehavior: ControllerBehavior {
    /// The computation each callback takes.
    public static let work: Duration = .microseconds(50)
    /// What the computation gives, kept so that it is not optimized away.
    private(set) var result: UInt64 = 0

    public init() {}

    public mutating func handle(_ callback: Event, controller: ControllerRef) async {
        let clock = ContinuousClock()
        let end = clock.now + Self.work
        var value = result &+ 1
        repeat {
            for _ in 0..<64 { value = (value ^ 0x9E37_79B9_7F4A_7C15) &* 0x100_0000_01B3 }
        } while clock.now < end
        result = value
    }
}

/// Which behavior runs each kind of controller in a host.
public struct BehaviorRegistry: Sendable {
    private var makers: [String: @Sendable () -> any ControllerBehavior]
    /// The verbs each kind exposes (`ctl invoke`), as the host registers them.
    public private(set) var verbs: [String: [String]] = ["stack": StackBehavior.verbs]

    /// `content`, the `stack` example container, the `slow` and `busy` examples, and seed 002's `editor` and
    /// `editorDelegate`. The standard containers (navigation, tab, page, split, menu) run as content here: their
    /// rules are the supervisor's.
    public init() {
        makers = [
            Kind.content.rawValue: { ContentBehavior() },
            "stack": { StackBehavior() },
            "slow": { SlowBehavior() },
            "busy": { BusyBehavior() },
            "editor": { EditorBehavior() },
            "editorDelegate": { EditorDelegateBehavior() },
        ]
    }

    /// Runs controllers of `kind` with what `make` makes, whose code answers `verbs` (its `verbInvoked` callbacks).
    public mutating func register(
        _ kind: Kind,
        verbs: [String] = [],
        _ make: @escaping @Sendable () -> any ControllerBehavior
    ) {
        makers[kind.rawValue] = make
        self.verbs[kind.rawValue] = verbs.isEmpty ? nil : verbs
    }

    /// The kinds it runs: the supervisor places a controller of a custom kind only on a host that registered it.
    public var kinds: [Kind] { makers.keys.sorted().map { Kind($0) } }

    /// Every kind it runs, with its verbs (none for most), as a Hello carries them.
    public var registeredVerbs: [Containment_V1_KindVerbs] {
        Set(makers.keys).union(verbs.keys).sorted().map { kind in
            .with {
                $0.kind = kind
                $0.verbs = verbs[kind] ?? []
            }
        }
    }

    public func behavior(for kind: String) -> any ControllerBehavior {
        makers[kind]?() ?? ContentBehavior()
    }
}
