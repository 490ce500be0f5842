import ContainmentConfig
import ContainmentBus
import ContainmentModel
import Foundation

/// The supervisor's whole state at a segment boundary: after every record of the segments numbered below
/// ``nextSegment``. Recovery starts from the latest one instead of the first record (docs/PROTOCOL.md, "The journal").
package struct Checkpoint: Sendable {
    var nextSegment: Int
    var epoch: UInt64
    var lastSeq: UInt64
    var lastCommandID: UInt64
    /// How many records it stands for.
    var records: UInt64
    var timeUnixNanos: Int64 = 0
    var state: ContainmentState
    var hostOf: IDTable<ControllerID, String>
    var clients: ClientReplies
    /// The hosts that registered: the latest pid and how many processes.
    var registrations: [String: (pid: Int32, incarnation: UInt32)] = [:]

    /// Its wire form.
    var message: Containment_V1_Checkpoint {
        Containment_V1_Checkpoint.with { message in
            message.nextSegment = UInt32(nextSegment)
            message.epoch = epoch
            message.lastSeq = lastSeq
            message.lastCommandID = lastCommandID
            message.records = records
            message.timeUnixNanos = timeUnixNanos
            message.nextSerial = Int64(state.serialCounter)
            let controllers = state.controllers.values.sorted { $0.serial < $1.serial }
            message.controllers = Containment_V1_CheckpointControllers(controllers, hostOf: hostOf)
            message.views = Containment_V1_CheckpointViews(
                state.views.values.sorted { $0.id.description < $1.id.description },
                controllers: controllers
            )
            message.windows = state.windows.values.sorted { $0.id < $1.id }.map(Containment_V1_WindowState.init)
            message.transitions = state.transitions.map { transition in
                .with {
                    $0.parent = transition.parent.rawValue
                    $0.from = transition.from.rawValue
                    $0.to = transition.to.rawValue
                    $0.duration = transition.duration
                    $0.appearing = transition.appearing.map(\.rawValue)
                    switch transition.end {
                    case .plain:
                        break
                    case .navigation(let shown, let arrived, let left, let requester):
                        $0.end = "navigation"
                        $0.shown = shown.rawValue
                        $0.arrived = arrived.map(\.rawValue)
                        $0.left = left.map(\.rawValue)
                        $0.requestedBy = requester.description
                    case .pages(let arrived, let left, let pages, let direction, let requester):
                        $0.end = "pages"
                        $0.arrived = arrived.map(\.rawValue)
                        $0.left = left.map(\.rawValue)
                        $0.pages = pages.map(\.rawValue)
                        $0.direction = direction.rawValue
                        $0.requestedBy = requester.description
                    case .menu(let visible):
                        $0.end = "menu"
                        $0.visible = visible
                    case .presentation(let disappearing):
                        $0.end = "presentation"
                        $0.disappearing = disappearing.map(\.rawValue)
                    case .dismissal(let disappearing):
                        $0.end = "dismissal"
                        $0.disappearing = disappearing.map(\.rawValue)
                    }
                }
            }
            message.presentations = state.presentations.sorted { $0.key < $1.key }.map { presented, presentation in
                .with {
                    $0.presented = presented.rawValue
                    $0.presenter = presentation.presenter.rawValue
                    $0.context = presentation.context.rawValue
                    $0.style = presentation.style.rawValue
                    $0.transitionStyle = presentation.transitionStyle.rawValue
                    $0.hidesContext = presentation.hidesContext
                    if let anchor = presentation.anchor { $0.anchor = anchor.description }
                }
            }
            message.constraints = state.layouts.sorted { $0.key < $1.key }.map { owner, layout in
                .with {
                    $0.owner = owner.rawValue
                    $0.ids = layout.entries.map(\.id)
                    $0.expressions = layout.entries.map(\.constraint.description)
                }
            }
            message.hosts = registrations.sorted { $0.key < $1.key }.map { name, registration in
                .with {
                    $0.name = name
                    $0.pid = registration.pid
                    $0.incarnation = registration.incarnation
                }
            }
            message.clients = clients.entries.map { client, answers in
                .with {
                    $0.clientID = client
                    $0.answers = answers.map { requestID, answer in
                        .with {
                            $0.requestID = requestID
                            $0.answer = Data(answer.bytes(requestID: requestID))
                        }
                    }
                }
            }
        }
    }

    /// What a running transition's completion does, as a checkpoint writes it.
    static func end(of wire: Containment_V1_CheckpointTransition) throws(ContainmentError) -> TransitionEnd {
        let disappearing = wire.disappearing.map { ControllerID($0) }
        // Empty in a checkpoint written before SPEC §15: the container asked.
        let requester =
            wire.requestedBy.isEmpty ? Party.controller(ControllerID(wire.parent)) : Party(parsing: wire.requestedBy)
        switch wire.end {
        case "": return .plain
        case "navigation":
            return .navigation(
                shown: ControllerID(wire.shown),
                arrived: wire.arrived.map { ControllerID($0) },
                left: wire.left.map { ControllerID($0) },
                requestedBy: requester
            )
        case "pages":
            return .pages(
                arrived: wire.arrived.map { ControllerID($0) },
                left: wire.left.map { ControllerID($0) },
                pages: wire.pages.map { ControllerID($0) },
                direction: try PageDirection.named(wire.direction, as: "page direction"),
                requestedBy: requester
            )
        case "menu": return .menu(visible: wire.visible)
        case "presentation": return .presentation(disappearing: disappearing)
        case "dismissal": return .dismissal(disappearing: disappearing)
        default:
            throw ContainmentError(.malformed, "A transition's end \"\(SupervisorCore.shown(wire.end))\" is not one.")
        }
    }

    /// A popover's anchor as a checkpoint writes it (empty: none).
    static func anchor(_ text: String) throws(ContainmentError) -> ViewID? {
        guard !text.isEmpty else { return nil }
        guard let view = ViewID(parsing: text) else {
            throw ContainmentError(.malformed, "A presentation's anchor \"\(text)\" is not a view.")
        }
        return view
    }

    /// Reads a checkpoint's wire form; `answers` bounds the answers remembered (the settings now).
    init(_ message: Containment_V1_Checkpoint, answers: ClientReplies.Limits) throws(ContainmentError) {
        nextSegment = Int(message.nextSegment)
        epoch = message.epoch
        lastSeq = message.lastSeq
        lastCommandID = message.lastCommandID
        records = message.records
        timeUnixNanos = message.timeUnixNanos
        let (ids, controllers, hostOf) = try message.controllers.model()
        let views = try message.views.model(owners: ids)
        var presentations: [ControllerID: Presentation] = [:]
        for wire in message.presentations {
            presentations[ControllerID(wire.presented)] = Presentation(
                presenter: ControllerID(wire.presenter),
                context: ControllerID(wire.context),
                style: try .named(wire.style, as: "modal presentation style"),
                transitionStyle: try .named(wire.transitionStyle, as: "modal transition style"),
                hidesContext: wire.hidesContext,
                anchor: try Self.anchor(wire.anchor)
            )
        }
        var windows: [Window] = []
        for window in message.windows { windows.append(try window.model()) }
        var transitions: [RunningTransition] = []
        for wire in message.transitions {
            transitions.append(
                RunningTransition(
                    parent: ControllerID(wire.parent),
                    from: ControllerID(wire.from),
                    to: ControllerID(wire.to),
                    duration: wire.duration,
                    appearing: wire.appearing.map { ControllerID($0) },
                    end: try Self.end(of: wire)
                )
            )
        }
        state = ContainmentState(
            restoring: controllers,
            views: views,
            windows: windows,
            transitions: transitions,
            presentations: presentations,
            serialCounter: Int(message.nextSerial)
        )
        for wire in message.constraints {
            guard wire.ids.count == wire.expressions.count else {
                throw .malformed(
                    "The constraints of \(wire.owner) have \(wire.ids.count) ids, \(wire.expressions.count) expressions."
                )
            }
            let entries = try zip(wire.ids, wire.expressions).map { (id, expression) throws(ContainmentError) in
                Layout.Entry(id: id, constraint: try LayoutConstraint(parsing: expression))
            }
            try state.restore(constraints: entries, of: ControllerID(wire.owner))
        }
        self.hostOf = hostOf
        for host in message.hosts { registrations[host.name] = (host.pid, host.incarnation) }
        clients = ClientReplies(answers)
        for client in message.clients {
            for answer in client.answers {
                clients.remember(
                    client: client.clientID,
                    requestID: answer.requestID,
                    // Read when it may be worth keeping without its events (a few events or more).
                    answer: .recorded([UInt8](answer.answer), readingAbove: 512)
                )
            }
        }
    }

    /// The state of `core` after its journal's `records` records, the next of which go to segment `nextSegment`.
    package init(of core: SupervisorCore, nextSegment: Int, records: Int, timeUnixNanos: Int64) {
        self.init(
            nextSegment: nextSegment,
            epoch: core.epoch,
            lastSeq: core.seq,
            lastCommandID: core.nextCommandID - 1,
            records: UInt64(records),
            state: core.state,
            hostOf: core.hostOf,
            clients: core.clients
        )
        registrations = core.hosts.values.filter { $0.incarnation > 0 }.reduce(into: [:]) {
            $0[$1.name] = ($1.pid, $1.incarnation)
        }
        self.timeUnixNanos = timeUnixNanos
    }

    init(
        nextSegment: Int,
        epoch: UInt64,
        lastSeq: UInt64,
        lastCommandID: UInt64,
        records: UInt64,
        state: ContainmentState,
        hostOf: IDTable<ControllerID, String>,
        clients: ClientReplies
    ) {
        self.nextSegment = nextSegment
        self.epoch = epoch
        self.lastSeq = lastSeq
        self.lastCommandID = lastCommandID
        self.records = records
        self.state = state
        self.hostOf = hostOf
        self.clients = clients
    }
}

extension SupervisorCore {
    /// A checkpoint of this core's state after the journal's `records` records, as a checkpoint file holds it (what a
    /// simulated disk keeps).
    package func checkpointBytes(records: Int, timeUnixNanos: Int64) throws(JournalFailure) -> [UInt8] {
        try CheckpointFile.encode(Checkpoint(of: self, nextSegment: 1, records: records, timeUnixNanos: timeUnixNanos))
    }
}
