/// A controller's appearance state (SPEC §4).
public enum AppearanceState: String, Hashable, Sendable, CaseIterable {
    case disappeared, appearing, appeared, disappearing

    /// The state after `beginAppearance(appearing)`, or `nil` when the call is unbalanced.
    ///
    /// An opposite-direction begin during a transition is a cancellation, not an error.
    public func begin(appearing: Bool) -> AppearanceState? {
        switch (self, appearing) {
        case (.disappeared, true), (.disappearing, true): .appearing
        case (.appeared, false), (.appearing, false): .disappearing
        default: nil
        }
    }

    /// The state after `endAppearance`, or `nil` when the call is unbalanced.
    public var end: AppearanceState? {
        switch self {
        case .appearing: .appeared
        case .disappearing: .disappeared
        case .appeared, .disappeared: nil
        }
    }
}

/// The flags every appearance callback carries: true only during the move that causes them (SPEC §4).
public struct AppearanceFlags: Hashable, Sendable, CustomStringConvertible {
    public var animated = false
    public var movingToParent = false
    public var movingFromParent = false
    public var beingPresented = false
    public var beingDismissed = false

    public init(
        animated: Bool = false,
        movingToParent: Bool = false,
        movingFromParent: Bool = false,
        beingPresented: Bool = false,
        beingDismissed: Bool = false
    ) {
        self.animated = animated
        self.movingToParent = movingToParent
        self.movingFromParent = movingFromParent
        self.beingPresented = beingPresented
        self.beingDismissed = beingDismissed
    }

    public static let none = AppearanceFlags()

    /// The names of the flags that are set, space separated; empty when none is.
    public var description: String {
        var names: [String] = []
        if animated { names.append("animated") }
        if movingToParent { names.append("movingToParent") }
        if movingFromParent { names.append("movingFromParent") }
        if beingPresented { names.append("beingPresented") }
        if beingDismissed { names.append("beingDismissed") }
        return names.joined(separator: " ")
    }
}
