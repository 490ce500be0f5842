/// When a host process the supervisor started ends, whether it is started again (Erlang/OTP's restart types and
/// intensity; runtime.yaml `hostRestart`, `maxRestarts`, `restartWindowMs`).
public enum RestartMode: String, Sendable, CaseIterable {
    /// Always started again.
    case permanent
    /// Started again only after an abnormal end: a signal, or a non-zero exit status.
    case transient
    /// Never started again.
    case temporary
}
