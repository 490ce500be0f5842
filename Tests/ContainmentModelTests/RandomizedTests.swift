import ContainmentWorkload
import Foundation
import Testing

@testable import ContainmentModel

/// Thousands of random commands, valid and invalid, checked after every step. A failure names its seed and step;
/// `CONTAINMENT_SEED=N swift test --filter RandomizedTests` replays that seed alone.
@Suite struct RandomizedTests {
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
    }

    static func run(seed: UInt64, manual: Bool) -> Tally {
        var generator = RandomCommands(seed: seed, manual: manual)
        generator.invocations = true
        var state = ContainmentState()
        var checker = InvariantChecker()
        var tally = Tally()
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
                let events = try state.apply(batch: requests)
                tally.accepted += 1
                tally.events += events.count
                tally.messages += events.count { if case .messageSent = $0 { true } else { false } }
                tally.rotations += events.count { if case .orientationChanged = $0 { true } else { false } }
                tally.handledInputs += events.count {
                    if case .inputDelivered(_?, _, _, _, _, _) = $0 { true } else { false }
                }
                tally.inputs += events.count { if case .inputDelivered = $0 { true } else { false } }
                tally.askedByOthers += events.count {
                    if case .navigationWillShow(let c, _, .controller(let asker)) = $0 { asker != c } else { false }
                }
                tally.delegateCallbacks += events.count { if case .delegateCallback = $0 { true } else { false } }
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

    /// Without manual forwarding, every controller's appearance must equal whether it is on screen, after every step.
    @Test(arguments: seeds)
    func automaticForwardingTracksTheScreen(seed: UInt64) {
        let tally = Self.run(seed: seed, manual: false)
        #expect(tally.accepted > Self.steps / 5, "too few accepted commands to mean much: \(tally)")
    }
}
