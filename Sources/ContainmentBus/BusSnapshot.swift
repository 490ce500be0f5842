import ContainmentModel

/// The supervisor's whole state at one seq, as a snapshot request answers it: the tree (as a ``TreeView``, a
/// ``WindowDrawing`` or in model types) and the runtime around it (hosts, waiting commands, subscribers, refusals).
public struct BusSnapshot: Sendable {
    let wire: WireSnapshot

    package init(_ wire: WireSnapshot) { self.wire = wire }

    /// One host as the supervisor sees it.
    public struct Host: Sendable, Equatable {
        public let name: String
        public let pid: Int32
        public let up: Bool
        /// Given up on by its restart policy: why (empty: not failed).
        public let failed: String
        /// How many of its processes registered (1 for the first; 0: none yet).
        public let incarnation: UInt32
        public let controllers: UInt32
        /// Callbacks waiting for it (it is down, or slow to read).
        public let pending: UInt32
        /// Not up, but its process ran before this supervisor took over (a failover, a restart): expected to register
        /// within a heartbeat timeout, and controllers are placed on it meanwhile.
        public let registering: Bool

        package init(
            name: String,
            pid: Int32,
            up: Bool,
            failed: String,
            incarnation: UInt32,
            controllers: UInt32,
            pending: UInt32,
            registering: Bool = false
        ) {
            self.name = name
            self.pid = pid
            self.up = up
            self.failed = failed
            self.incarnation = incarnation
            self.controllers = controllers
            self.pending = pending
            self.registering = registering
        }
    }

    /// A refusal the supervisor made recently.
    public struct Refusal: Sendable, Equatable {
        /// The seq of its ruleViolation (0: refused before the rules).
        public let seq: UInt64
        public let timeUnixNanos: Int64
        public let code: String
        public let message: String

        package init(seq: UInt64, timeUnixNanos: Int64, code: String, message: String) {
            self.seq = seq
            self.timeUnixNanos = timeUnixNanos
            self.code = code
            self.message = message
        }
    }

    /// The supervisor's state as a snapshot: the tree after event `seq` (`hostOf` each controller's host) and the
    /// runtime around it.
    package init(
        state: ContainmentState,
        seq: UInt64,
        epoch: UInt64,
        startedUnixNanos: Int64,
        waiting: Int,
        subscribers: Int,
        hosts: [Host],
        refusals: [Refusal],
        hostOf: (ControllerID) -> String
    ) {
        var wire = WireSnapshot(
            state: state,
            seq: seq,
            hosts: hosts.map { host in
                .with {
                    $0.name = host.name
                    $0.pid = host.pid
                    $0.up = host.up
                    $0.failed = host.failed
                    $0.incarnation = host.incarnation
                    $0.controllers = host.controllers
                    $0.pending = host.pending
                    $0.registering = host.registering
                }
            },
            hostOf: hostOf
        )
        wire.epoch = epoch
        wire.startedUnixNanos = startedUnixNanos
        wire.waiting = UInt32(clamping: waiting)
        wire.subscribers = UInt32(clamping: subscribers)
        wire.refusals = refusals.map { refusal in
            .with {
                $0.seq = refusal.seq
                $0.timeUnixNanos = refusal.timeUnixNanos
                $0.code = refusal.code
                $0.message = refusal.message
            }
        }
        self.init(wire)
    }

    public var seq: UInt64 { wire.seq }
    public var epoch: UInt64 { wire.epoch }
    /// When this supervisor process began serving.
    public var startedUnixNanos: Int64 { wire.startedUnixNanos }
    /// Commands waiting for controllers' code to answer (SPEC §15).
    public var waiting: UInt32 { wire.waiting }
    /// Connections to the event socket now.
    public var subscribers: UInt32 { wire.subscribers }
    /// The controllers, in creation order.
    public var controllerIDs: [ControllerID] { wire.controllers.map { ControllerID($0.id) } }
    public var hosts: [Host] {
        wire.hosts.map {
            Host(
                name: $0.name,
                pid: $0.pid,
                up: $0.up,
                failed: $0.failed,
                incarnation: $0.incarnation,
                controllers: $0.controllers,
                pending: $0.pending,
                registering: $0.registering
            )
        }
    }
    /// The latest refusals, oldest first (at most 10).
    public var refusals: [Refusal] {
        wire.refusals.map { Refusal(seq: $0.seq, timeUnixNanos: $0.timeUnixNanos, code: $0.code, message: $0.message) }
    }

    /// The tree, for rendering (`tree`, `watch --from-start`) and reading (ctl's verbs).
    public var tree: TreeView { TreeView(snapshot: wire) }
    /// The window and its views, as an SVG drawing.
    public var drawing: WindowDrawing { WindowDrawing(snapshot: wire) }
    /// The tree in model types (`malformed` when the snapshot does not decode).
    public func model() throws(ContainmentError) -> TreeSnapshot { try wire.model() }
}

extension BusSnapshot {
    /// Timed switches still running.
    public var transitionCount: Int { wire.transitions.count }

    /// How the tree this snapshot shows differs from `state` (with `hostOf` its controllers' hosts), as encoded: the
    /// controllers that differ (at most 5), their count, the views, the windows, the running transitions. Empty when
    /// they are the same tree.
    package func differences(from state: ContainmentState, hostOf: (ControllerID) -> String) -> [String] {
        let mine = WireSnapshot(state: state, seq: wire.seq, hosts: wire.hosts, hostOf: hostOf)
        var differences: [String] = []
        if mine.controllers != wire.controllers {
            let theirs = Dictionary(wire.controllers.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
            for controller in mine.controllers where theirs[controller.id] != controller {
                differences.append("controller \(controller.id) differs")
                if differences.count >= 5 { break }
            }
            if mine.controllers.count != wire.controllers.count {
                differences.append(
                    "\(mine.controllers.count) controllers replayed, \(wire.controllers.count) in the tree"
                )
            }
        }
        if mine.views != wire.views {
            differences.append("the views differ (\(mine.views.count) vs \(wire.views.count))")
        }
        if mine.windows != wire.windows { differences.append("the windows differ") }
        if mine.transitions != wire.transitions { differences.append("the running transitions differ") }
        return differences
    }
}

/// A snapshot handed to everyone who asks while nothing in it changes: built and encoded once, each reply only the
/// request id around the same bytes (``PreEncoded/snapshot(requestID:encoded:)``). Immutable, so shared freely.
package final class SharedSnapshot: Sendable {
    package let encoded: [UInt8]

    package init(_ snapshot: BusSnapshot) { encoded = snapshot.wire.bytes }
}
