import ContainmentConfig
import ContainmentBus
import ContainmentModel

/// Commands waiting for controllers' code to answer their questions (SPEC §15, answers from controller code).
///
/// A command that meets a question to code that answers it is applied again once every question it asked is
/// answered, or taken as answered with nothing at its deadline (`answerTimeoutMs` after it first asked): the model
/// judges it with the answers, in the same transaction, against the state at that moment. Only its sender waits:
/// the sender's later commands queue behind it, in order, while everyone else's go on — so a slow or stalled host
/// holds up only the commands whose outcome depends on its code, and code that is asked while its own command is on
/// the way is never deadlocked behind the command that asks it.
struct AnswerWaits {
    /// Whose commands keep their order among themselves: a client (its client id, else its connection), a
    /// controller a host acts as, or the supervisor itself (topology, timers).
    enum Sender: Hashable {
        case client(String)
        case connection([UInt8])
        case controller(ControllerID)
        case supervisor
    }

    /// A command as ``SupervisorCore/submit(_:encoded:from:requestID:clientID:resumed:)`` takes it.
    struct Submission {
        var commands: ReceivedCommands
        var sender: [UInt8]?
        var requestID: UInt64
        var clientID: String
        /// The transition a supervisor's timer completes with it: dropped, not applied, once that no longer runs.
        var completes: RunningTransition?
    }

    /// A command whose questions are out: the answers so far, and the ids of the questions still asked.
    struct Waiting {
        var submission: Submission
        var from: Sender
        var given: [Question: Answer]
        var asked: Set<UInt64>
        var deadline: ContinuousClock.Instant
    }

    /// The answers a command is applied again with, and its deadline.
    struct Resumed {
        var given: [Question: Answer]
        var deadline: ContinuousClock.Instant
    }

    /// The commands waiting, by the order they began to.
    private(set) var waiting: [UInt64: Waiting] = [:]
    /// Each question out: the waiting command, the question, the host asked.
    private(set) var questions: [UInt64: (command: UInt64, question: Question, host: String)] = [:]
    /// Commands behind a waiting one of the same sender, oldest first.
    private var queued: [Sender: [Submission]] = [:]
    private var nextID: UInt64 = 1
    /// Which kinds' code answers which questions, as the hosts' Hellos said (the union over hosts), and no answers:
    /// what a command is first applied with.
    var base = Answers()

    var isEmpty: Bool { waiting.isEmpty }
    /// Commands waiting for answers, and those queued behind them.
    var waitingCount: Int { waiting.count + queued.values.map(\.count).reduce(0, +) }

    /// Whether `sender`'s next command must wait behind one of its own.
    func holds(_ sender: Sender) -> Bool {
        !waiting.isEmpty && (queued[sender] != nil || waiting.values.contains { $0.from == sender })
    }

    mutating func enqueue(_ submission: Submission, from sender: Sender) {
        queued[sender, default: []].append(submission)
    }

    /// The next command `sender` queued, once none of its own waits.
    mutating func dequeue(from sender: Sender) -> Submission? {
        guard !waiting.values.contains(where: { $0.from == sender }), var list = queued[sender], !list.isEmpty else {
            return nil
        }
        let next = list.removeFirst()
        queued[sender] = list.isEmpty ? nil : list
        return next
    }

    /// A question id, and a command id for the waiting table.
    mutating func makeID() -> UInt64 {
        defer { nextID += 1 }
        return nextID
    }

    mutating func wait(_ command: Waiting, id: UInt64, asking: [(id: UInt64, question: Question, host: String)]) {
        waiting[id] = command
        for asked in asking { questions[asked.id] = (id, asked.question, asked.host) }
    }

    /// Records `answer` to question `id` for its command.
    mutating func answer(_ id: UInt64, with answer: Answer) {
        guard let asked = questions.removeValue(forKey: id) else { return }
        waiting[asked.command]?.asked.remove(id)
        waiting[asked.command]?.given[asked.question] = answer
    }

    /// The commands due (answered, or their deadline passed: what is still out is taken as nothing), removed, oldest
    /// first.
    mutating func takeDue(at now: ContinuousClock.Instant) -> [Waiting] {
        let due = waiting.filter { $0.value.asked.isEmpty || now >= $0.value.deadline }.keys.sorted()
        return due.compactMap { id in
            guard var command = waiting.removeValue(forKey: id) else { return nil }
            for question in command.asked {
                if let asked = questions.removeValue(forKey: question) { command.given[asked.question] = .timedOut }
            }
            command.asked = []
            return command
        }
    }

    /// The earliest moment a waiting command is due (now, when one is answered).
    func nextDue(now: ContinuousClock.Instant) -> ContinuousClock.Instant? {
        waiting.values.map { $0.asked.isEmpty ? now : $0.deadline }.min()
    }

    /// A resend of a command that waits (or is queued): it is answered once applied, to `peer`. False when none is.
    mutating func resent(client: String, requestID: UInt64, from peer: [UInt8]) -> Bool {
        guard !client.isEmpty else { return false }
        if let id = waiting.first(where: {
            $0.value.submission.clientID == client && $0.value.submission.requestID == requestID
        })?.key {
            waiting[id]?.submission.sender = peer
            return true
        }
        for (sender, list) in queued {
            if let index = list.firstIndex(where: { $0.clientID == client && $0.requestID == requestID }) {
                queued[sender]?[index].sender = peer
                return true
            }
        }
        return false
    }
}
