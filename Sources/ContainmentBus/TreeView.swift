import ContainmentModel

/// The tree as a client sees it: built from a snapshot, kept current by folding events in sequence order.
///
/// `tree` prints one; `watch --from-start` builds one from the same snapshot and the events after it, so both agree.
/// It records effects the events state (a child added, a frame set), it never judges them: the rules live in the
/// model, inside the supervisor.
public struct TreeView: Hashable, Sendable {
    public struct Node: Hashable, Sendable {
        public var id: String
        public var kind: String
        public var host: String
        public var parent: String?
        public var children: [String] = []
        public var appearance = "disappeared"
        /// Its root view's frame; `nil` while the view is not loaded.
        public var frame: Rect?
        public var presenting: String?
        public var presented: String?
        /// A tab's or menu's selected child.
        public var selected: String?
        public var menuVisible = false
        /// Its properties (SPEC §13): titles, items, delegate, editing, …
        public var properties = ControllerProperties()
        /// The constraints it owns (SPEC §16), in the order added: ids and expressions.
        public var constraints: [Constraint] = []
    }

    public struct Constraint: Hashable, Sendable {
        public var id: String
        public var expression: String
    }

    public struct WindowInfo: Hashable, Sendable {
        public var root: String
        public var size: Size
        public var orientation: Orientation
    }

    public struct HostInfo: Hashable, Sendable {
        public var pid: Int
        public var up: Bool
    }

    /// The last event folded in.
    public private(set) var seq: UInt64
    public private(set) var nodes: [String: Node] = [:]
    /// Controller ids in creation order.
    public private(set) var order: [String] = []
    public private(set) var windows: [String: WindowInfo] = [:]
    public private(set) var hosts: [String: HostInfo] = [:]

    public init(snapshot: WireSnapshot) {
        seq = snapshot.seq
        for controller in snapshot.controllers {
            nodes[controller.id] = Node(
                id: controller.id,
                kind: controller.kind,
                host: controller.host,
                parent: controller.hasParent ? controller.parent : nil,
                children: controller.children,
                appearance: controller.appearance,
                frame: controller.hasFrame ? controller.frame.model : nil,
                presenting: controller.hasPresenting ? controller.presenting : nil,
                presented: controller.hasPresented ? controller.presented : nil,
                selected: controller.hasSelected ? controller.selected : nil,
                menuVisible: controller.menuVisible,
                properties: (try? controller.properties.model()) ?? ControllerProperties(),
                constraints: controller.constraints.map { Constraint(id: $0.id, expression: $0.expression) }
            )
            order.append(controller.id)
        }
        for window in snapshot.windows {
            let orientation = (try? window.model().orientation) ?? Orientation.initial(for: window.size.model)
            windows[window.id] = WindowInfo(root: window.root, size: window.size.model, orientation: orientation)
        }
        for host in snapshot.hosts { hosts[host.name] = HostInfo(pid: Int(host.pid), up: host.up) }
    }

    /// What folding an event found.
    public enum Fold: Equatable, Sendable {
        /// The event was the next one and is now part of the tree.
        case applied
        /// Already part of the tree (its seq is not above ``seq``): ignored.
        case duplicate
        /// Events between ``seq`` and this one are missing; the event is applied anyway.
        case gap(missing: ClosedRange<UInt64>)
    }

    /// Folds one event in.
    @discardableResult
    public mutating func apply(_ event: WireEvent) -> Fold {
        guard event.seq > seq else { return .duplicate }
        let result: Fold = event.seq == seq + 1 ? .applied : .gap(missing: (seq + 1)...(event.seq - 1))
        seq = event.seq
        let id = event.controller
        switch EventKind(name: event.name) {
        case .controllerCreated?:
            if nodes[id] == nil { order.append(id) }
            nodes[id] = Node(id: id, kind: event.kind, host: event.host)
        case .controllerDestroyed?:
            nodes[id] = nil
            order.removeAll { $0 == id }
        case .childAdded?:
            nodes[id]?.parent = event.parent
            nodes[event.parent]?.children.append(id)
        case .childRemoved?:
            nodes[id]?.parent = nil
            nodes[event.parent]?.children.removeAll { $0 == id }
        case .loadView?:
            nodes[id]?.frame = .zero
        case .viewDidUnload?:
            nodes[id]?.frame = nil
        case .frameChanged? where event.view == id:
            nodes[id]?.frame = event.frame.model
        case .viewWillAppear?: nodes[id]?.appearance = AppearanceState.appearing.rawValue
        case .viewDidAppear?: nodes[id]?.appearance = AppearanceState.appeared.rawValue
        case .viewWillDisappear?: nodes[id]?.appearance = AppearanceState.disappearing.rawValue
        case .viewDidDisappear?: nodes[id]?.appearance = AppearanceState.disappeared.rawValue
        case .windowAttached?:
            // Attached again (a new root, or the same resized), a window keeps its orientation.
            let orientation = windows[event.window]?.orientation ?? Orientation.initial(for: event.size.model)
            windows[event.window] = WindowInfo(root: id, size: event.size.model, orientation: orientation)
        case .orientationChanged?:
            if let orientation = Orientation(rawValue: event.orientation) {
                windows[event.window]?.orientation = orientation
            }
        case .windowResized?:
            windows[event.window]?.size = event.size.model
        case .selectionChanged?:
            nodes[id]?.selected = event.child.isEmpty ? nil : event.child
        case .menuVisibilityChanged?:
            nodes[id]?.menuVisible = event.visible
        case .propertiesChanged?:
            if let properties = try? event.properties.model() { nodes[id]?.properties = properties }
        case .editingChanged?:
            nodes[id]?.properties.editing = event.editing
        case .constraintAdded?:
            nodes[id]?.constraints.append(Constraint(id: event.constraintID, expression: event.expression))
        case .constraintRemoved?:
            nodes[id]?.constraints.removeAll { $0.id == event.constraintID }
        case .presented?:
            nodes[id]?.presenting = event.context
            nodes[event.context]?.presented = id
        case .dismissed?:
            nodes[id]?.presenting = nil
            nodes[event.context]?.presented = nil
        case .hostUp?, .hostRestarted?:
            hosts[event.host] = HostInfo(pid: Int(event.pid), up: true)
        case .hostDown?, .hostFailed?:
            hosts[event.host]?.up = false
        default:
            break  // the events that change nothing a tree shows (PROTOCOL.md lists them), and unknown names
        }
        return result
    }
}

extension TreeView {
    /// The tree of a model state after event `seq`, each controller on the host `hostOf` names (no hosts' status).
    public init(state: ContainmentState, seq: UInt64 = 0, hostOf: (ControllerID) -> String = { _ in "" }) {
        self.init(snapshot: WireSnapshot(state: state, seq: seq, hosts: [], hostOf: hostOf))
    }
}
