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
        case presentation(ControllerID, Presentation?, slot: Int)
        case nextSerial(Int)
        indirect case layout(ControllerID, Layout?)
    }

    var undo: [Undo] = []
    var events: [Event] = []
    /// Set when a layout the command changed cannot be solved (SPEC §16): the command is refused with it.
    var layoutFailure: ContainmentError?
    /// The owners a view of whose constraints got a frame from elsewhere in the command (a transition, a container's
    /// own code, a `set_frame`), in the order met: solved again before the command ends (SPEC §16).
    var unsettled: [ControllerID] = []

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

    /// Changes `field` (and `second`) of the controller `id` in place (one lookup), if there is one; `body` changes no
    /// other field.
    mutating func updateController(
        _ id: ControllerID,
        _ field: Controller.Field,
        _ second: Controller.Field? = nil,
        _ body: (inout Controller.Fields) -> Void
    ) {
        guard let slot = controllers.slot(of: id) else { return }
        let (undo, otherUndo) = controllers.undo(of: field, second, at: slot)
        journal.undo.append(.controllerField(undo, slot: slot))
        if let otherUndo { journal.undo.append(.controllerField(otherUndo, slot: slot)) }
        controllers.change(at: slot, undoing: undo, otherUndo, body)
    }

    /// Appends `child` to the children of `parentID`.
    mutating func appendChild(_ child: ControllerID, to parentID: ControllerID) {
        guard let slot = controllers.slot(of: parentID) else { return }
        journal.undo.append(.controllerField(.childAppended, slot: slot))
        controllers.change(at: slot, undoing: .childAppended) { $0.children.append(child) }
    }

    /// Removes `child` from the children of `parentID`, if it is one.
    mutating func removeChild(_ child: ControllerID, from parentID: ControllerID) {
        guard let slot = controllers.slot(of: parentID),
            let index = controllers.value(at: slot).children.firstIndex(of: child)
        else { return }
        let undo = Controller.FieldUndo.childRemoved(child, at: index)
        journal.undo.append(.controllerField(undo, slot: slot))
        controllers.change(at: slot, undoing: undo) { $0.children.remove(at: index) }
    }

    /// Appends `name` to the subview names of `id`.
    mutating func appendSubviewName(_ name: String, to id: ControllerID) {
        guard let slot = controllers.slot(of: id) else { return }
        journal.undo.append(.controllerField(.subviewNameAppended, slot: slot))
        controllers.change(at: slot, undoing: .subviewNameAppended) { $0.subviewNames.append(name) }
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

    /// Changes `field` (and `second`) of the view `id` in place (one lookup), if there is one; `body` changes no
    /// other field.
    mutating func updateView(
        _ id: ViewID,
        _ field: View.Field,
        _ second: View.Field? = nil,
        _ body: (inout View.Fields) -> Void
    ) {
        guard let slot = views.slot(of: id) else { return }
        let (undo, otherUndo) = views.undo(of: field, second, at: slot)
        journal.undo.append(.viewField(undo, slot: slot))
        if let otherUndo { journal.undo.append(.viewField(otherUndo, slot: slot)) }
        views.change(at: slot, undoing: undo, otherUndo, body)
    }

    /// Inserts `viewID` into the subviews of `superviewID` at `index`.
    mutating func insertSubview(_ viewID: ViewID, into superviewID: ViewID, at index: Int) {
        guard let slot = views.slot(of: superviewID) else { return }
        let undo = View.FieldUndo.subviewInserted(at: index)
        journal.undo.append(.viewField(undo, slot: slot))
        views.change(at: slot, undoing: undo) { $0.subviews.insert(viewID, at: index) }
    }

    /// Removes `viewID` from the subviews of `superviewID`, if it is one.
    mutating func removeSubview(_ viewID: ViewID, from superviewID: ViewID) {
        guard let slot = views.slot(of: superviewID),
            let index = views.value(at: slot).subviews.firstIndex(of: viewID)
        else { return }
        let undo = View.FieldUndo.subviewRemoved(viewID, at: index)
        journal.undo.append(.viewField(undo, slot: slot))
        views.change(at: slot, undoing: undo) { $0.subviews.remove(at: index) }
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

    mutating func setLayout(_ layout: Layout?, _ owner: ControllerID) {
        journal.undo.append(.layout(owner, layouts[owner]))
        layouts[owner] = layout
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
        undo(from: 0)
        clearJournal()
    }

    /// Undoes what was changed since `mark` (the journal's undo and event counts then) and drops the events emitted
    /// since: a part of the transaction taken back, the rest kept.
    mutating func rollBack(to mark: (undo: Int, events: Int)) {
        undo(from: mark.undo)
        journal.undo.removeSubrange(mark.undo...)
        journal.events.removeSubrange(mark.events...)
    }

    /// Applies the undo records from `start` on, last first.
    private mutating func undo(from start: Int) {
        for record in journal.undo[start...].reversed() {
            switch record {
            case .controller(let id, let old, let slot): controllers.restore(old, forKey: id, at: slot)
            case .controllerField(let undo, let slot): controllers.update(at: slot) { $0.modify { $0.restore(undo) } }
            case .viewField(let undo, let slot): views.update(at: slot) { $0.modify { $0.restore(undo) } }
            case .view(let id, let old, let slot): views.restore(old, forKey: id, at: slot)
            case .window(let id, let old): windows[id] = old
            case .transitions(let old): transitions = old
            case .presentation(let id, let old, let slot): presentations.restore(old, forKey: id, at: slot)
            case .nextSerial(let old): nextSerial = old
            case .layout(let owner, let old): layouts[owner] = old
            }
        }
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
        if journal.layoutFailure != nil { journal.layoutFailure = nil }
        if !journal.unsettled.isEmpty { journal.unsettled = [] }
    }

    /// Keeps the changes and returns the events.
    mutating func commit() -> [Event] {
        let events = journal.events
        clearJournal()
        return events
    }
}

extension IDTable where Value: FieldJournaled {
    /// What undoes a change of `field` (and `second`) of the value at `slot`, as it is now.
    func undo(of field: Value.Field, _ second: Value.Field?, at slot: Int) -> (Value.FieldUndo, Value.FieldUndo?) {
        let fields = value(at: slot).fields
        return (Value.undo(of: field, in: fields), second.map { Value.undo(of: $0, in: fields) })
    }

    /// Applies `body` to the value at `slot`, in place when the table holds its only reference. Debug builds check
    /// that it changed only the fields whose undo records are given: with those applied, the fields must be what they
    /// were.
    mutating func change(
        at slot: Int,
        undoing undo: Value.FieldUndo,
        _ otherUndo: Value.FieldUndo? = nil,
        _ body: (inout Value.Fields) -> Void
    ) {
        var before: Value.Fields?
        assert(
            {
                before = value(at: slot).fields
                return true
            }()
        )
        update(at: slot) { $0.modify(body) }
        assert(
            {
                var check = value(at: slot).fields
                if let otherUndo { Value.restore(otherUndo, in: &check) }
                Value.restore(undo, in: &check)
                return check == before
            }(),
            "a journaled update of \(slotKeys[slot]) changed a field it did not name"
        )
    }
}
