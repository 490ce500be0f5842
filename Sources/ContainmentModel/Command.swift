/// A mutation of the tree (SPEC §2–§6). ``Request`` pairs it with who asks.
public enum Command: Hashable, Sendable {
    // Lifecycle (issued by the system)
    case create(ControllerID, kind: Kind, properties: ControllerProperties = ControllerProperties())
    case destroy(ControllerID)
    case attachWindow(WindowID, root: ControllerID, size: Size)
    case resizeWindow(WindowID, size: Size)
    /// `nil`: every controller; otherwise those listed (one host's).
    case memoryWarning([ControllerID]?)
    // Containment (§2)
    case addChild(ControllerID, to: ControllerID)
    case willMove(ControllerID, toParent: ControllerID?)
    case didMove(ControllerID, toParent: ControllerID)
    case removeFromParent(ControllerID)
    // Views (§3, §6)
    /// Loads the root view if it is not loaded ("asked for").
    case loadView(ControllerID)
    /// Inserts a view into a superview (at an index, or on top). A named subview is created by its owner on first use.
    case addSubview(ViewID, to: ViewID, at: Int? = nil)
    case removeFromSuperview(ViewID)
    case setFrame(ViewID, Rect)
    case setAlpha(ViewID, Double)
    case setHidden(ViewID, Bool)
    // Appearance (§4), for manual forwarding
    case beginAppearance(ControllerID, appearing: Bool, animated: Bool = false)
    case endAppearance(ControllerID)
    // Transition (§5)
    /// Begins; with `duration` 0 it completes at once, otherwise ``completeTransition(in:from:to:)`` ends it.
    case transition(in: ControllerID, from: ControllerID, to: ControllerID, duration: Double = 0, frame: Rect? = nil)
    case completeTransition(in: ControllerID, from: ControllerID, to: ControllerID)
    // Presentation (§7)
    /// Presents a controller on a presenter; `style` and `transitionStyle` override the presented controller's own. A
    /// popover stands beside `anchor`, a view of the presenter's tree (default: the presenter's root view).
    case present(
        ControllerID,
        on: ControllerID,
        style: ModalPresentationStyle? = nil,
        transitionStyle: ModalTransitionStyle? = nil,
        animated: Bool = false,
        anchor: ViewID? = nil
    )
    /// Dismisses what `X` (or its subtree) presents, or `X` itself when it is presented.
    case dismiss(ControllerID, animated: Bool = false)
    // Standard containers (§8)
    case push(ControllerID, on: ControllerID, animated: Bool = false)
    case pop(ControllerID, animated: Bool = false)
    case popTo(ControllerID, in: ControllerID, animated: Bool = false)
    case popToRoot(ControllerID, animated: Bool = false)
    case setStack(ControllerID, [ControllerID], animated: Bool = false)
    /// A tab or menu container's children.
    case setChildren(ControllerID, [ControllerID])
    case select(ControllerID, Selection, animated: Bool = false)
    case setMenuVisible(ControllerID, Bool, animated: Bool = false)
    case setPages(ControllerID, [ControllerID], direction: PageDirection = .forward, animated: Bool = false)
    case nextPage(ControllerID)
    case previousPage(ControllerID)
    case setSplitMode(ControllerID, SplitDisplayMode)
    // Properties and editing (§13)
    /// Changes properties of a controller, in order; issued by the controller itself or the system.
    case setProperties(ControllerID, [PropertyChange])
    /// Issued by the controller or its parent: the controller receives `setEditing`.
    case setEditing(ControllerID, Bool, animated: Bool = false)
    // Orientation and size forwarding (§13), issued by the system / the container
    case rotate(WindowID, Orientation)
    /// A container that does not forward size transitions itself forwards one to a child.
    case forwardSizeTransition(ControllerID, child: ControllerID, size: Size)
    // Input and the responder chain (§12)
    /// A touch (`tap`, `threeFingerTap`, `swipe`, …) at a point of a window, issued by the system; a swipe's
    /// `direction` (SPEC §15).
    case input(WindowID, at: Point, kind: String, direction: SwipeDirection? = nil)
    /// A control's action sent to no particular target: it walks the responder chain from `from`.
    case action(from: ControllerID, name: String, payload: [UInt8] = [])
    // Custom container verbs (seed 000: "the container exposes public methods")
    /// Calls a verb the controller's host registered for its kind: the controller's code receives `verbInvoked`.
    case invoke(ControllerID, verb: String, arguments: [String] = [])
    // Messages (§11)
    /// `from` sends `to` a message: `to`'s code receives it as `messageReceived`, in order with its callbacks.
    case send(from: ControllerID, to: ControllerID, name: String, payload: [UInt8] = [])
    // Layout by constraints (§16)
    /// Adds a constraint `id` to the owner's views: issued by the owner.
    indirect case constrain(ControllerID, id: String, LayoutConstraint)
    /// Removes the owner's constraint `id`.
    case unconstrain(ControllerID, id: String)

    /// The command's name as `ctl` and `ruleViolation` events spell it.
    public var name: String {
        switch self {
        case .create: "create"
        case .destroy: "destroy"
        case .attachWindow: "attach"
        case .resizeWindow: "resize"
        case .memoryWarning: "memory-warning"
        case .addChild: "add-child"
        case .willMove: "will-move"
        case .didMove: "did-move"
        case .removeFromParent: "remove"
        case .loadView: "load-view"
        case .addSubview: "add-view"
        case .removeFromSuperview: "remove-view"
        case .setFrame: "set-frame"
        case .setAlpha: "set-alpha"
        case .setHidden: "set-hidden"
        case .beginAppearance: "appearance-begin"
        case .endAppearance: "appearance-end"
        case .transition: "transition"
        case .completeTransition: "complete-transition"
        case .present: "present"
        case .dismiss: "dismiss"
        case .push: "push"
        case .pop: "pop"
        case .popTo: "pop-to"
        case .popToRoot: "pop-to-root"
        case .setStack: "set-stack"
        case .setChildren: "set-children"
        case .select: "select"
        case .setMenuVisible: "menu-visible"
        case .setPages: "set-pages"
        case .nextPage: "next"
        case .previousPage: "previous"
        case .setSplitMode: "split-mode"
        case .send: "send"
        case .setProperties: "set-properties"
        case .setEditing: "set-editing"
        case .rotate: "rotate"
        case .forwardSizeTransition: "forward-size"
        case .input: "input"
        case .action: "action"
        case .invoke: "invoke"
        case .constrain: "constrain"
        case .unconstrain: "unconstrain"
        }
    }
}

/// A command and the party that issues it.
public struct Request: Hashable, Sendable {
    public var command: Command
    public var by: Party

    public init(_ command: Command, by: Party) {
        self.command = command
        self.by = by
    }

    /// `command` issued by controller `id`.
    public static func by(_ id: ControllerID, _ command: Command) -> Request { Request(command, by: .controller(id)) }

    /// `command` issued by the system.
    public static func system(_ command: Command) -> Request { Request(command, by: .system) }
}

extension Command {
    /// The controller the command is about: the one created, added, moved, framed, transitioned in; `nil` for a
    /// window resize or a memory warning.
    public var subject: ControllerID? {
        switch self {
        case .create(let id, _, _), .destroy(let id), .loadView(let id), .beginAppearance(let id, _, _),
            .endAppearance(let id):
            id
        case .attachWindow(_, let root, _):
            root
        case .resizeWindow, .memoryWarning:
            nil
        case .addChild(let child, _), .willMove(let child, _), .didMove(let child, _), .removeFromParent(let child):
            child
        case .addSubview(let view, _, _), .removeFromSuperview(let view), .setFrame(let view, _),
            .setAlpha(let view, _),
            .setHidden(let view, _):
            view.owner
        case .transition(let parent, _, _, _, _), .completeTransition(let parent, _, _):
            parent
        case .present(let presented, _, _, _, _, _), .dismiss(let presented, _):
            presented
        case .push(_, let container, _), .pop(let container, _), .popTo(_, let container, _),
            .popToRoot(let container, _),
            .setStack(let container, _, _), .setChildren(let container, _), .select(let container, _, _),
            .setMenuVisible(let container, _, _), .setPages(let container, _, _, _), .nextPage(let container),
            .previousPage(let container), .setSplitMode(let container, _):
            container
        case .send(let from, _, _, _):
            from
        case .setProperties(let id, _), .setEditing(let id, _, _), .forwardSizeTransition(let id, _, _):
            id
        case .rotate, .input:
            nil
        case .action(let from, _, _):
            from
        case .invoke(let id, _, _):
            id
        case .constrain(let owner, _, _), .unconstrain(let owner, _):
            owner
        }
    }
}

/// What `select` picks in a tab or menu container.
public enum Selection: Hashable, Sendable, CustomStringConvertible {
    case index(Int)
    case controller(ControllerID)

    public var description: String {
        switch self {
        case .index(let index): String(index)
        case .controller(let id): id.rawValue
        }
    }
}

/// Which way a swipe goes (SPEC §15): on a page container, `left` turns to the next pages, `right` to the previous.
public enum SwipeDirection: String, Hashable, Sendable, CaseIterable {
    case left, right, up, down
}

/// Which way a page container turns (SPEC §8).
public enum PageDirection: String, Hashable, Sendable, CaseIterable {
    case forward, reverse
}
