import ContainmentTestSupport
import ContainmentWorkload
import Foundation
import Testing

@testable import ContainmentModel

/// Thousands of random commands, valid and invalid, checked after every step. A failure names its seed and step;
/// `CONTAINMENT_SEED=N swift test --filter RandomizedTests` replays that seed alone. Serialized: its cases are
/// CPU-bound and synchronous, so run side by side they would take every thread of the test process's cooperative pool
/// (two on this machine) for a minute, and the runtime tests' in-process supervisors could not start meanwhile.
@Suite(.serialized, .cpuBound) struct RandomizedTests {
    static let steps = 2_500
    static var seeds: [UInt64] {
        if let text = ProcessInfo.processInfo.environment["CONTAINMENT_SEED"], let seed = UInt64(text) { return [seed] }
        return Array(1...12)
    }

    struct Tally {
        var accepted = 0
        var rejected = 0
        var events = 0
        var messages = 0
        var rotations = 0
        var handledInputs = 0
        var inputs = 0
        /// SPEC §15: switches a child asked for, delegates told, taps on bar controls.
        var askedByOthers = 0
        var delegateCallbacks = 0
        var barTaps = 0
        /// SPEC §16: More tabs built, and tabs shown in one.
        var moreTabs = 0
        var shownInMore = 0
        /// SPEC §15: questions asked of controllers' code, and those that timed out.
        var questions = 0
        var timedOut = 0
        /// SPEC §16: constraints added and removed, and refused as unsatisfiable.
        var constraintsAdded = 0
        var constraintsRemoved = 0
        var unsatisfiable = 0
    }

    /// Every content controller's code answers every question (SPEC §15) in the runs that ask.
    static let answering = Answers(answering: [.content: Set(Question.Name.allCases)])

    /// Applies `requests` as the supervisor does when controllers' code answers: asks `generator` for each question
    /// met and applies again with the answers, until the transaction commits or is refused.
    static func applyAsking(
        _ requests: [Request],
        to state: inout ContainmentState,
        generator: inout RandomCommands,
        tally: inout Tally
    ) throws(BatchError) -> [Event] {
        var answers = Self.answering
        while true {
            switch try state.apply(batch: requests, answers: answers) {
            case .committed(let events): return events
            case .unanswered(let questions):
                for question in questions {
                    let answer = generator.answer(question, in: state)
                    tally.questions += 1
                    if answer.timedOut { tally.timedOut += 1 }
                    answers.given[question] = answer
                }
            }
        }
    }

    static func run(
        seed: UInt64,
        manual: Bool,
        asking: Bool = false,
        constraints: Bool = false,
        moreTabs: Bool = false
    ) -> Tally {
        var generator = RandomCommands(seed: seed, manual: manual)
        generator.invocations = true
        generator.constraints = constraints
        generator.moreTabs = moreTabs
        var state = ContainmentState()
        var checker = InvariantChecker()
        var tally = Tally()
        if moreTabs {
            // A tab container with seven tabs on screen to start from; the random commands take it from there.
            let tabs = (0..<7).map { ControllerID("c\($0)") }
            let setup: [Request] =
                [.system(.create("tab0", kind: .tab))] + tabs.map { .system(.create($0, kind: .content)) } + [
                    .system(.attachWindow("w0", root: "tab0", size: Size(width: 1024, height: 768))),
                    .by("tab0", .setChildren("tab0", tabs)),
                ]
            do {
                _ = checker.follow(try state.apply(batch: setup), properties: { _ in nil }, presentation: { _ in nil })
            } catch {
                Issue.record("the More tab's setup was refused: \(error)")
            }
        }
        for step in 0..<steps {
            let requests = generator.next(in: state)
            guard !requests.isEmpty else { continue }
            // Every other step keeps a copy of the state, which shares its boxes, so a change copies them; the steps
            // between keep only plain fields, so the state changes its boxes in place and a rejection undoes that.
            let before: ContainmentState? = step % 2 == 0 ? state : nil
            let beforeFields = before == nil ? FieldSnapshot(state) : nil
            let context =
                "seed \(seed) (manual: \(manual)) step \(step): \(requests.map { "\($0.command) by \($0.by)" })"
            do {
                let events =
                    asking
                    ? try Self.applyAsking(requests, to: &state, generator: &generator, tally: &tally)
                    : try state.apply(batch: requests)
                tally.accepted += 1
                tally.events += events.count
                tally.messages += events.count { if case .messageSent = $0 { true } else { false } }
                tally.rotations += events.count { if case .orientationChanged = $0 { true } else { false } }
                tally.handledInputs += events.count {
                    if case .inputDelivered(_?, _, _, _, _, _) = $0 { true } else { false }
                }
                tally.inputs += events.count { if case .inputDelivered = $0 { true } else { false } }
                tally.constraintsAdded += events.count { if case .constraintAdded = $0 { true } else { false } }
                tally.constraintsRemoved += events.count { if case .constraintRemoved = $0 { true } else { false } }
                tally.askedByOthers += events.count {
                    if case .navigationWillShow(let c, _, .controller(let asker)) = $0 { asker != c } else { false }
                }
                tally.delegateCallbacks += events.count { if case .delegateCallback = $0 { true } else { false } }
                tally.moreTabs += events.count {
                    if case .controllerCreated(let id, _) = $0 { id.moreTab != nil } else { false }
                }
                tally.shownInMore += events.count {
                    if case .viewInserted(let view, let superview, _) = $0 {
                        view.isRoot && superview.isRoot && superview.owner.moreTab != nil
                            && view.owner.moreTab == nil
                    } else {
                        false
                    }
                }
                tally.barTaps += events.count {
                    guard case .inputDelivered(_, _, _, "tap", let view?, _) = $0, let name = view.name else {
                        return false
                    }
                    return name == "back" || name == "edit" || name.hasPrefix("item-") || name.hasPrefix("right-")
                        || name == "showPrimary"
                }
                let problems =
                    checker.follow(
                        events,
                        properties: {
                            before?.controllers[$0]?.properties ?? beforeFields?.controllers[$0]?.properties
                        },
                        presentation: { state.presentations[$0] }
                    )
                    + checker.check(state, autoOnly: !manual)
                if !problems.isEmpty {
                    Issue.record("\(context)\nevents: \(events.map(\.description))\nproblems: \(problems)")
                    return tally
                }
            } catch {
                tally.rejected += 1
                if error.error.code == .unsatisfiableConstraints { tally.unsatisfiable += 1 }
                let changed = before.map { state != $0 } ?? (FieldSnapshot(state) != beforeFields)
                if changed {
                    Issue.record("\(context): rejected with \(error) but the state changed")
                    return tally
                }
            }
        }
        return tally
    }

    @Test(arguments: seeds)
    func manualAndAutomaticMixed(seed: UInt64) {
        let tally = Self.run(seed: seed, manual: true)
        #expect(tally.accepted > Self.steps / 5, "too few accepted commands to mean much: \(tally)")
        #expect(tally.rejected > Self.steps / 10, "too few rejections to mean much: \(tally)")
        #expect(tally.messages > Self.steps / 200, "too few messages to mean much: \(tally)")
        #expect(tally.rotations > 1, "too few rotations to mean much: \(tally)")
        // Every input's chain is checked, handled or not (the directed InputTests cover the handlers).
        #expect(tally.inputs > Self.steps / 100, "too few inputs to mean much: \(tally)")
    }

    /// SPEC §15 is drawn too: over all the seeds, children drive their containers, delegates hear of switches, taps
    /// land on bar controls.
    @Test func everydayContainersAreDrawn() {
        var total = Tally()
        for seed in Self.seeds {
            let tally = Self.run(seed: seed, manual: true)
            total.askedByOthers += tally.askedByOthers
            total.delegateCallbacks += tally.delegateCallbacks
            total.barTaps += tally.barTaps
        }
        #expect(total.askedByOthers > 0 && total.delegateCallbacks > 0 && total.barTaps > 0, "\(total)")
    }

    /// SPEC §16 under load: tab containers with more tabs than their bars show, tabs selected through More (by index,
    /// by controller, by taps on the list's rows and More's item), More coming and going as children change — every
    /// step checked, a tab's root view in its container's More navigation the one place a child's root view lies
    /// outside its parent's views.
    @Test func moreTabsAmongEverythingElse() {
        var total = Tally()
        for seed in Self.seeds.prefix(6) {
            let tally = Self.run(seed: seed, manual: true, moreTabs: true)
            #expect(tally.accepted > Self.steps / 6, "seed \(seed): too few accepted commands to mean much: \(tally)")
            total.moreTabs += tally.moreTabs
            total.shownInMore += tally.shownInMore
        }
        #expect(total.moreTabs > 5 && total.shownInMore > 5, "too few More tabs to mean much: \(total)")
    }

    /// SPEC §15: content controllers' code answers loadView, viewWillLayoutSubviews and the page questions with random
    /// commands (some refused, some late): every step is still checked, and a question's refusal changes nothing.
    @Test(arguments: seeds.prefix(6))
    func controllersCodeAnswers(seed: UInt64) {
        let tally = Self.run(seed: seed, manual: true, asking: true)
        #expect(tally.accepted > Self.steps / 5, "too few accepted commands to mean much: \(tally)")
        #expect(tally.questions > Self.steps / 10 && tally.timedOut > 0, "too few questions to mean much: \(tally)")
    }

    /// SPEC §16 under load: constraints drawn among everything else (satisfiable and not, removed by `unconstrain` and
    /// with their views), every step checked from the events alone.
    @Test func constraintsAmongEverythingElse() {
        var refused = 0
        for seed in Self.seeds.prefix(6) {
            let tally = Self.run(seed: seed, manual: true, constraints: true)
            #expect(tally.accepted > Self.steps / 5, "seed \(seed): too few accepted commands to mean much: \(tally)")
            #expect(
                tally.constraintsAdded > 10 && tally.constraintsRemoved > 5,
                "seed \(seed): too few constraints to mean much: \(tally)"
            )
            refused += tally.unsatisfiable
        }
        #expect(refused > 5, "too few constraints refused as unsatisfiable: \(refused)")
    }

    /// Without manual forwarding, every controller's appearance must equal whether it is on screen, after every step.
    @Test(arguments: seeds)
    func automaticForwardingTracksTheScreen(seed: UInt64) {
        let tally = Self.run(seed: seed, manual: false)
        #expect(tally.accepted > Self.steps / 5, "too few accepted commands to mean much: \(tally)")
    }
}
