/// What an accepted command did, in the order the rules fire (SPEC §10).
///
/// ``name`` is the stable name `watch --json` prints; ``controller`` is the controller the event is about
/// (for a view event, the view's owner).
public enum Event: Hashable, Sendable {
    // Callbacks
    case loadView(ControllerID)
    case viewDidLoad(ControllerID)
    case viewDidUnload(ControllerID)
    case willMoveToParent(ControllerID, parent: ControllerID?)
    case didMoveToParent(ControllerID, parent: ControllerID?)
    case viewWillAppear(ControllerID, AppearanceFlags)
    case viewDidAppear(ControllerID, AppearanceFlags)
    case viewWillDisappear(ControllerID, AppearanceFlags)
    case viewDidDisappear(ControllerID, AppearanceFlags)
    case viewWillLayoutSubviews(ControllerID)
    case viewDidLayoutSubviews(ControllerID)
    case didReceiveMemoryWarning(ControllerID)
    case viewWillTransitionToSize(ControllerID, size: Size)
    // Structure
    case controllerCreated(ControllerID, kind: Kind)
    case controllerDestroyed(ControllerID)
    case childAdded(ControllerID, parent: ControllerID)
    case childRemoved(ControllerID, parent: ControllerID)
    /// `view` is at `index` among `superview`'s subviews (0: the back) once inserted.
    case viewInserted(view: ViewID, superview: ViewID, index: Int)
    case viewRemoved(view: ViewID, superview: ViewID)
    case frameChanged(view: ViewID, frame: Rect, by: Party)
    case alphaChanged(view: ViewID, alpha: Double, by: Party)
    case hiddenChanged(view: ViewID, hidden: Bool, by: Party)
    /// The owner's constraint `id` was added (SPEC §16); `expression` in SPEC §16's spelling.
    case constraintAdded(ControllerID, id: String, expression: String)
    case constraintRemoved(ControllerID, id: String)
    case windowAttached(ControllerID, window: WindowID, size: Size)
    case windowResized(ControllerID, window: WindowID, size: Size)
    // Presentation
    case presented(ControllerID, presentation: Presentation)
    case dismissed(ControllerID, presentation: Presentation)
    // Containers
    case transitionBegan(ControllerID, from: ControllerID, to: ControllerID)
    case transitionCompleted(ControllerID, from: ControllerID, to: ControllerID)
    /// A navigation container is about to show `shown`; `requestedBy` asked for it (SPEC §15: the container, a
    /// controller of its subtree or the system).
    case navigationWillShow(ControllerID, shown: ControllerID, requestedBy: Party)
    case navigationDidShow(ControllerID, shown: ControllerID, requestedBy: Party)
    /// A tab or menu container's selection; `nil` for none.
    case selectionChanged(ControllerID, selected: ControllerID?, index: Int?, requestedBy: Party)
    case menuVisibilityChanged(ControllerID, visible: Bool)
    case pagesChanged(ControllerID, pages: [ControllerID], direction: PageDirection, requestedBy: Party)
    // Properties and editing (SPEC §13)
    /// The properties named in `changed` took new values: `properties` holds them all now.
    case propertiesChanged(ControllerID, changed: [String], properties: ControllerProperties)
    /// The callback of `setEditing`.
    case setEditing(ControllerID, editing: Bool, animated: Bool)
    case editingChanged(ControllerID, editing: Bool)
    /// A window turned (SPEC §13); the controller is its root.
    case orientationChanged(ControllerID, window: WindowID, orientation: Orientation)
    // Input and the responder chain (SPEC §12)
    /// Where an input went: the hit view (none: nothing was hit), the controllers walked, the one that took it (none:
    /// no one handles it). `controller` is that one.
    case inputDelivered(
        ControllerID?,
        window: WindowID,
        point: Point,
        kind: String,
        view: ViewID?,
        chain: [ControllerID]
    )
    /// The callback of an input: its kind, the point in the controller's root view's coordinates, the hit view.
    case inputReceived(ControllerID, kind: String, point: Point, view: ViewID)
    /// Where an action went: who sent it, the controllers walked, the one that took it (none: no one handles it).
    case actionDelivered(ControllerID?, from: ControllerID, name: String, chain: [ControllerID])
    /// The callback of an action.
    case actionReceived(ControllerID, name: String, from: ControllerID, payload: [UInt8])
    // Custom container verbs
    /// The callback of `invoke`: the verb, its arguments, who called it.
    case verbInvoked(ControllerID, verb: String, arguments: [String], by: Party)
    // Container delegates (SPEC §15)
    /// The callback of a navigation or tab container's delegate, right after the container's `callback` event
    /// (`navigationWillShow`, `navigationDidShow` or `selectionChanged`): the container, the child shown or selected
    /// (`nil`: none), whether the switch is animated.
    case delegateCallback(
        ControllerID,
        container: ControllerID,
        callback: EventKind,
        child: ControllerID?,
        animated: Bool
    )
    // Messages (SPEC §11)
    /// A message went from the controller to `to`: its name and payload size.
    case messageSent(ControllerID, to: ControllerID, name: String, bytes: Int)
    /// The callback of a message: the controller received it from `from`.
    case messageReceived(ControllerID, from: ControllerID, name: String, payload: [UInt8])
    // Runtime: rejections, and the hosts the supervisor watches (the model never emits the host events)
    case ruleViolation(ControllerID?, command: String, by: Party, code: ContainmentError.Code, message: String)
    /// The controller's code did not answer `question` within `answerTimeoutMs` (SPEC §15): taken as nothing.
    case answerTimedOut(ControllerID, question: Question.Name)
    case hostUp(host: String, pid: Int)
    /// `reason`: why (an exit status or signal, missed heartbeats, a goodbye, a connection gone).
    case hostDown(host: String, reason: String)
    case hostRestarted(host: String, pid: Int)
    /// Given up on by its restart policy (restarted too often): its controllers take no commands until it is back.
    case hostFailed(host: String, reason: String)

    /// Which case it is.
    public var eventKind: EventKind {
        switch self {
        case .loadView: .loadView
        case .viewDidLoad: .viewDidLoad
        case .viewDidUnload: .viewDidUnload
        case .willMoveToParent: .willMoveToParent
        case .didMoveToParent: .didMoveToParent
        case .viewWillAppear: .viewWillAppear
        case .viewDidAppear: .viewDidAppear
        case .viewWillDisappear: .viewWillDisappear
        case .viewDidDisappear: .viewDidDisappear
        case .viewWillLayoutSubviews: .viewWillLayoutSubviews
        case .viewDidLayoutSubviews: .viewDidLayoutSubviews
        case .didReceiveMemoryWarning: .didReceiveMemoryWarning
        case .viewWillTransitionToSize: .viewWillTransitionToSize
        case .controllerCreated: .controllerCreated
        case .controllerDestroyed: .controllerDestroyed
        case .childAdded: .childAdded
        case .childRemoved: .childRemoved
        case .viewInserted: .viewInserted
        case .viewRemoved: .viewRemoved
        case .frameChanged: .frameChanged
        case .constraintAdded: .constraintAdded
        case .constraintRemoved: .constraintRemoved
        case .alphaChanged: .alphaChanged
        case .hiddenChanged: .hiddenChanged
        case .windowAttached: .windowAttached
        case .windowResized: .windowResized
        case .presented: .presented
        case .dismissed: .dismissed
        case .transitionBegan: .transitionBegan
        case .transitionCompleted: .transitionCompleted
        case .navigationWillShow: .navigationWillShow
        case .navigationDidShow: .navigationDidShow
        case .selectionChanged: .selectionChanged
        case .menuVisibilityChanged: .menuVisibilityChanged
        case .pagesChanged: .pagesChanged
        case .messageSent: .messageSent
        case .propertiesChanged: .propertiesChanged
        case .setEditing: .setEditing
        case .editingChanged: .editingChanged
        case .orientationChanged: .orientationChanged
        case .inputDelivered: .inputDelivered
        case .inputReceived: .inputReceived
        case .actionDelivered: .actionDelivered
        case .actionReceived: .actionReceived
        case .verbInvoked: .verbInvoked
        case .delegateCallback: .delegateCallback
        case .messageReceived: .messageReceived
        case .ruleViolation: .ruleViolation
        case .answerTimedOut: .answerTimedOut
        case .hostUp: .hostUp
        case .hostDown: .hostDown
        case .hostRestarted: .hostRestarted
        case .hostFailed: .hostFailed
        }
    }

    /// The stable event name of SPEC §10.
    public var name: String { eventKind.name }

    /// The controller the event is about; for a view event, the view's owner. `nil` for a violation by the system,
    /// and for an input or action no controller took.
    public var controller: ControllerID? {
        switch self {
        case .loadView(let c), .viewDidLoad(let c), .viewDidUnload(let c), .willMoveToParent(let c, _),
            .didMoveToParent(let c, _), .viewWillAppear(let c, _), .viewDidAppear(let c, _),
            .viewWillDisappear(let c, _), .viewDidDisappear(let c, _), .viewWillLayoutSubviews(let c),
            .viewDidLayoutSubviews(let c), .didReceiveMemoryWarning(let c), .viewWillTransitionToSize(let c, _),
            .controllerCreated(let c, _), .controllerDestroyed(let c), .childAdded(let c, _),
            .childRemoved(let c, _), .windowAttached(let c, _, _), .windowResized(let c, _, _),
            .transitionBegan(let c, _, _), .transitionCompleted(let c, _, _), .presented(let c, _),
            .dismissed(let c, _), .navigationWillShow(let c, _, _), .navigationDidShow(let c, _, _),
            .selectionChanged(let c, _, _, _), .menuVisibilityChanged(let c, _), .pagesChanged(let c, _, _, _),
            .messageSent(let c, _, _, _), .messageReceived(let c, _, _, _), .propertiesChanged(let c, _, _),
            .setEditing(let c, _, _), .editingChanged(let c, _), .orientationChanged(let c, _, _),
            .inputReceived(let c, _, _, _), .actionReceived(let c, _, _, _), .verbInvoked(let c, _, _, _),
            .delegateCallback(let c, _, _, _, _), .constraintAdded(let c, _, _), .constraintRemoved(let c, _):
            c
        case .inputDelivered(let c, _, _, _, _, _), .actionDelivered(let c, _, _, _):
            c
        case .viewInserted(let view, _, _), .viewRemoved(let view, _), .frameChanged(let view, _, _),
            .alphaChanged(let view, _, _), .hiddenChanged(let view, _, _):
            view.owner
        case .ruleViolation(let c, _, _, _, _):
            c
        case .answerTimedOut(let c, _):
            c
        case .hostUp, .hostDown, .hostRestarted, .hostFailed:
            nil
        }
    }

    /// True for the callbacks a controller's own code receives (its host delivers them), false for structure events.
    public var isCallback: Bool { eventKind.isCallback }
}

extension Event: CustomStringConvertible {
    /// ` requestedBy=P` when someone other than the container itself asked (SPEC §15); nothing otherwise.
    private static func requested(by requester: Party, of container: ControllerID) -> String {
        requester == .controller(container) ? "" : " requestedBy=\(requester)"
    }

    /// One line: the name, the controller, then the event's fields, e.g. `viewWillAppear(child) movingToParent`.
    public var description: String {
        let subject = controller?.rawValue ?? "-"
        let head = "\(name)(\(subject))"
        switch self {
        case .willMoveToParent(_, let parent), .didMoveToParent(_, let parent):
            return "\(head) parent=\(parent?.rawValue ?? "nil")"
        case .viewWillAppear(_, let flags), .viewDidAppear(_, let flags), .viewWillDisappear(_, let flags),
            .viewDidDisappear(_, let flags):
            return flags == .none ? head : "\(head) \(flags)"
        case .viewWillTransitionToSize(_, let size):
            return "\(head) size=\(size)"
        case .controllerCreated(_, let kind):
            return "\(head) kind=\(kind)"
        case .childAdded(_, let parent), .childRemoved(_, let parent):
            return "\(head) parent=\(parent)"
        case .viewInserted(let view, let superview, let index):
            return "\(head) view=\(view) superview=\(superview) index=\(index)"
        case .viewRemoved(let view, let superview):
            return "\(head) view=\(view) superview=\(superview)"
        case .frameChanged(let view, let frame, let by):
            return "\(head) view=\(view) frame=\(frame) by=\(by)"
        case .alphaChanged(let view, let alpha, let by):
            return "\(head) view=\(view) alpha=\(alpha.compact) by=\(by)"
        case .hiddenChanged(let view, let hidden, let by):
            return "\(head) view=\(view) hidden=\(hidden) by=\(by)"
        case .constraintAdded(_, let id, let expression):
            return "\(head) id=\(id) expression=\(expression)"
        case .constraintRemoved(_, let id):
            return "\(head) id=\(id)"
        case .windowAttached(_, let window, let size), .windowResized(_, let window, let size):
            return "\(head) window=\(window) size=\(size)"
        case .transitionBegan(_, let from, let to), .transitionCompleted(_, let from, let to):
            return "\(head) from=\(from) to=\(to)"
        case .navigationWillShow(let c, let shown, let requester), .navigationDidShow(let c, let shown, let requester):
            return "\(head) shown=\(shown)" + Self.requested(by: requester, of: c)
        case .selectionChanged(let c, let selected, let index, let requester):
            return "\(head) selected=\(selected?.rawValue ?? "nil") index=\(index.map(String.init) ?? "nil")"
                + Self.requested(by: requester, of: c)
        case .menuVisibilityChanged(_, let visible):
            return "\(head) visible=\(visible)"
        case .pagesChanged(let c, let pages, let direction, let requester):
            return "\(head) pages=\(pages.map(\.rawValue).joined(separator: ",")) direction=\(direction.rawValue)"
                + Self.requested(by: requester, of: c)
        case .presented(_, let p), .dismissed(_, let p):
            return "\(head) presenter=\(p.presenter) context=\(p.context) style=\(p.style.rawValue)"
                + " transitionStyle=\(p.transitionStyle.rawValue)"
        case .propertiesChanged(_, let changed, _):
            return "\(head) changed=\(changed.joined(separator: ","))"
        case .setEditing(_, let editing, let animated):
            return "\(head) editing=\(editing)" + (animated ? " animated" : "")
        case .editingChanged(_, let editing):
            return "\(head) editing=\(editing)"
        case .inputDelivered(_, let window, let point, let kind, let view, let chain):
            return "\(head) window=\(window) point=\(point) kind=\(kind) view=\(view?.description ?? "nil")"
                + " chain=\(chain.map(\.rawValue).joined(separator: ","))"
        case .inputReceived(_, let kind, let point, let view):
            return "\(head) kind=\(kind) point=\(point) view=\(view)"
        case .actionDelivered(_, let from, let name, let chain):
            return "\(head) from=\(from) name=\(name) chain=\(chain.map(\.rawValue).joined(separator: ","))"
        case .actionReceived(_, let name, let from, let payload):
            return "\(head) name=\(name) from=\(from) payload=\(Self.text(of: payload))"
        case .verbInvoked(_, let verb, let arguments, let by):
            return "\(head) verb=\(verb) arguments=\(arguments.joined(separator: ",")) by=\(by)"
        case .delegateCallback(_, let container, let callback, let child, let animated):
            return "\(head) container=\(container) callback=\(callback.name) child=\(child?.rawValue ?? "nil")"
                + (animated ? " animated" : "")
        case .orientationChanged(_, let window, let orientation):
            return "\(head) window=\(window) orientation=\(orientation.rawValue)"
        case .messageSent(_, let to, let name, let bytes):
            return "\(head) to=\(to) name=\(name) bytes=\(bytes)"
        case .messageReceived(_, let from, let name, let payload):
            return "\(head) from=\(from) name=\(name) payload=\(Self.text(of: payload))"
        case .ruleViolation(_, let command, let by, let code, let message):
            return "\(head) command=\(command) by=\(by) code=\(code) message=\(message)"
        case .answerTimedOut(_, let question):
            return "\(head) question=\(question.rawValue)"
        case .hostUp(let host, let pid), .hostRestarted(let host, let pid):
            return "\(head) host=\(host) pid=\(pid)"
        case .hostDown(let host, let reason), .hostFailed(let host, let reason):
            return "\(head) host=\(host)" + (reason.isEmpty ? "" : " reason=\(reason)")
        default:
            return head
        }
    }
}

extension Event {
    /// A payload as a line shows it: its text when it is UTF-8 without control characters, else its size.
    static func text(of payload: [UInt8]) -> String {
        guard let text = String(validating: payload, as: UTF8.self),
            !text.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
        else { return "<\(payload.count) bytes>" }
        return text
    }
}

/// Every kind of event, in a fixed order: the one list the name, topic and JSON tables derive from.
public enum EventKind: Int, CaseIterable, Hashable, Sendable {
    case loadView, viewDidLoad, viewDidUnload, willMoveToParent, didMoveToParent, viewWillAppear, viewDidAppear,
        viewWillDisappear, viewDidDisappear, viewWillLayoutSubviews, viewDidLayoutSubviews,
        didReceiveMemoryWarning, viewWillTransitionToSize, controllerCreated, controllerDestroyed, childAdded,
        childRemoved, viewInserted, viewRemoved, frameChanged, alphaChanged, hiddenChanged, constraintAdded,
        constraintRemoved, windowAttached,
        windowResized, presented, dismissed, transitionBegan, transitionCompleted, navigationWillShow,
        navigationDidShow, selectionChanged, menuVisibilityChanged, pagesChanged, messageSent, propertiesChanged,
        setEditing, editingChanged, orientationChanged, inputDelivered, inputReceived, actionDelivered,
        actionReceived, verbInvoked, delegateCallback, messageReceived, ruleViolation, answerTimedOut, hostUp, hostDown,
        hostRestarted,
        hostFailed

    /// SPEC §10's name of each kind, in the order of the cases (a case's name is its identifier).
    public static let names: [String] = allCases.map { String(describing: $0) }
    private static let byName = Dictionary(uniqueKeysWithValues: allCases.map { (String(describing: $0), $0) })

    /// Its name. (`rawValue` is the case's position, and `names` has one entry per case: always in range.)
    public var name: String { Self.names[rawValue] }

    /// The kind named `name`, if there is one.
    public init?(name: String) {
        guard let kind = Self.byName[name] else { return nil }
        self = kind
    }
}

extension EventKind {
    /// True for the callbacks a controller's own code receives (its host delivers them), false for structure events.
    /// Every kind is named (no `default`): a new kind does not compile until it is placed.
    public var isCallback: Bool {
        switch self {
        case .loadView, .viewDidLoad, .viewDidUnload, .willMoveToParent, .didMoveToParent, .viewWillAppear,
            .viewDidAppear, .viewWillDisappear, .viewDidDisappear, .viewWillLayoutSubviews, .viewDidLayoutSubviews,
            .didReceiveMemoryWarning, .viewWillTransitionToSize, .messageReceived, .setEditing, .inputReceived,
            .actionReceived, .verbInvoked, .delegateCallback:
            true
        case .controllerCreated, .controllerDestroyed, .childAdded, .childRemoved, .viewInserted, .viewRemoved,
            .frameChanged, .alphaChanged, .hiddenChanged, .constraintAdded, .constraintRemoved, .windowAttached,
            .windowResized, .presented, .dismissed,
            .transitionBegan, .transitionCompleted, .navigationWillShow, .navigationDidShow, .selectionChanged,
            .menuVisibilityChanged, .pagesChanged, .messageSent, .propertiesChanged, .editingChanged,
            .orientationChanged, .inputDelivered, .actionDelivered, .ruleViolation, .answerTimedOut, .hostUp,
            .hostDown, .hostRestarted, .hostFailed:
            false
        }
    }
}
