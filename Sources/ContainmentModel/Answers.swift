/// A question the runtime asks a controller's code before it goes on (SPEC §15, answers from controller code).
public enum Question: Hashable, Sendable {
    /// `loadView` of the controller: the commands that build its views, before `viewDidLoad`.
    case loadView(ControllerID)
    /// `viewWillLayoutSubviews` of the controller, whose root view is now `size`: the commands that lay out its views
    /// and its children's root views, before the container's own layout and `viewDidLayoutSubviews`.
    case viewWillLayoutSubviews(ControllerID, size: Size)
    /// The page after `page`, asked of the page container's `dataSource`.
    case pageAfter(ControllerID, page: ControllerID, container: ControllerID)
    /// The page before `page`, asked of the page container's `dataSource`.
    case pageBefore(ControllerID, page: ControllerID, container: ControllerID)

    /// The kinds of question.
    public enum Name: String, CaseIterable, Hashable, Sendable {
        case loadView, viewWillLayoutSubviews, pageAfter, pageBefore
    }

    /// The controller whose code answers it.
    public var controller: ControllerID {
        switch self {
        case .loadView(let id), .viewWillLayoutSubviews(let id, _), .pageAfter(let id, _, _), .pageBefore(let id, _, _):
            id
        }
    }

    public var name: Name {
        switch self {
        case .loadView: .loadView
        case .viewWillLayoutSubviews: .viewWillLayoutSubviews
        case .pageAfter: .pageAfter
        case .pageBefore: .pageBefore
        }
    }
}

extension Question: CustomStringConvertible {
    /// `loadView(detail)`, `pageAfter(book) page=p1 container=pages`.
    public var description: String {
        switch self {
        case .loadView(let id): "\(name.rawValue)(\(id))"
        case .viewWillLayoutSubviews(let id, let size): "\(name.rawValue)(\(id)) size=\(size)"
        case .pageAfter(let id, let page, let container), .pageBefore(let id, let page, let container):
            "\(name.rawValue)(\(id)) page=\(page) container=\(container)"
        }
    }
}

/// What a controller's code answered: the commands it returns, issued as the controller in the transaction that
/// asked, and for a page question the page (`nil`: there is none).
public struct Answer: Hashable, Sendable {
    public var commands: [Command]
    public var page: ControllerID?
    /// No answer came within `answerTimeoutMs`: taken as nothing, and the event `answerTimedOut` names it.
    public var timedOut: Bool

    public init(commands: [Command] = [], page: ControllerID? = nil, timedOut: Bool = false) {
        self.commands = commands
        self.page = page
        self.timedOut = timedOut
    }

    /// Nothing returned.
    public static let nothing = Answer()
    /// No answer in time.
    public static let timedOut = Answer(timedOut: true)
}

/// What a transaction may learn from controllers' code: the answers given so far, and whose code answers what.
///
/// A question to a controller whose kind answers it and that has no answer yet leaves the transaction unanswered
/// (``ContainmentState/Applied/unanswered(_:)``); any other question is answered by the model as before (nothing,
/// the data source's `pageSequence`). Replaying a journal gives the recorded answers and no answering kinds.
public struct Answers: Sendable {
    public var given: [Question: Answer]
    /// For each kind whose code answers questions, which.
    public var answering: [Kind: Set<Question.Name>] {
        didSet { answeringList = answering.map { ($0.key, $0.value) } }
    }
    /// `answering` as a list, made once: a few kinds at most, compared rather than hashed at every load and layout.
    private(set) var answeringList: [(kind: Kind, questions: Set<Question.Name>)]

    public init(given: [Question: Answer] = [:], answering: [Kind: Set<Question.Name>] = [:]) {
        self.given = given
        self.answering = answering
        answeringList = answering.map { ($0.key, $0.value) }
    }

    /// Whether the code of a controller of `kind` answers `question`.
    func answers(_ question: Question.Name, kind: Kind) -> Bool {
        answeringList.contains { $0.kind == kind && $0.questions.contains(question) }
    }
}

/// A transaction's dealings with controllers' code while it is applied.
struct Asking: Sendable {
    var answers: Answers
    /// Questions met with no answer yet, in the order met.
    var unanswered: [Question] = []
    /// Answers being applied: a question met again while its own answer runs is answered nothing.
    var applying: Set<Question> = []
}
