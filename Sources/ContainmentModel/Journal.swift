/// The events of the command being applied, and what it changed, so a rejection can restore the state exactly.
///
/// Undo records make rejection cheap: the state is never copied, each change stores the value it replaced — of a
/// controller or view changed in place, the old value of each field changed.
struct Journal: Sendable {
    enum Undo: Sendable {
        case controller(ControllerID, Controller?, slot: Int)
        case controllerField(Controller.FieldUndo, slot: Int)
        case view(ViewID, View?, slot: Int)
        case viewField(View.FieldUndo, slot: Int)
        indirect case window(WindowID, Window?)
        case transitions([RunningTransition])
        indirect case presentation(ControllerID, Presentation?, slot: Int)
        case nextSerial(Int)
    }

    var undo: [Undo] = []
    var events: [Event] = []

    /// Room for the events of most commands, reserved at the first one so the buffer rarely grows.
    static let typicalEventCount = 16
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

    /// Changes `field` of the controller `id` in place (one lookup), if there is one; `body` changes no other field.
    mutating func updateController(
        _ id: ControllerID,
        _ field: Controller.Field,
        _ body: (inout Controller.Fields) -> Void
    ) {
        guard let slot = controllers.slot(of: id) else { return }
        let old = controllers.value(at: slot).fields.value(of: field)
        journal.undo.append(.controllerField(old, slot: slot))
        changeController(at: slot, restoring: old, nil, body)
    }

    /// Changes two fields of the controller `id` in place (one lookup), if there is one; `body` changes no other.
    mutating func updateController(
        _ id: ControllerID,
        _ first: Controller.Field,
        _ second: Controller.Field,
        _ body: (inout Controller.Fields) -> Void
    ) {
        guard let slot = controllers.slot(of: id) else { return }
        let fields = controllers.value(at: slot).fields
        let (old, otherOld) = (fields.value(of: first), fields.value(of: second))
        journal.undo.append(.controllerField(old, slot: slot))
        journal.undo.append(.controllerField(otherOld, slot: slot))
        changeController(at: slot, restoring: old, otherOld, body)
    }

    /// Appends `child` to the children of `parentID`.
    mutating func appendChild(_ child: ControllerID, to parentID: ControllerID) {
        guard let slot = controllers.slot(of: parentID) else { return }
        journal.undo.append(.controllerField(.childAppended, slot: slot))
        changeController(at: slot, restoring: .childAppended, nil) { $0.children.append(child) }
    }

    /// Removes `child` from the children of `parentID`, if it is one.
    mutating func removeChild(_ child: ControllerID, from parentID: ControllerID) {
        guard let slot = controllers.slot(of: parentID),
            let index = controllers.value(at: slot).children.firstIndex(of: child)
        else { return }
        let undo = Controller.FieldUndo.childRemoved(child, at: index)
        journal.undo.append(.controllerField(undo, slot: slot))
        changeController(at: slot, restoring: undo, nil) { $0.children.remove(at: index) }
    }

    /// Appends `name` to the subview names of `id`.
    mutating func appendSubviewName(_ name: String, to id: ControllerID) {
        guard let slot = controllers.slot(of: id) else { return }
        journal.undo.append(.controllerField(.subviewNameAppended, slot: slot))
        changeController(at: slot, restoring: .subviewNameAppended, nil) { $0.subviewNames.append(name) }
    }

    /// Applies `body` to the controller at `slot`. Debug builds check that it changed only the journaled fields: the
    /// fields with those put back must equal the fields before.
    private mutating func changeController(
        at slot: Int,
        restoring old: Controller.FieldUndo,
        _ otherOld: Controller.FieldUndo?,
        _ body: (inout Controller.Fields) -> Void
    ) {
        var before: Controller.Fields?
        assert(
            {
                before = controllers.value(at: slot).fields
                return true
            }()
        )
        controllers.update(at: slot) { $0.modify(body) }
        assert(
            {
                var check = controllers.value(at: slot).fields
                if let otherOld { check.restore(otherOld) }
                check.restore(old)
                return check == before
            }(),
            "a journaled update of \(controllers.value(at: slot).id) changed a field it did not name"
        )
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

    /// Changes `field` of the view `id` in place (one lookup), if there is one; `body` changes no other field.
    mutating func updateView(_ id: ViewID, _ field: View.Field, _ body: (inout View.Fields) -> Void) {
        guard let slot = views.slot(of: id) else { return }
        let old = views.value(at: slot).fields.value(of: field)
        journal.undo.append(.viewField(old, slot: slot))
        changeView(at: slot, restoring: old, nil, body)
    }

    /// Changes two fields of the view `id` in place (one lookup), if there is one; `body` changes no other.
    mutating func updateView(
        _ id: ViewID,
        _ first: View.Field,
        _ second: View.Field,
        _ body: (inout View.Fields) -> Void
    ) {
        guard let slot = views.slot(of: id) else { return }
        let fields = views.value(at: slot).fields
        let (old, otherOld) = (fields.value(of: first), fields.value(of: second))
        journal.undo.append(.viewField(old, slot: slot))
        journal.undo.append(.viewField(otherOld, slot: slot))
        changeView(at: slot, restoring: old, otherOld, body)
    }

    /// Inserts `viewID` into the subviews of `superviewID` at `index`.
    mutating func insertSubview(_ viewID: ViewID, into superviewID: ViewID, at index: Int) {
        guard let slot = views.slot(of: superviewID) else { return }
        let undo = View.FieldUndo.subviewInserted(at: index)
        journal.undo.append(.viewField(undo, slot: slot))
        changeView(at: slot, restoring: undo, nil) { $0.subviews.insert(viewID, at: index) }
    }

    /// Removes `viewID` from the subviews of `superviewID`, if it is one.
    mutating func removeSubview(_ viewID: ViewID, from superviewID: ViewID) {
        guard let slot = views.slot(of: superviewID),
            let index = views.value(at: slot).subviews.firstIndex(of: viewID)
        else { return }
        let undo = View.FieldUndo.subviewRemoved(viewID, at: index)
        journal.undo.append(.viewField(undo, slot: slot))
        changeView(at: slot, restoring: undo, nil) { $0.subviews.remove(at: index) }
    }

    /// Applies `body` to the view at `slot`; debug builds check that it changed only the journaled fields.
    private mutating func changeView(
        at slot: Int,
        restoring old: View.FieldUndo,
        _ otherOld: View.FieldUndo?,
        _ body: (inout View.Fields) -> Void
    ) {
        var before: View.Fields?
        assert(
            {
                before = views.value(at: slot).fields
                return true
            }()
        )
        views.update(at: slot) { $0.modify(body) }
        assert(
            {
                var check = views.value(at: slot).fields
                if let otherOld { check.restore(otherOld) }
                check.restore(old)
                return check == before
            }(),
            "a journaled update of \(views.value(at: slot).id) changed a field it did not name"
        )
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
            case .controllerField(let old, let slot): controllers.update(at: slot) { $0.modify { $0.restore(old) } }
            case .viewField(let old, let slot): views.update(at: slot) { $0.modify { $0.restore(old) } }
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
