/// What the undo journal keeps of a change to one field of a controller or a view: the field's old value, not the
/// whole old record, so that a change made in place allocates nothing.

extension Controller {
    /// A field the state's journaled updates change.
    enum Field: Sendable {
        case properties, parent, children, presenting, presented, appearance, move, selected, menuVisible
        case subviewNames
    }

    /// One field's value, as the journal keeps it to undo a change.
    enum FieldValue: Sendable {
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
    func value(of field: Controller.Field) -> Controller.FieldValue {
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

    /// Sets the field `value` is of back to it.
    mutating func restore(_ value: Controller.FieldValue) {
        switch value {
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

    /// One field's value, as the journal keeps it to undo a change.
    enum FieldValue: Sendable {
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
    func value(of field: View.Field) -> View.FieldValue {
        switch field {
        case .frame: .frame(frame)
        case .alpha: .alpha(alpha)
        case .hidden: .hidden(hidden)
        case .superview: .superview(superview)
        case .subviews: .subviews(subviews)
        case .frameSetBy: .frameSetBy(frameSetBy)
        }
    }

    /// Sets the field `value` is of back to it.
    mutating func restore(_ value: View.FieldValue) {
        switch value {
        case .frame(let old): frame = old
        case .alpha(let old): alpha = old
        case .hidden(let old): hidden = old
        case .superview(let old): superview = old
        case .subviews(let old): subviews = old
        case .frameSetBy(let old): frameSetBy = old
        }
    }
}
