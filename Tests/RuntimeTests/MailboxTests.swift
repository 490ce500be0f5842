import Testing

@testable import ContainmentHost

/// An actor's mailbox: its drain begins with the first mail into an idle mailbox, and ends, idle again, once the
/// mailbox is empty — mail in order, bounded.
@Suite struct MailboxTests {
    @Test func theFirstMailBeginsADrainWhichEndsWhenTheMailboxIsEmpty() {
        var mailbox = Mailbox<Int>(capacity: 2)
        #expect(mailbox.state == .idle)
        let first = mailbox.post(1)
        #expect(first, "an idle mailbox: the caller begins a drain")
        let second = mailbox.post(2)
        #expect(!second, "a drain runs: it takes this one too")
        #expect(mailbox.isFull && mailbox.state == .draining)
        var taken = [mailbox.next()]
        #expect(taken == [1] && !mailbox.isFull)
        let third = mailbox.post(3)
        #expect(!third)
        taken = [mailbox.next(), mailbox.next()]
        #expect(taken == [2, 3])
        #expect(mailbox.state == .draining, "still draining until the drain finds it empty")
        let empty = mailbox.next()
        #expect(empty == nil && mailbox.state == .idle)
        let fourth = mailbox.post(4)
        #expect(fourth, "idle again: the next mail begins a new drain")
    }

    @Test func mailKeepsItsOrderAcrossTheBulkDropOfTakenMail() {
        var mailbox = Mailbox<Int>(capacity: 10_000)
        var taken: [Int] = []
        for value in 0..<1_000 {
            _ = mailbox.post(value)
            if value % 3 == 0, let next = mailbox.next() { taken.append(next) }
        }
        while let next = mailbox.next() { taken.append(next) }
        #expect(taken == Array(0..<1_000))
        #expect(mailbox.count == 0 && mailbox.state == .idle)
    }
}
