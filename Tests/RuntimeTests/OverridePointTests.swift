import ContainmentClient
import ContainmentHost
import ContainmentModel
import ContainmentTestKit
import Distributed
import Foundation
import Synchronization
import Testing

/// Controller code written as a UIKit view controller is (seed 003: "override UIViewController methods"; issue 44):
/// each callback with an override point reaches it, with UIKit's arguments, and then `handle`, in the order the
/// runtime delivered them — for a behavior and for a distributed controller alike. In memory (`withSimulatedRuntime`).
@Suite struct OverridePointTests {
    /// What a controller's code saw, in order.
    final class Log: Sendable {
        private let lines = Mutex<[String]>([])
        func add(_ line: String) { lines.withLock { $0.append(line) } }
        var all: [String] { lines.withLock { $0 } }
    }

    /// Records every override point and every `handle`.
    struct Recorder: ControllerBehavior {
        let log: Log
        func viewDidLoad(controller: ControllerRef) async { log.add("viewDidLoad()") }
        func viewWillAppear(animated: Bool, controller: ControllerRef) async {
            log.add("viewWillAppear(animated: \(animated))")
        }
        func viewDidAppear(animated: Bool, controller: ControllerRef) async {
            log.add("viewDidAppear(animated: \(animated))")
        }
        func viewWillDisappear(animated: Bool, controller: ControllerRef) async {
            log.add("viewWillDisappear(animated: \(animated))")
        }
        func viewDidDisappear(animated: Bool, controller: ControllerRef) async {
            log.add("viewDidDisappear(animated: \(animated))")
        }
        func willMove(toParent parent: ControllerID?, controller: ControllerRef) async {
            log.add("willMove(toParent: \(parent?.rawValue ?? "nil"))")
        }
        func didMove(toParent parent: ControllerID?, controller: ControllerRef) async {
            log.add("didMove(toParent: \(parent?.rawValue ?? "nil"))")
        }
        func viewWillLayoutSubviews(controller: ControllerRef) async { log.add("viewWillLayoutSubviews()") }
        func viewDidLayoutSubviews(controller: ControllerRef) async { log.add("viewDidLayoutSubviews()") }
        func didReceiveMemoryWarning(controller: ControllerRef) async { log.add("didReceiveMemoryWarning()") }
        func viewWillTransition(to size: Size, controller: ControllerRef) async {
            log.add("viewWillTransition(to: \(size))")
        }
        func handle(_ callback: Event, controller: ControllerRef) async { log.add("handle(\(callback.name))") }
    }

    /// The same, as a distributed controller overriding two points.
    distributed actor Watcher: DistributedController {
        typealias ActorSystem = ContainmentActorSystem
        let log: Log

        init(controller: ControllerRef, log: Log) {
            self.log = log
            actorSystem = controller.actorSystem
        }

        func viewDidAppear(animated: Bool, controller: ControllerRef) async {
            log.add("viewDidAppear(animated: \(animated))")
        }
        func didMove(toParent parent: ControllerID?, controller: ControllerRef) async {
            log.add("didMove(toParent: \(parent?.rawValue ?? "nil"))")
        }
        func handle(_ callback: Event, controller: ControllerRef) async { log.add("handle(\(callback.name))") }

        /// Asked `loadView` (when registered as answering it): a label in its root view.
        func answer(_ question: Question, controller: ControllerRef) async -> Answer {
            guard case .loadView = question else { return .nothing }
            log.add("answer(loadView)")
            let label = ViewID(owner: controller.id, name: "label")
            return Answer(commands: [.addSubview(label, to: .root(controller.id))])
        }
    }

    static let topology = """
        window: {name: main, width: 800, height: 600, root: box}
        hosts: [h0]
        controllers:
          - {id: box, kind: content, host: h0}
        """

    /// Embeds `child` in `box`, resizes the window, warns of memory, then removes the child: every override point
    /// but those of a page or a presentation is called.
    static func drive(_ runtime: SimulatedRuntime, child: ControllerID, kind: Kind) async throws -> [Event] {
        try await runtime.perform([.create(child, kind: kind)], hosts: [child: "h0"])
        let embed: [Command] = [
            .addChild(child, to: "box"), .setFrame(.root(child), Rect(x: 0, y: 0, width: 400, height: 300)),
            .addSubview(.root(child), to: .root("box")), .didMove(child, toParent: "box"),
        ]
        try await runtime.perform(embed.map { .by("box", $0) })
        try await runtime.perform([.resizeWindow("main", size: Size(width: 1024, height: 768))])
        try await runtime.perform([.by("box", .setFrame(.root(child), Rect(x: 0, y: 0, width: 512, height: 384)))])
        try await runtime.perform([.memoryWarning([child])])
        let remove: [Command] = [
            .willMove(child, toParent: nil), .removeFromSuperview(.root(child)), .removeFromParent(child),
        ]
        try await runtime.perform(remove.map { .by("box", $0) })
        try await runtime.runUntilIdle()
        return try await runtime.callbacks(of: child)
    }

    /// What a controller overriding `points` sees for `callbacks`: each one's override point, then `handle`.
    static func expected(_ callbacks: [Event], overriding points: Set<String>) -> [String] {
        callbacks.flatMap { callback -> [String] in
            let point: String? =
                switch callback {
                case .viewDidLoad: "viewDidLoad()"
                case .viewWillAppear(_, let flags): "viewWillAppear(animated: \(flags.animated))"
                case .viewDidAppear(_, let flags): "viewDidAppear(animated: \(flags.animated))"
                case .viewWillDisappear(_, let flags): "viewWillDisappear(animated: \(flags.animated))"
                case .viewDidDisappear(_, let flags): "viewDidDisappear(animated: \(flags.animated))"
                case .willMoveToParent(_, let parent): "willMove(toParent: \(parent?.rawValue ?? "nil"))"
                case .didMoveToParent(_, let parent): "didMove(toParent: \(parent?.rawValue ?? "nil"))"
                case .viewWillLayoutSubviews: "viewWillLayoutSubviews()"
                case .viewDidLayoutSubviews: "viewDidLayoutSubviews()"
                case .didReceiveMemoryWarning: "didReceiveMemoryWarning()"
                case .viewWillTransitionToSize(_, let size): "viewWillTransition(to: \(size))"
                default: nil
                }
            let called = point.flatMap { point in points.contains { point.hasPrefix($0) } ? point : nil }
            return (called.map { [$0] } ?? []) + ["handle(\(callback.name))"]
        }
    }

    @Test func aBehaviorsOverridePointsGetTheirCallbacksThenHandle() async throws {
        let log = Log()
        var kinds = BehaviorRegistry()
        kinds.register("recorder") { Recorder(log: log) }
        let callbacks = try await withSimulatedTopology(Self.topology, kinds: kinds) { runtime in
            try await Self.drive(runtime, child: "r", kind: "recorder")
        }
        let every: Set = [
            "viewDidLoad", "viewWillAppear", "viewDidAppear", "viewWillDisappear", "viewDidDisappear", "willMove",
            "didMove", "viewWillLayoutSubviews", "viewDidLayoutSubviews", "didReceiveMemoryWarning",
            "viewWillTransition",
        ]
        #expect(log.all == Self.expected(callbacks, overriding: every))
        // Each point was reached, with UIKit's arguments.
        for line in [
            "viewDidLoad()", "willMove(toParent: box)", "viewWillAppear(animated: false)",
            "viewDidAppear(animated: false)", "didMove(toParent: box)", "viewWillTransition(to: 1024x768)",
            "viewWillLayoutSubviews()", "viewDidLayoutSubviews()", "didReceiveMemoryWarning()",
            "willMove(toParent: nil)", "viewWillDisappear(animated: false)", "viewDidDisappear(animated: false)",
            "didMove(toParent: nil)",
        ] {
            #expect(log.all.contains(line), "\(line) never called: \(log.all)")
        }
    }

    @Test func aDistributedControllersOverridePointsGetTheirCallbacksThenHandle() async throws {
        let log = Log()
        var kinds = BehaviorRegistry()
        kinds.register("watcher", distributed: { Watcher(controller: $0, log: log) })
        let callbacks = try await withSimulatedTopology(Self.topology, kinds: kinds) { runtime in
            try await Self.drive(runtime, child: "w", kind: "watcher")
        }
        #expect(log.all == Self.expected(callbacks, overriding: ["viewDidAppear", "didMove"]))
        #expect(log.all.contains("didMove(toParent: box)") && log.all.contains("viewDidAppear(animated: false)"))
    }

    /// A distributed controller registered as answering `loadView` builds its view: its label is in its root view
    /// when `viewDidLoad` comes. Not registered, it is not asked.
    @Test(arguments: [true, false]) func aDistributedControllerAnswersTheQuestionsItIsRegisteredFor(
        answering: Bool
    ) async throws {
        let log = Log()
        var kinds = BehaviorRegistry()
        kinds.register("watcher", answering: answering ? [.loadView] : []) { Watcher(controller: $0, log: log) }
        try await withSimulatedTopology(Self.topology, kinds: kinds) { runtime in
            try await runtime.perform([.create("w", kind: "watcher")], hosts: ["w": "h0"])
            let events = try await runtime.perform([.loadView("w")])
            let label = ViewID(owner: "w", name: "label")
            #expect(try await runtime.snapshot().views[label]?.superview == (answering ? .root("w") : nil))
            let names = events.map(\.name)
            if answering {
                let inserted = try #require(names.firstIndex(of: "viewInserted"))
                #expect(inserted < (names.firstIndex(of: "viewDidLoad") ?? -1), "\(names)")
            }
        }
        #expect(log.all.contains("answer(loadView)") == answering)
    }
}
