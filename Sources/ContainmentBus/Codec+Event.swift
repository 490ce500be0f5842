import Foundation
import ContainmentModel

extension Containment_V1_AppearanceFlags {
    public init(_ flags: AppearanceFlags) {
        self.init()
        animated = flags.animated
        movingToParent = flags.movingToParent
        movingFromParent = flags.movingFromParent
        beingPresented = flags.beingPresented
        beingDismissed = flags.beingDismissed
    }

    public var model: AppearanceFlags {
        AppearanceFlags(
            animated: animated,
            movingToParent: movingToParent,
            movingFromParent: movingFromParent,
            beingPresented: beingPresented,
            beingDismissed: beingDismissed
        )
    }
}

extension WireEvent {
    /// The wire form of `event`, stamped with its sequence number, time and command; `host` names the host of a
    /// created controller.
    public init(
        _ event: Event,
        seq: UInt64,
        timeUnixNanos: Int64,
        commandID: UInt64,
        host: String = "",
        epoch: UInt64 = 0
    ) {
        self.init()
        self.epoch = epoch
        self.seq = seq
        self.timeUnixNanos = timeUnixNanos
        self.commandID = commandID
        name = event.name
        controller = event.controller?.rawValue ?? ""
        switch event {
        case .loadView, .viewDidLoad, .viewDidUnload, .viewWillLayoutSubviews, .viewDidLayoutSubviews,
            .didReceiveMemoryWarning, .controllerDestroyed:
            break
        case .willMoveToParent(_, let parent), .didMoveToParent(_, let parent):
            if let parent { self.parent = parent.rawValue }
        case .viewWillAppear(_, let flags), .viewDidAppear(_, let flags), .viewWillDisappear(_, let flags),
            .viewDidDisappear(_, let flags):
            self.flags = Containment_V1_AppearanceFlags(flags)
        case .viewWillTransitionToSize(_, let size):
            self.size = Containment_V1_Size(size)
        case .controllerCreated(_, let kind):
            self.kind = kind.rawValue
            self.host = host
        case .childAdded(_, let parent), .childRemoved(_, let parent):
            self.parent = parent.rawValue
        case .viewInserted(let view, let superview, let index):
            self.view = view.description
            self.superview = superview.description
            self.index = Int32(clamping: index)
        case .viewRemoved(let view, let superview):
            self.view = view.description
            self.superview = superview.description
        case .frameChanged(let view, let frame, let by):
            self.view = view.description
            self.frame = Containment_V1_Rect(frame)
            self.by = by.description
        case .alphaChanged(let view, let alpha, let by):
            self.view = view.description
            self.alpha = alpha
            self.by = by.description
        case .hiddenChanged(let view, let hidden, let by):
            self.view = view.description
            self.hidden = hidden
            self.by = by.description
        case .windowAttached(_, let window, let size), .windowResized(_, let window, let size):
            self.window = window.rawValue
            self.size = Containment_V1_Size(size)
        case .transitionBegan(_, let from, let to), .transitionCompleted(_, let from, let to):
            self.from = from.rawValue
            self.to = to.rawValue
        case .ruleViolation(_, let command, let by, let code, let message):
            self.command = command
            self.by = by.description
            self.code = code.rawValue
            self.message = message
        case .answerTimedOut(_, let question):
            self.question = question.rawValue
        case .hostUp(let host, let pid), .hostRestarted(let host, let pid):
            self.host = host
            self.pid = Int32(clamping: pid)
        case .hostDown(let host, let reason), .hostFailed(let host, let reason):
            self.host = host
            self.reason = reason
        case .navigationWillShow(_, let shown, let requester), .navigationDidShow(_, let shown, let requester):
            child = shown.rawValue
            requestedBy = requester.description
        case .selectionChanged(_, let selected, let index, let requester):
            child = selected?.rawValue ?? ""
            if let index { self.index = Int32(clamping: index) }
            requestedBy = requester.description
        case .menuVisibilityChanged(_, let visible):
            self.visible = visible
        case .pagesChanged(_, let pages, let direction, let requester):
            self.pages = pages.map(\.rawValue)
            self.direction = direction.rawValue
            requestedBy = requester.description
        case .presented(_, let presentation), .dismissed(_, let presentation):
            presenter = presentation.presenter.rawValue
            context = presentation.context.rawValue
            style = presentation.style.rawValue
            transitionStyle = presentation.transitionStyle.rawValue
            hidesContext = presentation.hidesContext
            if let anchor = presentation.anchor { self.anchor = anchor.description }
        case .propertiesChanged(_, let changed, let properties):
            self.changed = changed
            self.properties = Containment_V1_Properties(properties)
        case .setEditing(_, let editing, let animated):
            self.editing = editing
            self.animated = animated
        case .editingChanged(_, let editing):
            self.editing = editing
        case .constraintAdded(_, let id, let expression):
            constraintID = id
            self.expression = expression
        case .constraintRemoved(_, let id):
            constraintID = id
        case .orientationChanged(_, let window, let orientation):
            self.window = window.rawValue
            self.orientation = orientation.rawValue
        case .inputDelivered(_, let window, let point, let kind, let view, let chain):
            self.window = window.rawValue
            self.point = Containment_V1_Point(point)
            self.kind = kind
            if let view { self.view = view.description }
            self.chain = chain.map(\.rawValue)
        case .inputReceived(_, let kind, let point, let view):
            self.kind = kind
            self.point = Containment_V1_Point(point)
            self.view = view.description
        case .actionDelivered(_, let from, let name, let chain):
            self.from = from.rawValue
            messageName = name
            self.chain = chain.map(\.rawValue)
        case .actionReceived(_, let name, let from, let payload):
            self.from = from.rawValue
            messageName = name
            self.payload = Data(payload)
        case .verbInvoked(_, let verb, let arguments, let by):
            messageName = verb
            self.arguments = arguments
            self.by = by.description
        case .delegateCallback(_, let container, let callback, let child, let animated):
            from = container.rawValue
            messageName = callback.name
            self.child = child?.rawValue ?? ""
            self.animated = animated
        case .messageSent(_, let to, let name, let bytes):
            from = controller
            self.to = to.rawValue
            messageName = name
            payloadSize = UInt32(clamping: bytes)
        case .messageReceived(_, let from, let name, let payload):
            self.from = from.rawValue
            messageName = name
            self.payload = Data(payload)
        }
    }

    /// The model event it carries (the stamp and a created controller's host are not part of it).
    public func model() throws(ContainmentError) -> Event {
        let id = ControllerID(controller)
        func view(_ text: String) throws(ContainmentError) -> ViewID { try viewID(text, field: "view") }
        // Who asked for a container's switch (SPEC §15); absent (an older event): the container itself.
        func requester(of id: ControllerID) -> Party {
            requestedBy.isEmpty ? .controller(id) : Party(parsing: requestedBy)
        }
        guard let eventKind = EventKind(name: name) else { throw .malformed("Unknown event \"\(name)\".") }
        switch eventKind {
        case .loadView: return .loadView(id)
        case .viewDidLoad: return .viewDidLoad(id)
        case .viewDidUnload: return .viewDidUnload(id)
        case .willMoveToParent: return .willMoveToParent(id, parent: hasParent ? ControllerID(parent) : nil)
        case .didMoveToParent: return .didMoveToParent(id, parent: hasParent ? ControllerID(parent) : nil)
        case .viewWillAppear: return .viewWillAppear(id, flags.model)
        case .viewDidAppear: return .viewDidAppear(id, flags.model)
        case .viewWillDisappear: return .viewWillDisappear(id, flags.model)
        case .viewDidDisappear: return .viewDidDisappear(id, flags.model)
        case .viewWillLayoutSubviews: return .viewWillLayoutSubviews(id)
        case .viewDidLayoutSubviews: return .viewDidLayoutSubviews(id)
        case .didReceiveMemoryWarning: return .didReceiveMemoryWarning(id)
        case .viewWillTransitionToSize: return .viewWillTransitionToSize(id, size: size.model)
        case .controllerCreated: return .controllerCreated(id, kind: Kind(kind))
        case .controllerDestroyed: return .controllerDestroyed(id)
        case .childAdded: return .childAdded(id, parent: ControllerID(parent))
        case .childRemoved: return .childRemoved(id, parent: ControllerID(parent))
        case .viewInserted:
            guard hasIndex, index >= 0 else { throw .malformed("A viewInserted event has no index.") }
            return .viewInserted(view: try view(self.view), superview: try view(superview), index: Int(index))
        case .viewRemoved: return .viewRemoved(view: try view(self.view), superview: try view(superview))
        case .frameChanged: return .frameChanged(view: try view(self.view), frame: frame.model, by: Party(parsing: by))
        case .alphaChanged: return .alphaChanged(view: try view(self.view), alpha: alpha, by: Party(parsing: by))
        case .hiddenChanged: return .hiddenChanged(view: try view(self.view), hidden: hidden, by: Party(parsing: by))
        case .windowAttached: return .windowAttached(id, window: WindowID(window), size: size.model)
        case .windowResized: return .windowResized(id, window: WindowID(window), size: size.model)
        case .transitionBegan: return .transitionBegan(id, from: ControllerID(from), to: ControllerID(to))
        case .transitionCompleted: return .transitionCompleted(id, from: ControllerID(from), to: ControllerID(to))
        case .ruleViolation:
            return .ruleViolation(
                controller.isEmpty ? nil : id,
                command: command,
                by: Party(parsing: by),
                code: ContainmentError.Code(named: code) ?? ContainmentError.Code(code),
                message: message
            )
        case .answerTimedOut:
            guard let question = Question.Name(rawValue: question) else {
                throw .malformed("An answerTimedOut's question \"\(question)\" is not one the runtime asks.")
            }
            return .answerTimedOut(id, question: question)
        case .navigationWillShow:
            return .navigationWillShow(id, shown: ControllerID(child), requestedBy: requester(of: id))
        case .navigationDidShow:
            return .navigationDidShow(id, shown: ControllerID(child), requestedBy: requester(of: id))
        case .selectionChanged:
            return .selectionChanged(
                id,
                selected: child.isEmpty ? nil : ControllerID(child),
                index: hasIndex ? Int(index) : nil,
                requestedBy: requester(of: id)
            )
        case .menuVisibilityChanged: return .menuVisibilityChanged(id, visible: visible)
        case .pagesChanged:
            return .pagesChanged(
                id,
                pages: pages.map { ControllerID($0) },
                direction: PageDirection(rawValue: direction) ?? .forward,
                requestedBy: requester(of: id)
            )
        case .presented, .dismissed:
            guard let style = ModalPresentationStyle(rawValue: style),
                let transitionStyle = ModalTransitionStyle(rawValue: transitionStyle)
            else { throw .malformed("Unknown presentation styles \"\(self.style)\", \"\(self.transitionStyle)\".") }
            let presentation = Presentation(
                presenter: ControllerID(presenter),
                context: ControllerID(context),
                style: style,
                transitionStyle: transitionStyle,
                hidesContext: hidesContext,
                anchor: anchor.isEmpty ? nil : try view(anchor)
            )
            return eventKind == .presented
                ? .presented(id, presentation: presentation) : .dismissed(id, presentation: presentation)
        case .propertiesChanged: return .propertiesChanged(id, changed: changed, properties: try properties.model())
        case .setEditing: return .setEditing(id, editing: editing, animated: animated)
        case .editingChanged: return .editingChanged(id, editing: editing)
        case .constraintAdded: return .constraintAdded(id, id: constraintID, expression: expression)
        case .constraintRemoved: return .constraintRemoved(id, id: constraintID)
        case .inputDelivered:
            return .inputDelivered(
                controller.isEmpty ? nil : id,
                window: WindowID(window),
                point: point.model,
                kind: kind,
                view: self.view.isEmpty ? nil : try view(self.view),
                chain: chain.map { ControllerID($0) }
            )
        case .inputReceived: return .inputReceived(id, kind: kind, point: point.model, view: try view(self.view))
        case .actionDelivered:
            return .actionDelivered(
                controller.isEmpty ? nil : id,
                from: ControllerID(from),
                name: messageName,
                chain: chain.map { ControllerID($0) }
            )
        case .actionReceived:
            return .actionReceived(id, name: messageName, from: ControllerID(from), payload: Array(payload))
        case .verbInvoked: return .verbInvoked(id, verb: messageName, arguments: arguments, by: Party(parsing: by))
        case .delegateCallback:
            guard let callback = EventKind(name: messageName) else {
                throw .malformed("A delegateCallback's callback \"\(messageName)\" is not an event.")
            }
            return .delegateCallback(
                id,
                container: ControllerID(from),
                callback: callback,
                child: child.isEmpty ? nil : ControllerID(child),
                animated: animated
            )
        case .orientationChanged:
            return .orientationChanged(
                id,
                window: WindowID(window),
                orientation: try Orientation.named(orientation, as: "orientation")
            )
        case .messageSent:
            return .messageSent(id, to: ControllerID(to), name: messageName, bytes: Int(payloadSize))
        case .messageReceived:
            return .messageReceived(id, from: ControllerID(from), name: messageName, payload: Array(payload))
        case .hostUp: return .hostUp(host: host, pid: Int(pid))
        case .hostDown: return .hostDown(host: host, reason: reason)
        case .hostFailed: return .hostFailed(host: host, reason: reason)
        case .hostRestarted: return .hostRestarted(host: host, pid: Int(pid))
        }
    }

    /// The topic frame it is published under: `CATEGORY/NAME/CONTROLLER` (see docs/PROTOCOL.md).
    public var topic: String { "\(EventCategory(eventName: name).rawValue)/\(name)/\(controller)" }
}

/// The groups of SPEC §10, the first part of an event's topic.
public enum EventCategory: String, CaseIterable, Sendable {
    case callbacks, structure, presentation, containers, messages, input, runtime

    /// The category of the kind named `eventName`; any name not listed is a structure event.
    public init(eventName: String) {
        self = EventKind(name: eventName).map(EventCategory.init) ?? .structure
    }

    /// The category of a kind of event.
    public init(_ kind: EventKind) {
        guard !kind.isCallback else {
            self = .callbacks
            return
        }
        switch kind {
        case .presented, .dismissed:
            self = .presentation
        case .transitionBegan, .transitionCompleted, .navigationWillShow, .navigationDidShow, .selectionChanged,
            .pagesChanged, .menuVisibilityChanged:
            self = .containers
        case .messageSent:
            self = .messages
        case .inputDelivered, .actionDelivered:
            self = .input
        case .ruleViolation, .answerTimedOut, .hostUp, .hostDown, .hostRestarted, .hostFailed:
            self = .runtime
        default:
            self = .structure
        }
    }
}

extension WireEvent {
    /// The topic of the PUB's heartbeat (an `EventHeartbeat`, not an `Event`), sent when no event went out for a
    /// heartbeat interval.
    public static let heartbeatTopic: [UInt8] = Array("heartbeat".utf8)
}
