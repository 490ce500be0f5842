/// The whole tree: controllers, their views, windows and running transitions — and the one entry point that
/// applies a command to it (SPEC §2–§6).
///
/// `apply` either returns the ordered events of an accepted command (or atomic batch) or throws a typed error and
/// leaves the state exactly as it was. Deterministic: no clocks, no I/O, no randomness.
public struct ContainmentState: Sendable {
    /// The controllers, in creation order.
    public internal(set) var controllers = IDTable<ControllerID, Controller>()
    public internal(set) var views = IDTable<ViewID, View>()
    public internal(set) var windows: [WindowID: Window] = [:]
    public internal(set) var transitions: [RunningTransition] = []
    /// Each presented controller's presentation, by presented controller.
    public internal(set) var presentations = IDTable<ControllerID, Presentation>()
    /// Each controller's constraints (SPEC §16), by owner; none for a controller without any.
    public internal(set) var layouts: [ControllerID: Layout] = [:]
    /// What the hosts registered for each kind, as the runtime knows it now (SPEC §16, child protocols): not part of
    /// the tree (not compared, not checkpointed); empty, nothing about it is judged.
    public var kindProtocols: [Kind: KindProtocol] = [:]
    var nextSerial = 0
    /// How long an animated switch of a standard container runs (SPEC §13, the runtime's `animationDuration`).
    public var animationDuration = 0.35
    /// How long a menu's animated `setMenuVisible` runs (SPEC §13: 0.3 s).
    public var menuAnimationDuration = 0.3
    /// How many items a tab container's bar shows before the fifth becomes More (SPEC §16, the runtime's
    /// `maxVisibleTabs`); at least 2.
    public var maxVisibleTabs = 5

    /// Undo records and events of the command being applied; empty between commands.
    var journal = Journal()
    /// The dealings with controllers' code of the transaction being applied (``apply(batch:answers:)``); `nil`
    /// otherwise, and then nothing is asked.
    var asking: Asking?

    public init() {}

    // MARK: Entry points

    /// Applies one request. Returns its events in order, or throws and changes nothing.
    public mutating func apply(_ request: Request) throws(ContainmentError) -> [Event] {
        clearJournal()
        do {
            try perform(request)
        } catch {
            rollBack()
            throw error
        }
        return commit()
    }

    /// Applies one command issued by `party`.
    public mutating func apply(_ command: Command, by party: Party) throws(ContainmentError) -> [Event] {
        try apply(Request(command, by: party))
    }

    /// Applies requests as one transaction: all in order, or none (the first error is thrown with its index).
    public mutating func apply(batch requests: [Request]) throws(BatchError) -> [Event] {
        clearJournal()
        for index in requests.indices {
            do {
                try perform(requests[index])
            } catch {
                rollBack()
                throw BatchError(index: index, error: error)
            }
        }
        return commit()
    }

    /// The outcome of a transaction that asks controllers' code (SPEC §15).
    public enum Applied: Sendable, Equatable {
        /// Accepted: its events, in order.
        case committed([Event])
        /// It met questions to controllers' code with no answer yet, in the order met: nothing changed. Apply it
        /// again with their answers (or `Answer.timedOut`).
        case unanswered([Question])
    }

    /// Applies requests as one transaction, asking controllers' code what `answers` says it answers: committed, or
    /// unanswered and nothing changed, or thrown (the first error with its index) and nothing changed. A transaction
    /// that both meets an unanswered question and fails is unanswered: the answer may change the outcome.
    public mutating func apply(batch requests: [Request], answers: Answers) throws(BatchError) -> Applied {
        clearJournal()
        asking = Asking(answers: answers)
        defer { asking = nil }
        for index in requests.indices {
            do {
                try perform(requests[index])
            } catch {
                let unanswered = asking?.unanswered ?? []
                rollBack()
                if !unanswered.isEmpty { return .unanswered(unanswered) }
                throw BatchError(index: index, error: error)
            }
        }
        if let unanswered = asking?.unanswered, !unanswered.isEmpty {
            rollBack()
            return .unanswered(unanswered)
        }
        return .committed(commit())
    }

    /// The `ruleViolation` event to publish for a rejected request (SPEC §3): about the controller the command names
    /// first, by the party that asked (the natural party resolved against this state).
    public func violation(of request: Request, error: ContainmentError) -> Event {
        let by = request.by == .natural ? naturalParty(for: request.command) : request.by
        return .ruleViolation(
            request.command.subject ?? by.controller,
            command: request.command.name,
            by: by,
            code: error.code,
            message: error.message
        )
    }

    // MARK: Dispatch

    mutating func perform(_ request: Request) throws(ContainmentError) {
        let by = request.by == .natural ? naturalParty(for: request.command) : request.by
        try checkMoreTabUntouched(request, by: by)
        switch request.command {
        case .create(let id, let kind, let properties): try create(id, kind: kind, properties: properties, by: by)
        case .destroy(let id): try destroy(id, by: by)
        case .attachWindow(let window, let root, let size): try attachWindow(window, root: root, size: size, by: by)
        case .resizeWindow(let window, let size): try resizeWindow(window, to: size, by: by)
        case .memoryWarning(let targets): try memoryWarning(targets, by: by)
        case .addChild(let child, let parent): try addChild(child, to: parent, by: by)
        case .willMove(let child, let parent): try willMove(child, toParent: parent, by: by)
        case .didMove(let child, let parent): try didMove(child, toParent: parent, by: by)
        case .removeFromParent(let child): try removeFromParent(child, by: by)
        case .loadView(let id): try loadViewCommand(id, by: by)
        case .addSubview(let view, let superview, let index): try addSubview(view, to: superview, at: index, by: by)
        case .removeFromSuperview(let view): try removeFromSuperview(view, by: by)
        case .setFrame(let view, let frame): try setFrame(view, frame, by: by)
        case .setAlpha(let view, let alpha): try setAlpha(view, alpha, by: by)
        case .setHidden(let view, let hidden): try setHidden(view, hidden, by: by)
        case .beginAppearance(let id, let appearing, let animated):
            try beginAppearanceCommand(id, appearing: appearing, animated: animated, by: by)
        case .endAppearance(let id): try endAppearanceCommand(id, by: by)
        case .transition(let parent, let from, let to, let duration, let frame):
            try transition(in: parent, from: from, to: to, duration: duration, frame: frame, by: by)
        case .completeTransition(let parent, let from, let to):
            try completeTransition(in: parent, from: from, to: to, by: by)
        case .present(let presented, let presenter, let style, let transitionStyle, let animated, let anchor):
            try present(
                presented,
                on: presenter,
                style: style,
                transitionStyle: transitionStyle,
                animated: animated,
                anchor: anchor,
                by: by
            )
        case .dismiss(let id, let animated):
            try dismiss(id, animated: animated, by: by)
        case .push(let pushed, let navigation, let animated):
            try push(pushed, on: navigation, animated: animated, by: by)
        case .pop(let navigation, let animated): try pop(navigation, animated: animated, by: by)
        case .popTo(let target, let navigation, let animated):
            try popTo(target, in: navigation, animated: animated, by: by)
        case .popToRoot(let navigation, let animated): try popToRoot(navigation, animated: animated, by: by)
        case .setStack(let navigation, let stack, let animated):
            try setStack(navigation, stack, animated: animated, by: by)
        case .setChildren(let id, let children): try setChildren(id, children, by: by)
        case .select(let id, let selection, let animated): try select(id, selection, animated: animated, by: by)
        case .setMenuVisible(let id, let visible, let animated):
            try setMenuVisible(id, visible, animated: animated, by: by)
        case .input(let window, let point, let kind, let direction):
            try input(window, at: point, kind: kind, direction: direction, by: by)
        case .action(let from, let name, let payload): try action(from: from, name: name, payload: payload, by: by)
        case .invoke(let id, let verb, let arguments): try invoke(id, verb: verb, arguments: arguments, by: by)
        case .setPages(let id, let pages, let direction, let animated):
            try setPages(id, pages, direction: direction, animated: animated, by: by)
        case .nextPage(let id): try turnPage(id, forward: true, by: by)
        case .previousPage(let id): try turnPage(id, forward: false, by: by)
        case .setSplitMode(let id, let mode): try setSplitMode(id, mode, by: by)
        case .setProperties(let id, let changes): try setProperties(id, changes, by: by)
        case .rotate(let window, let orientation): try rotate(window, to: orientation, by: by)
        case .forwardSizeTransition(let id, let child, let size):
            try forwardSizeTransition(in: id, to: child, size: size, by: by)
        case .setEditing(let id, let editing, let animated): try setEditing(id, editing, animated: animated, by: by)
        case .send(let from, let to, let name, let payload):
            try send(from: from, to: to, name: name, payload: payload, by: by)
        case .constrain(let owner, let id, let constraint): try constrain(owner, id: id, constraint, by: by)
        case .unconstrain(let owner, let id): try unconstrain(owner, id: id, by: by)
        }
        // The layouts whose views got frames from elsewhere, solved again: the constraints hold when a command ends.
        if !journal.unsettled.isEmpty { settleLayouts() }
        // A layout the command's changes left unsolvable (a resize its required constraints cannot hold with).
        if let failure = journal.layoutFailure {
            journal.layoutFailure = nil
            throw failure
        }
    }
}

extension ContainmentState: Equatable {
    /// Two states are equal when their trees are; the journal of a command in progress is not part of the state.
    public static func == (lhs: ContainmentState, rhs: ContainmentState) -> Bool {
        lhs.controllers == rhs.controllers && lhs.views == rhs.views && lhs.windows == rhs.windows
            && lhs.transitions == rhs.transitions && lhs.nextSerial == rhs.nextSerial
            && lhs.presentations == rhs.presentations && lhs.layouts == rhs.layouts
    }
}
