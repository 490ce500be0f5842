/// What the undo journal keeps of a change to one field of a controller or a view: the field's old value, not the
/// whole old record, or for a list the one element added or removed, so that a change made in place allocates
/// nothing.

/// A record the state journals field by field (a ``Controller``, a ``View``): the undo record of a field before a
/// change, and how to apply one.
protocol FieldJournaled {
    associatedtype Field
    associatedtype FieldUndo
    associatedtype Fields: Equatable
    var fields: Fields { get }
    mutating func modify(_ change: (inout Fields) -> Void)
    /// What undoes a change of `field`: its value in `fields`.
    static func undo(of field: Field, in fields: Fields) -> FieldUndo
    static func restore(_ undo: FieldUndo, in fields: inout Fields)
}

extension Controller: FieldJournaled {
    static func undo(of field: Field, in fields: Fields) -> FieldUndo { fields.value(of: field) }
    static func restore(_ undo: FieldUndo, in fields: inout Fields) { fields.restore(undo) }
}

extension View: FieldJournaled {
    static func undo(of field: Field, in fields: Fields) -> FieldUndo { fields.value(of: field) }
    static func restore(_ undo: FieldUndo, in fields: inout Fields) { fields.restore(undo) }
}

extension Controller {
    /// A field the state's journaled updates change.
    enum Field: Sendable {
        case properties, parent, children, presenting, presented, appearance, move, selected, menuVisible
        case subviewNames
    }

    /// How to undo a change of one field: its old value, or the edit of a list to take back.
    enum FieldUndo: Sendable {
        /// A child appended to `children`.
        case childAppended
        /// A child removed from `children` at this index.
        case childRemoved(ControllerID, at: Int)
        /// A name appended to `subviewNames`.
        case subviewNameAppended
        case properties(ControllerProperties)
        case parent(ControllerID?)
        case children([ControllerID])
        case presenting(ControllerID?)
        case presented(ControllerID?)
        case appearance(AppearanceState)
        case move(MoveState)
        case selected(ControllerID?)
        case menuVisible(Bool)
        case subviewNames([String])
    }
}

extension Controller.Fields {
    /// The current value of `field`.
    func value(of field: Controller.Field) -> Controller.FieldUndo {
        switch field {
        case .properties: .properties(properties)
        case .parent: .parent(parent)
        case .children: .children(children)
        case .presenting: .presenting(presenting)
        case .presented: .presented(presented)
        case .appearance: .appearance(appearance)
        case .move: .move(move)
        case .selected: .selected(selected)
        case .menuVisible: .menuVisible(menuVisible)
        case .subviewNames: .subviewNames(subviewNames)
        }
    }

    /// Undoes the change `undo` was journaled for.
    mutating func restore(_ undo: Controller.FieldUndo) {
        switch undo {
        case .childAppended: children.removeLast()
        case .childRemoved(let child, let index): children.insert(child, at: index)
        case .subviewNameAppended: subviewNames.removeLast()
        case .properties(let old): properties = old
        case .parent(let old): parent = old
        case .children(let old): children = old
        case .presenting(let old): presenting = old
        case .presented(let old): presented = old
        case .appearance(let old): appearance = old
        case .move(let old): move = old
        case .selected(let old): selected = old
        case .menuVisible(let old): menuVisible = old
        case .subviewNames(let old): subviewNames = old
        }
    }
}

extension View {
    /// A field the state's journaled updates change.
    enum Field: Sendable {
        case frame, alpha, hidden, superview, subviews, frameSetBy
    }

    /// How to undo a change of one field: its old value, or the edit of a list to take back.
    enum FieldUndo: Sendable {
        /// A subview inserted into `subviews` at this index.
        case subviewInserted(at: Int)
        /// A subview removed from `subviews` at this index.
        case subviewRemoved(ViewID, at: Int)
        case frame(Rect)
        case alpha(Double)
        case hidden(Bool)
        case superview(ViewID?)
        case subviews([ViewID])
        case frameSetBy(Party?)
    }
}

extension View.Fields {
    /// The current value of `field`.
    func value(of field: View.Field) -> View.FieldUndo {
        switch field {
        case .frame: .frame(frame)
        case .alpha: .alpha(alpha)
        case .hidden: .hidden(hidden)
        case .superview: .superview(superview)
        case .subviews: .subviews(subviews)
        case .frameSetBy: .frameSetBy(frameSetBy)
        }
    }

    /// Undoes the change `undo` was journaled for.
    mutating func restore(_ undo: View.FieldUndo) {
        switch undo {
        case .subviewInserted(let index): subviews.remove(at: index)
        case .subviewRemoved(let view, let index): subviews.insert(view, at: index)
        case .frame(let old): frame = old
        case .alpha(let old): alpha = old
        case .hidden(let old): hidden = old
        case .superview(let old): superview = old
        case .subviews(let old): subviews = old
        case .frameSetBy(let old): frameSetBy = old
        }
    }
}
