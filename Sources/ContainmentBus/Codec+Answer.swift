import ContainmentModel

/// Questions to controllers' code and their answers (SPEC §15) on the wire and in the journal.
extension Containment_V1_Question {
    public init(_ question: Question, id: UInt64 = 0, kind: Kind? = nil) {
        self.init()
        self.id = id
        name = question.name.rawValue
        controller = question.controller.rawValue
        self.kind = kind?.rawValue ?? ""
        switch question {
        case .loadView: break
        case .viewWillLayoutSubviews(_, let size): self.size = Containment_V1_Size(size)
        case .pageAfter(_, let page, let container), .pageBefore(_, let page, let container):
            self.page = page.rawValue
            self.container = container.rawValue
        }
    }

    /// The question it carries.
    public func model() throws(ContainmentError) -> Question {
        let id = ControllerID(controller)
        guard !controller.isEmpty else { throw .malformed("A question names no controller.") }
        switch Question.Name(rawValue: name) {
        case .loadView?: return .loadView(id)
        case .viewWillLayoutSubviews?: return .viewWillLayoutSubviews(id, size: size.model)
        case .pageAfter?, .pageBefore?:
            guard !page.isEmpty, !container.isEmpty else {
                throw .malformed("A \(name) question names no page or no container.")
            }
            return name == "pageAfter"
                ? .pageAfter(id, page: ControllerID(page), container: ControllerID(container))
                : .pageBefore(id, page: ControllerID(page), container: ControllerID(container))
        case nil:
            throw .malformed("\"\(name.prefix(64))\" is not a question the runtime asks.")
        }
    }
}

extension Containment_V1_Answer {
    /// A host's answer to question `id` of `controller`: its commands, issued as the controller.
    public init(id: UInt64, controller: ControllerID, _ answer: Answer) {
        self.init()
        self.id = id
        self.controller = controller.rawValue
        commands = answer.commands.map { WireCommand(Request($0, by: .controller(controller))) }
        page = answer.page?.rawValue ?? ""
    }

    /// The answer it carries: each command must be issued as the controller that answers, or by no one (then it is).
    public func model() throws(ContainmentError) -> Answer {
        var answer = Answer(page: page.isEmpty ? nil : ControllerID(page))
        for (index, wire) in commands.enumerated() {
            let request = try wire.request()
            guard request.by == .natural || request.by == .controller(ControllerID(controller)) else {
                throw ContainmentError(
                    .unauthorized,
                    "Command \(index) of the answer of \(controller) is issued by \(request.by); an answer's commands "
                        + "are its controller's."
                )
            }
            answer.commands.append(request.command)
        }
        return answer
    }
}

extension Containment_V1_GivenAnswer {
    public init(_ question: Question, _ answer: Answer) {
        self.init()
        self.question = Containment_V1_Question(question)
        commands = answer.commands.map { WireCommand(Request($0, by: .controller(question.controller))) }
        page = answer.page?.rawValue ?? ""
        timedOut = answer.timedOut
    }

    /// The question and the answer it records.
    public func model() throws(ContainmentError) -> (Question, Answer) {
        let question = try self.question.model()
        var answer = Answer(page: page.isEmpty ? nil : ControllerID(page), timedOut: timedOut)
        for wire in commands { answer.commands.append(try wire.request().command) }
        return (question, answer)
    }
}
