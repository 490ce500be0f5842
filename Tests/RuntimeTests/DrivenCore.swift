@testable import ContainmentConfig
@testable import ContainmentRuntime

/// A ``SupervisorCore`` driven as its loop drives it, for the core's tests: each input handled at the time of a
/// manual clock, the actions it returns gathered into a step until ``take()`` hands the step over (the loop's
/// ``SupervisorStep``). The core's properties read through it.
@dynamicMemberLookup
struct DrivenCore {
    var core: SupervisorCore
    let clock: SupervisorCoreTests.ManualClock
    private var step = SupervisorStep()

    init(_ core: SupervisorCore, clock: SupervisorCoreTests.ManualClock) {
        self.core = core
        self.clock = clock
    }

    subscript<Value>(dynamicMember path: WritableKeyPath<SupervisorCore, Value>) -> Value {
        get { core[keyPath: path] }
        set { core[keyPath: path] = newValue }
    }

    subscript<Value>(dynamicMember path: KeyPath<SupervisorCore, Value>) -> Value { core[keyPath: path] }

    /// Appended to the step where the core emits them, as the loop's driver has it do.
    mutating func handle(_ input: SupervisorInput) { core.handle(input, at: clock.time, into: &step) }

    mutating func tick() { core.tick(at: clock.time, into: &step) }

    /// The step gathered since the last one, as the loop takes it to carry it out.
    mutating func take() -> SupervisorStep {
        core.stepTaken()
        defer { step = SupervisorStep() }
        return step
    }

    mutating func expect(hosts: [String]) { core.expect(hosts: hosts) }

    func isBacklogged(_ host: String) -> Bool { core.isBacklogged(host) }

    func nextWakeUp() -> Duration { core.nextWakeUp(at: clock.now) }
}

extension SupervisorReply {
    /// The bytes of an answer as a checkpoint recorded it.
    var recorded: [UInt8]? {
        if case .recorded(let bytes, _) = self { bytes } else { nil }
    }
}
