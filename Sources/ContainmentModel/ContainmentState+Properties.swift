extension ContainmentState {
    // MARK: SPEC §13 — properties and editing

    /// `setProperties` by the controller itself or the system: the changes in order, then one `propertiesChanged`
    /// naming the properties whose value changed (none changed: no event).
    mutating func setProperties(
        _ id: ControllerID,
        _ changes: [PropertyChange],
        by party: Party
    ) throws(ContainmentError) {
        let record = try controller(id)
        guard party == .controller(id) || party == .system else {
            throw ContainmentError(
                .unauthorized,
                deferred: "\(party) may not set the properties of \(id); only \(id) or the system may."
            )
        }
        var properties = record.properties
        var changed: [String] = []
        var named: Set<String> = []
        for change in changes {
            if let problem = change.problem { throw ContainmentError(.malformed, deferred: "\(id): \(problem)") }
            guard named.insert(change.name).inserted else {
                throw ContainmentError(.malformed, deferred: "set-properties of \(id) names \(change.name) twice.")
            }
            let before = properties
            change.apply(to: &properties)
            if properties != before { changed.append(change.name) }
        }
        guard !changed.isEmpty else { return }
        updateController(id, .properties) { $0.properties = properties }
        emit(.propertiesChanged(id, changed: changed, properties: properties))
        // The top of a navigation stack gave its bar new items (SPEC §15).
        if changed.contains("navigationItem"), let parent = record.parent, controllers[parent]?.children.last == id {
            syncBarControls(parent)
        }
    }

    /// `setEditing(C, editing, animated)` by C or its parent: C receives `setEditing`, then `editingChanged`. Not
    /// forwarded to children (UIKit does not either). The same value again: nothing happens.
    mutating func setEditing(
        _ id: ControllerID,
        _ editing: Bool,
        animated: Bool,
        by party: Party
    ) throws(ContainmentError) {
        let record = try controller(id)
        let allowed = party == .controller(id) || record.parent.map { party == .controller($0) } == true
        guard allowed else {
            let parent = record.parent.map { " or its parent \($0)" } ?? ""
            throw ContainmentError(
                .unauthorized,
                deferred: "\(party) may not set the editing state of \(id); only \(id)\(parent) may."
            )
        }
        guard record.properties.editing != editing else { return }
        updateController(id, .properties) { $0.properties.editing = editing }
        emit(.setEditing(id, editing: editing, animated: animated))
        emit(.editingChanged(id, editing: editing))
    }

    /// What a navigation controller's bar shows (SPEC §13): the top's `navigationItem.title`, else its `title`; as
    /// back, the previous controller's `navigationItem.backTitle`, else its navigation item's title, else its title.
    public func navigationBar(_ navigation: ControllerID) -> (title: String?, back: String?) {
        let stack = controllers[navigation]?.children ?? []
        return NavigationItem.bar(
            top: stack.last.flatMap { controllers[$0]?.properties },
            previous: stack.count > 1 ? controllers[stack[stack.count - 2]]?.properties : nil
        )
    }
}

extension NavigationItem {
    /// The bar's title and back title for a stack whose top and previous controllers have these properties: the one
    /// rule `navigationBar` and the clients' trees share.
    public static func bar(
        top: ControllerProperties?,
        previous: ControllerProperties?
    ) -> (title: String?, back: String?) {
        let title = top.flatMap { $0.navigationItem.title ?? $0.title }
        let back = previous.flatMap { $0.navigationItem.backTitle ?? $0.navigationItem.title ?? $0.title }
        return (title, back)
    }
}
