extension ContainmentState {
    // MARK: Answers from controller code (SPEC §15)

    /// The answer to `question` for this transaction: the one given, or `nil` — the model answers as it always has —
    /// when the controller's code does not answer such questions, or has not answered yet (then the transaction is
    /// unanswered and will be applied again).
    mutating func answer(_ question: Question) -> Answer? {
        guard let asking else { return nil }
        if !asking.answers.given.isEmpty, let answer = asking.answers.given[question] {
            return asking.applying.contains(question) ? nil : answer
        }
        guard !asking.answers.answeringList.isEmpty, let kind = controllers[question.controller]?.kind,
            asking.answers.answers(question.name, kind: kind)
        else { return nil }
        if !asking.unanswered.contains(question) { self.asking?.unanswered.append(question) }
        return nil
    }

    /// Asks `question` and applies its answer's commands, as the controller, where the callback stands: a timed-out
    /// answer emits `answerTimedOut`; commands the model refuses are taken back together, a `ruleViolation` tells
    /// why, and the transaction goes on. Returns the answer (`nil`: the model's own).
    @discardableResult
    mutating func ask(_ question: Question) -> Answer? {
        guard let answer = answer(question) else { return nil }
        if answer.timedOut {
            emit(.answerTimedOut(question.controller, question: question.name))
            return answer
        }
        guard !answer.commands.isEmpty else { return answer }
        asking?.applying.insert(question)
        defer { asking?.applying.remove(question) }
        let mark = (undo: journal.undo.count, events: journal.events.count)
        for command in answer.commands {
            let request = Request(command, by: .controller(question.controller))
            do {
                try perform(request)
            } catch {
                rollBack(to: mark)
                emit(violation(of: request, error: error))
                break
            }
        }
        return answer
    }
}
