import ContainmentBus
import ContainmentModel

/// Which behavior runs each kind of controller in a host.
public struct BehaviorRegistry: Sendable {
    /// Each kind's maker, given the controller it makes a behavior for.
    private var makers: [String: @Sendable (ControllerRef) -> any ControllerBehavior]
    /// The verbs each kind exposes (`ctl invoke`), as the host registers them.
    public private(set) var verbs: [String: [String]] = [:]
    /// The questions each kind's code answers (``ControllerBehavior/answer(_:controller:)``, SPEC §15), as the host
    /// registers them: the supervisor asks only these.
    public private(set) var answering: [String: Set<Question.Name>] = [:]
    /// The verbs each container kind requires of its children (SPEC §16, seed 000's protocol for its children): the
    /// supervisor refuses a child whose kind registered none of them (`protocolMismatch`).
    public private(set) var requires: [String: [String]] = [:]
    /// How to list each typed-method kind's methods (its distributed actor's), as the host registers them.
    private var methods: [String: @Sendable () async -> [MethodDescription]] = [:]

    /// The standard kinds: `content`, and the standard containers (navigation, tab, page, split, menu), whose rules
    /// are the supervisor's; the navigation, tab, menu and page containers answer their verbs (`push`, `select`,
    /// `next`…, SPEC §15) by issuing the command. Register the app's own kinds beside them.
    public init() {
        makers = [Kind.content.rawValue: { _ in ContentBehavior() }]
        for (kind, verbs) in ContainerVerbs.verbs {
            register(kind, verbs: verbs) { ContainerVerbs() }
        }
    }

    /// What `containment host` runs: the standard kinds, the `stack` example container, the `slow` and `busy`
    /// examples, seed 002's `editor` and `editorDelegate`, seed 003's `master` (it drives the containers above it), and
    /// `counter` (typed methods), and `form` and `book`, whose code answers the runtime's questions (SPEC §15).
    package static var builtIn: BehaviorRegistry {
        var registry = BehaviorRegistry()
        registry.register("stack", verbs: StackBehavior.verbs) { StackBehavior() }
        registry.register("slow") { SlowBehavior() }
        registry.register("busy") { BusyBehavior() }
        registry.register("editor") { EditorBehavior() }
        registry.register("editorDelegate") { EditorDelegateBehavior() }
        registry.register("master", verbs: MasterBehavior.verbs) { MasterBehavior() }
        registry.register("form", answering: FormBehavior.questions) { FormBehavior() }
        registry.register("book", answering: BookBehavior.questions) { BookBehavior() }
        registry.register("counter", verbs: CounterController.verbs, distributed: CounterController.init(controller:))
        return registry
    }

    /// Runs controllers of `kind` with what `make` makes, whose code answers `verbs` (its `verbInvoked` callbacks) and
    /// the questions `answering` (its ``ControllerBehavior/answer(_:controller:)``: `loadView`,
    /// `viewWillLayoutSubviews`, `pageAfter`, `pageBefore`).
    public mutating func register(
        _ kind: Kind,
        verbs: [String] = [],
        answering: Set<Question.Name> = [],
        _ make: @escaping @Sendable () -> any ControllerBehavior
    ) {
        register(kind, verbs: verbs, answering: answering, controller: { _ in make() })
    }

    mutating func register(
        _ kind: Kind,
        verbs: [String],
        answering: Set<Question.Name> = [],
        controller make: @escaping @Sendable (ControllerRef) -> any ControllerBehavior
    ) {
        makers[kind.rawValue] = make
        methods[kind.rawValue] = nil
        self.verbs[kind.rawValue] = verbs.isEmpty ? nil : verbs
        self.answering[kind.rawValue] = answering.isEmpty ? nil : answering
    }

    /// Declares the verbs a container of `kind` requires of its children (SPEC §16): every child's kind must
    /// register each of them (`register(_:verbs:…)`), or adding it is refused `protocolMismatch` naming the missing
    /// ones. Register the kind itself as well.
    public mutating func require(_ verbs: [String], ofChildrenOf kind: Kind) {
        requires[kind.rawValue] = verbs.isEmpty ? nil : verbs
    }

    /// The kinds it runs: the supervisor places a controller of a custom kind only on a host that registered it.
    public var kinds: [Kind] { makers.keys.sorted().map { Kind($0) } }

    /// Every kind it runs, with its verbs (none for most) and typed methods, as a Hello carries them.
    package func offers() async -> [KindOffer] {
        var offers: [KindOffer] = []
        for kind in Set(makers.keys).union(verbs.keys).sorted() {
            offers.append(
                KindOffer(
                    kind: kind,
                    verbs: verbs[kind] ?? [],
                    questions: (answering[kind] ?? []).map(\.rawValue).sorted(),
                    requires: requires[kind] ?? [],
                    methods: await methods[kind]?() ?? []
                )
            )
        }
        return offers
    }

    /// Lists `kind`'s typed methods with `list`.
    mutating func describe(_ kind: Kind, with list: @escaping @Sendable () async -> [MethodDescription]) {
        methods[kind.rawValue] = list
    }

    /// A new behavior for `controller`, of `kind`: content for a kind it does not run.
    package func behavior(for kind: String, controller: ControllerRef) -> any ControllerBehavior {
        makers[kind]?(controller) ?? ContentBehavior()
    }
}
