extension ContainmentState {
    /// The party the rules expect to issue `command` now: the one a request without an explicit requester acts as.
    ///
    /// The system for lifecycle commands; the parent for containment, transitions, appearance and a child's root
    /// frame; a window for its root's frame; the owner for a view's other properties and its subviews.
    public func naturalParty(for command: Command) -> Party {
        func parentOr(_ id: ControllerID, _ fallback: Party) -> Party {
            controllers[id]?.parent.map { .controller($0) } ?? fallback
        }
        switch command {
        case .create, .destroy, .attachWindow, .resizeWindow, .memoryWarning, .rotate, .input, .invoke:
            return .system
        case .addChild(_, let parent), .didMove(_, let parent):
            return .controller(parent)
        case .willMove(let child, _):
            return parentOr(child, .system)
        case .removeFromParent(let child):
            return parentOr(child, .controller(child))
        case .loadView(let id):
            return .controller(id)
        case .addSubview(_, let superview, _):
            return .controller(superview.owner)
        case .removeFromSuperview(let view):
            return view.isRoot ? parentOr(view.owner, .controller(view.owner)) : .controller(view.owner)
        case .setFrame(let view, _):
            guard view.isRoot else { return .controller(view.owner) }
            if let window = window(rootedAt: view.owner) { return parentOr(view.owner, .window(window.id)) }
            return parentOr(view.owner, .system)
        case .setAlpha(let view, _), .setHidden(let view, _):
            return .controller(view.owner)
        case .beginAppearance(let id, _, _), .endAppearance(let id):
            return parentOr(id, .system)
        case .transition(let parent, _, _, _, _), .completeTransition(let parent, _, _):
            return .controller(parent)
        case .present(_, let presenter, _, _, _, _):
            return .controller(presenter)
        case .dismiss(let id, _):
            return presentations[id].map { .controller($0.presenter) } ?? .controller(id)
        case .push(_, let container, _), .pop(let container, _), .popTo(_, let container, _),
            .popToRoot(let container, _),
            .setStack(let container, _, _), .setChildren(let container, _), .select(let container, _, _),
            .setMenuVisible(let container, _, _), .setPages(let container, _, _, _), .nextPage(let container),
            .previousPage(let container), .setSplitMode(let container, _):
            return .controller(container)
        case .send(let from, _, _, _), .action(let from, _, _):
            return .controller(from)
        case .setProperties(let id, _), .setEditing(let id, _, _), .forwardSizeTransition(let id, _, _):
            return .controller(id)
        case .constrain(let owner, _, _), .unconstrain(let owner, _):
            return .controller(owner)
        }
    }
}
