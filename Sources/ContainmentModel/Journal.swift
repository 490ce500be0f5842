/// The events of the command being applied, and what it changed, so a rejection can restore the state exactly.
///
/// Undo records make rejection cheap: the state is never copied, each change stores the value it replaced.
struct Journal: Sendable {
    enum Undo: Sendable {
        case controller(ControllerID, Controller?, slot: Int)
        case view(ViewID, View?, slot: Int)
        case window(WindowID, Window?)
        case transitions([RunningTransition])
        case presentation(ControllerID, Presentation?, slot: Int)
        case nextSerial(Int)
    }

    var undo: [Undo] = []
    var events: [Event] = []

    /// Room for the events of most commands, reserved at the first one so the buffer rarely grows.
    static let typicalEventCount = 8
}

extension ContainmentState {
    // MARK: Journaled mutation: every change of the state goes through these.

    mutating func setController(_ controller: Controller?, _ id: ControllerID) {
        // One lookup: the old value and its slot come back from the change.
        if let controller {
            let (old, slot) = controllers.updateValue(controller, forKey: id)
            journal.undo.append(.controller(id, old, slot: slot))
        } else if let (old, slot) = controllers.removeValue(forKey: id) {
            journal.undo.append(.controller(id, old, slot: slot))
        }
    }

    /// Changes the controller `id` in place (one lookup), if there is one.
    mutating func updateController(_ id: ControllerID, _ body: (inout Controller.Fields) -> Void) {
        guard let slot = controllers.slot(of: id) else { return }
        let old = controllers.modify(at: slot) { $0.modify(body) }
        journal.undo.append(.controller(id, old, slot: slot))
    }

    mutating func setView(_ view: View?, _ id: ViewID) {
        // One lookup: the old value and its slot come back from the change.
        if let view {
            let (old, slot) = views.updateValue(view, forKey: id)
            journal.undo.append(.view(id, old, slot: slot))
        } else if let (old, slot) = views.removeValue(forKey: id) {
            journal.undo.append(.view(id, old, slot: slot))
        }
    }

    /// Changes the view `id` in place (one lookup), if there is one.
    mutating func updateView(_ id: ViewID, _ body: (inout View.Fields) -> Void) {
        guard let slot = views.slot(of: id) else { return }
        let old = views.modify(at: slot) { $0.modify(body) }
        journal.undo.append(.view(id, old, slot: slot))
    }

    mutating func setWindow(_ window: Window?, _ id: WindowID) {
        // One lookup: the old value comes back from the change.
        let old = window.map { windows.updateValue($0, forKey: id) } ?? windows.removeValue(forKey: id)
        journal.undo.append(.window(id, old))
    }

    mutating func setTransitions(_ running: [RunningTransition]) {
        journal.undo.append(.transitions(transitions))
        transitions = running
    }

    mutating func setPresentation(_ presentation: Presentation?, _ id: ControllerID) {
        // One lookup: the old value and its slot come back from the change.
        if let presentation {
            let (old, slot) = presentations.updateValue(presentation, forKey: id)
            journal.undo.append(.presentation(id, old, slot: slot))
        } else if let (old, slot) = presentations.removeValue(forKey: id) {
            journal.undo.append(.presentation(id, old, slot: slot))
        }
    }

    mutating func takeSerial() -> Int {
        journal.undo.append(.nextSerial(nextSerial))
        defer { nextSerial += 1 }
        return nextSerial
    }

    mutating func emit(_ event: Event) {
        if journal.events.capacity == 0 { journal.events.reserveCapacity(Journal.typicalEventCount) }
        journal.events.append(event)
    }

    /// Restores every value the command replaced, newest first, and drops its events.
    mutating func rollBack() {
        for record in journal.undo.reversed() {
            switch record {
            case .controller(let id, let old, let slot): controllers.restore(old, forKey: id, at: slot)
            case .view(let id, let old, let slot): views.restore(old, forKey: id, at: slot)
            case .window(let id, let old): windows[id] = old
            case .transitions(let old): transitions = old
            case .presentation(let id, let old, let slot): presentations.restore(old, forKey: id, at: slot)
            case .nextSerial(let old): nextSerial = old
            }
        }
        clearJournal()
    }

    /// Empties the journal between commands, keeping the undo buffer for the next command. No slot is recorded any
    /// more, so the tables may drop their empty slots.
    mutating func clearJournal() {
        if !journal.undo.isEmpty {
            journal.undo.removeAll(keepingCapacity: true)
            controllers.compact()
            views.compact()
            presentations.compact()
        }
        journal.events = []
    }

    /// Keeps the changes and returns the events.
    mutating func commit() -> [Event] {
        let events = journal.events
        clearJournal()
        return events
    }
}
