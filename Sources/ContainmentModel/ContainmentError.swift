/// A rejected command: a stable code, a sentence naming the controllers involved (SPEC §9).
///
/// A command that throws this changes nothing.
public struct ContainmentError: Error, Hashable, Sendable, CustomStringConvertible {
    public let code: Code
    private let text: Text

    /// The sentence: written when a rejection is made, or when it is first read for one the model made.
    private enum Text: Sendable {
        case written(String)
        case deferred(@Sendable () -> String)
    }

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.text = .written(message)
    }

    /// A rejection whose sentence is written only if someone reads it: the model rejects many commands whose
    /// callers look only at the code. The values it names are captured when the error is made.
    init(_ code: Code, deferred message: @escaping @autoclosure @Sendable () -> String) {
        self.code = code
        self.text = .deferred(message)
    }

    /// The sentence naming the controllers involved.
    public var message: String {
        switch text {
        case .written(let message): message
        case .deferred(let write): write()
        }
    }

    public static func == (lhs: ContainmentError, rhs: ContainmentError) -> Bool {
        lhs.code == rhs.code && lhs.message == rhs.message
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(code)
        hasher.combine(message)
    }

    public var description: String { "\(code): \(message)" }

    /// A stable error code. New codes may be added without breaking users, so this is a struct, not an enum.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        public let rawValue: String
        public init(_ rawValue: String) { self.rawValue = rawValue }
        public var description: String { rawValue }

        // §2 containment
        public static let selfChild = Code("selfChild")
        public static let cycle = Code("cycle")
        public static let presentedHasParent = Code("presentedHasParent")
        public static let unknownController = Code("unknownController")
        public static let notAChild = Code("notAChild")
        public static let outOfOrder = Code("outOfOrder")
        // §3 views
        public static let frameAuthority = Code("frameAuthority")
        public static let foreignView = Code("foreignView")
        public static let hierarchyInconsistency = Code("hierarchyInconsistency")
        // §4 appearance
        public static let unbalancedAppearance = Code("unbalancedAppearance")
        // §5 transition
        public static let noCommonParent = Code("noCommonParent")
        public static let sameController = Code("sameController")
        public static let notInHierarchy = Code("notInHierarchy")
        public static let transitionInProgress = Code("transitionInProgress")
        // §7 presentation
        public static let presentSelf = Code("presentSelf")
        public static let alreadyPresenting = Code("alreadyPresenting")
        public static let alreadyPresented = Code("alreadyPresented")
        public static let presenterNotInWindow = Code("presenterNotInWindow")
        public static let nothingToDismiss = Code("nothingToDismiss")
        // §8 standard containers
        public static let alreadyInStack = Code("alreadyInStack")
        public static let pushNavigation = Code("pushNavigation")
        public static let notInStack = Code("notInStack")
        public static let indexOutOfRange = Code("indexOutOfRange")
        public static let spineMismatch = Code("spineMismatch")
        public static let duplicateController = Code("duplicateController")
        // §16 layout by constraints
        public static let unsatisfiableConstraints = Code("unsatisfiableConstraints")
        /// A child whose kind lacks verbs its parent's kind requires of its children.
        public static let protocolMismatch = Code("protocolMismatch")
        // §13 orientation
        public static let unsupportedOrientation = Code("unsupportedOrientation")
        // Custom container verbs
        public static let unknownVerb = Code("unknownVerb")
        /// A create of a custom kind that no host that is up (or not the host named) registered.
        public static let unknownKind = Code("unknownKind")
        /// A typed method call whose method threw an error that is not a ``ContainmentError`` (its type and text in
        /// the message).
        public static let methodFailed = Code("methodFailed")
        // §11 messages
        public static let notRelated = Code("notRelated")
        // §9 general
        public static let duplicateID = Code("duplicateID")
        public static let unauthorized = Code("unauthorized")
        public static let malformed = Code("malformed")
        public static let hostUnavailable = Code("hostUnavailable")
        public static let timeout = Code("timeout")
        public static let limitExceeded = Code("limitExceeded")
        // Additions of this implementation: an unknown view or window id is named as such.
        public static let unknownView = Code("unknownView")
        public static let unknownWindow = Code("unknownWindow")
        /// A request for what this runtime was not set up to serve: the metrics without `metricsPort`.
        public static let notConfigured = Code("notConfigured")
        /// A standby supervisor of a replicated runtime (`journal: etcd`) answered: the leader serves, and the refusal
        /// names its endpoint (``RemoteError/leader``); or a leader that lost etcd's majority refuses what it cannot
        /// journal.
        public static let notLeader = Code("notLeader")
        /// A client's request given up because its task was cancelled: never sent when it had not been, else its
        /// answer not waited for (a command already sent may still be applied, once). Never on the wire.
        public static let cancelled = Code("cancelled")

        /// Every code, in the order SPEC.md introduces them.
        public static let all: [Code] = [
            .selfChild, .cycle, .presentedHasParent, .unknownController, .notAChild, .outOfOrder,
            .frameAuthority, .foreignView, .hierarchyInconsistency, .unbalancedAppearance,
            .noCommonParent, .sameController, .notInHierarchy, .transitionInProgress,
            .presentSelf, .alreadyPresenting, .alreadyPresented, .presenterNotInWindow, .nothingToDismiss,
            .alreadyInStack, .pushNavigation, .notInStack, .indexOutOfRange, .spineMismatch, .duplicateController,
            .notRelated, .unsupportedOrientation, .unknownVerb, .unknownKind, .methodFailed,
            .duplicateID, .unauthorized, .malformed, .hostUnavailable, .timeout, .limitExceeded, .unknownView,
            .unknownWindow, .notConfigured, .notLeader, .unsatisfiableConstraints, .protocolMismatch, .cancelled,
        ]

        /// The code named `rawValue`, if it is one of ``all``.
        public init?(named rawValue: String) {
            guard let code = Code.all.first(where: { $0.rawValue == rawValue }) else { return nil }
            self = code
        }
    }
}

/// A rejected batch: the error and the index of the command that failed.
public struct BatchError: Error, Hashable, Sendable, CustomStringConvertible {
    public let index: Int
    public let error: ContainmentError

    public init(index: Int, error: ContainmentError) {
        self.index = index
        self.error = error
    }

    public var description: String { "command at index \(index): \(error)" }
}
