import ContainmentModel

/// A form whose code answers the runtime's questions (SPEC §15): its `loadView` builds two subviews, `ID/header` and
/// `ID/body`, and its `viewWillLayoutSubviews` gives them their frames — the header 44 points high across the top,
/// the body the rest — so both are in the tree before `viewDidLoad`, and laid out before `viewDidLayoutSubviews`, in
/// the command that loaded or resized it. Registered as answering `loadView` and `viewWillLayoutSubviews`.
package struct FormBehavior: ControllerBehavior {
    /// The questions it answers.
    package static let questions: Set<Question.Name> = [.loadView, .viewWillLayoutSubviews]
    /// The header's height.
    static let headerHeight = 44.0

    package init() {}

    package mutating func handle(_ callback: Event, controller: ControllerRef) async {}

    package mutating func answer(_ question: Question, controller: ControllerRef) async -> Answer {
        Self.answer(question, for: controller.id)
    }

    /// Its code's answer, a function of the question alone (the simulator's hosts answer with it too).
    package static func answer(_ question: Question, for id: ControllerID) -> Answer {
        let header = ViewID(owner: id, name: "header")
        let body = ViewID(owner: id, name: "body")
        switch question {
        case .loadView:
            return Answer(commands: [.addSubview(header, to: .root(id)), .addSubview(body, to: .root(id))])
        case .viewWillLayoutSubviews(_, let size):
            let top = min(Self.headerHeight, size.height)
            return Answer(commands: [
                .setFrame(header, Rect(x: 0, y: 0, width: size.width, height: top)),
                .setFrame(body, Rect(x: 0, y: top, width: size.width, height: size.height - top)),
            ])
        default:
            return .nothing
        }
    }
}

/// A page container's data source whose code names the pages (SPEC §15, seed 000's
/// `pageViewController:viewControllerAfterViewController:`): the page after `ID-pN` is `ID-pN+1` (up to
/// ``lastPage``), the one before it `ID-pN-1` (from 1), each created by the answer if it does not exist yet. Set it as
/// a page container's `dataSource` and show `ID-p1`: each `next` or swipe to the left turns to a page its code names.
/// Registered as answering `pageAfter` and `pageBefore`.
package struct BookBehavior: ControllerBehavior {
    /// The questions it answers.
    package static let questions: Set<Question.Name> = [.pageAfter, .pageBefore]
    /// The last page it names.
    static let lastPage = 999

    package init() {}

    package mutating func handle(_ callback: Event, controller: ControllerRef) async {}

    package mutating func answer(_ question: Question, controller: ControllerRef) async -> Answer {
        let prefix = "\(controller.id.rawValue)-p"
        let page: ControllerID
        switch question {
        case .pageAfter(_, let current, _), .pageBefore(_, let current, _):
            page = current
        default:
            return .nothing
        }
        // A page it did not name (another controller shown first): no neighbour.
        guard page.rawValue.hasPrefix(prefix), let number = Int(page.rawValue.dropFirst(prefix.count)) else {
            return .nothing
        }
        let next = question.name == .pageAfter ? number + 1 : number - 1
        guard (1...Self.lastPage).contains(next) else { return .nothing }
        let neighbour = ControllerID("\(prefix)\(next)")
        // Created by the answer unless it exists: the committed tree is the one to ask.
        let exists = (try? await controller.snapshot().controller(neighbour)) != nil
        return Answer(commands: exists ? [] : [.create(neighbour, kind: .content)], page: neighbour)
    }
}
