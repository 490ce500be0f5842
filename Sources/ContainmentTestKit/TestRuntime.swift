import ContainmentClient
import ContainmentModel
import ContainmentConfig
import ContainmentRuntime
import Foundation
import Logging

/// A runtime started for a test by ``withRuntime(topology:configPath:timeout:logLevel:_:)``: a supervisor in the test's
/// process and the topology's hosts as real processes, in a run directory of its own.
public struct TestRuntime: Sendable {
    /// The run directory: its sockets, journal, pid files and logs.
    public let runDirectory: String
    let topology: Topology
    /// The settings file the runtime was started with (`withRuntime`'s `configPath`).
    let configPath: String?

    /// The topology's hosts, by name.
    public var hosts: [String] { topology.hosts }
    let timeout: Duration

    /// The environment a client of this runtime (or a process started by the test) reads its settings from.
    public var environment: [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["CONTAINMENT_RUN_DIR"] = runDirectory
        environment["CONTAINMENT_CONFIG"] = configPath
        return environment
    }

    /// A new client of this runtime.
    public func client() throws(ContainmentError) -> RuntimeClient {
        try RuntimeClient(environment: environment)
    }

    /// An actor system connected to this runtime, through which the test calls controllers' typed methods:
    /// `try GridController.resolve(id: "board", using: runtime.actorSystem())`.
    public func actorSystem() throws(ContainmentError) -> ContainmentActorSystem {
        try ContainmentActorSystem(environment: environment)
    }

    /// The process id of a host the supervisor started, from its pid file.
    public func pid(ofHost name: String) -> Int32? {
        let path = "\(runDirectory)/host-\(name).pid"
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return nil }
        return Int32(text.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    /// Waits until the runtime is idle: no timed switch running, no command waiting for code to answer, no callback
    /// waiting for a host, and every controller's code done with what it was given without acting — what the code
    /// does in answer to the test's commands (a master pushing its detail, a delegate dismissing) has happened.
    /// Throws ``TestRuntimeError/timedOut(_:)``, naming what still moved, after `timeout` (the runtime's).
    public func waitIdle(timeout: Duration? = nil) async throws {
        do {
            try await RuntimeClient(environment: environment).waitUntilIdle(timeout: timeout ?? self.timeout)
        } catch let failure as RemoteError {
            throw failure.error.code == .timeout
                ? TestRuntimeError.timedOut("the runtime is idle: \(failure)") : failure
        }
    }

    /// Waits until a snapshot satisfies `condition` and returns it: a snapshot is taken again every few milliseconds
    /// (no fixed sleep). Throws ``TestRuntimeError/timedOut(_:)`` after `timeout` (the runtime's) without one.
    @discardableResult
    public func wait(
        until what: String,
        timeout: Duration? = nil,
        _ condition: (TreeSnapshot) -> Bool
    ) async throws -> TreeSnapshot {
        let clock = ContinuousClock()
        let deadline = clock.now + (timeout ?? self.timeout)
        let client = try client()
        while true {
            let snapshot = try await client.snapshot()
            if condition(snapshot) { return snapshot }
            guard clock.now < deadline else { throw TestRuntimeError.timedOut(what) }
            try await Task.sleep(for: .milliseconds(10))
        }
    }
}

/// Why a test runtime did not start or a wait ended.
public enum TestRuntimeError: Error, CustomStringConvertible {
    /// The topology or the settings are not valid.
    case invalid(String)
    /// The supervisor stopped: its error.
    case supervisorFailed(String)
    /// What was waited for did not happen in time.
    case timedOut(String)
    /// Something in a simulated runtime went wrong: a message no process could read, a host refused, the journal.
    case simulationFailed(String)

    public var description: String {
        switch self {
        case .invalid(let why): "The test runtime cannot start: \(why)"
        case .supervisorFailed(let why): "The supervisor stopped: \(why)"
        case .timedOut(let what): "Timed out waiting until \(what)."
        case .simulationFailed(let what): "The simulated runtime went wrong: \(what)"
        }
    }
}
