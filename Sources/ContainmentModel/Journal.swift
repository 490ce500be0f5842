/// The events of the command being applied, and what it changed, so a rejection can restore the state exactly.
///
/// Undo records make rejection cheap: the state is never copied, each change stores the value it replaced.
struct Journal: Sendable {
    enum Undo: Sendable {
        case controller(ControllerID, Controller?)
        case view(ViewID, View?)
        case window(WindowID, Window?)
        case transitions([RunningTransition])
        case presentation(ControllerID, Presentation?)
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
        // One lookup: the old value comes back from the change.
        let old = controller.map { controllers.updateValue($0, forKey: id) } ?? controllers.removeValue(forKey: id)
        journal.undo.append(.controller(id, old))
    }

    /// Changes the controller `id` in place (one lookup), if there is one.
    mutating func updateController(_ id: ControllerID, _ body: (inout Controller.Fields) -> Void) {
        guard let index = controllers.index(forKey: id) else { return }
        journal.undo.append(.controller(id, controllers.values[index]))
        controllers.values[index].modify(body)
    }

    mutating func setView(_ view: View?, _ id: ViewID) {
        // One lookup: the old value comes back from the change.
        let old = view.map { views.updateValue($0, forKey: id) } ?? views.removeValue(forKey: id)
        journal.undo.append(.view(id, old))
    }

    /// Changes the view `id` in place (one lookup), if there is one.
    mutating func updateView(_ id: ViewID, _ body: (inout View.Fields) -> Void) {
        guard let index = views.index(forKey: id) else { return }
        journal.undo.append(.view(id, views.values[index]))
        views.values[index].modify(body)
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
        // One lookup: the old value comes back from the change.
        let old =
            presentation.map { presentations.updateValue($0, forKey: id) } ?? presentations.removeValue(forKey: id)
        journal.undo.append(.presentation(id, old))
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
            case .controller(let id, let old): controllers[id] = old
            case .view(let id, let old): views[id] = old
            case .window(let id, let old): windows[id] = old
            case .transitions(let old): transitions = old
            case .presentation(let id, let old): presentations[id] = old
            case .nextSerial(let old): nextSerial = old
            }
        }
        clearJournal()
    }

    /// Empties the journal between commands, keeping the undo buffer for the next command.
    mutating func clearJournal() {
        if !journal.undo.isEmpty { journal.undo.removeAll(keepingCapacity: true) }
        journal.events = []
    }

    /// Keeps the changes and returns the events.
    mutating func commit() -> [Event] {
        let events = journal.events
        clearJournal()
        return events
    }
}
