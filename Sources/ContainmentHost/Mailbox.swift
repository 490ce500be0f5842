/// An actor's bounded mailbox: mail in order, and whether a drain is running — begun by the first mail into an idle
/// mailbox, ended when the mailbox is empty.
struct Mailbox<Mail> {
    /// Whether a task is draining the mailbox.
    enum State: Equatable {
        /// Empty, no drain running: the next mail begins one.
        case idle
        /// A drain runs; it takes mail until there is none.
        case draining
    }

    let capacity: Int
    private(set) var state = State.idle
    private var mail: [Mail] = []
    private var head = 0

    init(capacity: Int) {
        self.capacity = max(1, capacity)
    }

    /// Mail waiting to be taken.
    var count: Int { mail.count - head }
    var isFull: Bool { count >= capacity }

    /// Queues `mail`; `true` when the mailbox was idle, so the caller begins a drain (and the mailbox is draining).
    mutating func post(_ mail: Mail) -> Bool {
        self.mail.append(mail)
        guard state == .idle else { return false }
        state = .draining
        return true
    }

    /// The next mail for the drain; `nil` when there is none, and the mailbox is idle again.
    mutating func next() -> Mail? {
        guard head < mail.count else {
            mail.removeAll(keepingCapacity: false)
            head = 0
            state = .idle
            return nil
        }
        let next = mail[head]
        head += 1
        // Taken mail is dropped in bulk, once it is half of what is held: no shifting at every take.
        if head >= 256, head * 2 >= mail.count {
            mail.removeFirst(head)
            head = 0
        }
        return next
    }
}
