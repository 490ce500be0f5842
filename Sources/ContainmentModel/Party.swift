/// Who issues a command or sets a frame: a controller, a window, or the system (the runtime's operator).
///
/// Commands carry the requester, so the model can check authority (SPEC §3, R1–R5): the supervisor always knows
/// which controller is asking.
public enum Party: Hashable, Sendable, CustomStringConvertible {
    case controller(ControllerID)
    case window(WindowID)
    case system
    /// Whoever the rules expect to issue the command (its parent for a frame, the parent for addChild, …), resolved
    /// by ``ContainmentState/naturalParty(for:)`` when the command is applied. Written as the empty string.
    case natural

    public var controller: ControllerID? {
        guard case .controller(let id) = self else { return nil }
        return id
    }

    /// `C`, `window:W` or `system`.
    public var description: String {
        switch self {
        case .controller(let id): id.rawValue
        case .window(let id): "window:\(id.rawValue)"
        case .system: "system"
        case .natural: ""
        }
    }

    /// Parses what ``description`` prints.
    public init(parsing text: String) {
        if text.isEmpty {
            self = .natural
        } else if text == "system" {
            self = .system
        } else if text.hasPrefix("window:") {
            self = .window(WindowID(String(text.dropFirst("window:".count))))
        } else {
            self = .controller(ControllerID(text))
        }
    }
}
