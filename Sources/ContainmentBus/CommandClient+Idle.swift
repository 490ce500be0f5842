import ContainmentModel
import Foundation

/// What `waitUntilIdle` found.
public enum IdleOutcome: Equatable, Sendable {
    /// Nothing was moving at event `seq`.
    case idle(seq: UInt64)
    /// Still busy at the deadline, and why (the last thing seen moving).
    case busy(String)
}

extension CommandClient {
    /// Waits until the runtime is idle: no timed switch running (SPEC §13), no command waiting for controllers' code to
    /// answer (SPEC §15), no callbacks waiting for a host that is up, and every controller's actor done with every
    /// callback delivered to it without its code issuing a command — so that what the code does in answer to a command
    /// (a delegate dismissing, a parent laying out) has happened too.
    ///
    /// The last part is a barrier through every actor's mailbox: an `inspect` is answered once every callback before
    /// it was handled, and code that acts awaits its command's reply, so the sequence number standing still across
    /// an `inspect` of every controller means no code acted. Polls every `poll` until then or until `timeout`.
    public func waitUntilIdle(
        timeout: Duration,
        poll: Duration = .milliseconds(20)
    ) throws(ContainmentError) -> IdleOutcome {
        let deadline = ContinuousClock.now + timeout
        var reason = "nothing checked yet"
        while true {
            let before = try snapshot().wire
            if let moving = Self.moving(before) {
                reason = moving
            } else {
                try inspectEveryController(of: before)
                let after = try snapshot().wire
                if after.seq == before.seq, Self.moving(after) == nil { return .idle(seq: before.seq) }
                reason =
                    "events kept coming while every actor was checked (seq \(before.seq) → \(after.seq)): "
                    + "controllers' code or another client issued commands"
                if ContinuousClock.now < deadline { continue }
            }
            guard ContinuousClock.now < deadline else { return .busy(reason) }
            Thread.sleep(forTimeInterval: Double(poll.components.seconds) + Double(poll.components.attoseconds) / 1e18)
        }
    }

    /// Why the state is not idle, from the snapshot alone; nil when nothing in it moves.
    static func moving(_ snapshot: WireSnapshot) -> String? {
        if let running = snapshot.transitions.first {
            let others = snapshot.transitions.count > 1 ? " and \(snapshot.transitions.count - 1) more" : ""
            return "a timed switch runs in \(running.parent) (\(running.from) → \(running.to))\(others)"
        }
        if snapshot.waiting > 0 {
            return "\(snapshot.waiting) command(s) wait for controllers' code to answer"
        }
        if let host = snapshot.hosts.first(where: { $0.up && $0.pending > 0 }) {
            return "\(host.pending) callback(s) wait for host \(host.name)"
        }
        return nil
    }

    /// An `inspect` of each controller whose host is up: returns once each actor handled what came before it.
    private func inspectEveryController(of snapshot: WireSnapshot) throws(ContainmentError) {
        let up = Set(snapshot.hosts.filter(\.up).map(\.name))
        for controller in snapshot.controllers where up.contains(controller.host) {
            do {
                _ = try inspect(ControllerID(controller.id))
            } catch  where error.code == .hostUnavailable || error.code == .unknownController {
                // Its host went away, or it was destroyed, since the snapshot: nothing of it to wait for.
            }
        }
    }
}
