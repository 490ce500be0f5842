import ContainmentClient
import ContainmentModel
import ContainmentConfig
import ContainmentRuntime
import Foundation
import Logging
import Synchronization

/// Starts a runtime for the topology at `topologyPath` — a supervisor in this process, which starts the topology's
/// hosts (an app's own host executables, from their entries' `command`) — waits until every host it starts is up,
/// runs `body`, then stops everything it started and removes its run directory, whether `body` returned or threw.
///
/// ```swift
/// try await withRuntime(topology: "Config/app.yaml") { runtime in
///     let client = try runtime.client()
///     try await client.perform([.create("g", kind: "grid")], hosts: ["g": "grid-host"])
/// }
/// ```
///
/// `configPath`: runtime.yaml settings for the supervisor and its hosts, `{run}` in them being the test's run
/// directory (keep endpoints under `{run}`, so tests running at once do not share sockets). Logs go to standard error
/// at `logLevel` (warnings by default).
public func withRuntime<Result: Sendable>(
    topology topologyPath: String,
    configPath: String? = nil,
    timeout: Duration = .seconds(30),
    logLevel: Logger.Level = .warning,
    _ body: (TestRuntime) async throws -> Result
) async throws -> Result {
    let runDirectory = try makeRunDirectory()
    defer { try? FileManager.default.removeItem(atPath: runDirectory) }
    var environment = ProcessInfo.processInfo.environment
    environment["CONTAINMENT_RUN_DIR"] = runDirectory
    let config: RuntimeConfig
    let topology: Topology
    do {
        config = try RuntimeConfig.load(from: configPath, environment: environment)
        topology = try Topology.load(path: topologyPath)
    } catch {
        throw TestRuntimeError.invalid("\(error)")
    }
    var logger = Logger(label: "containment.testkit.supervisor") { StreamLogHandler.standardError(label: $0) }
    logger.logLevel = logLevel
    let runtime = TestRuntime(
        runDirectory: runDirectory,
        topology: topology,
        configPath: configPath,
        timeout: timeout
    )
    let failure = Mutex<String?>(nil)
    let service = SupervisorService(config: config, topology: topology, pidFile: nil, logger: logger, startHosts: true)
    // Off Swift's cooperative pool: an app's CPU-bound tests running at once may hold every thread of it for minutes,
    // and the supervisor must start and serve meanwhile (the wait below then finds the hosts up when it resumes).
    let supervisor = Task(executorPreference: QueueTaskExecutor(label: "containment.testkit.supervisor")) {
        do {
            try await service.run()
        } catch {
            failure.withLock { $0 = "\(error)" }
        }
    }
    defer { stopHosts(of: runtime) }
    do {
        try await waitUntilServing(runtime, failure: failure)
        let result = try await body(runtime)
        supervisor.cancel()
        await supervisor.value
        return result
    } catch {
        supervisor.cancel()
        await supervisor.value
        throw error
    }
}

/// Until the supervisor answers and every host it starts is up (or it stopped: its error).
private func waitUntilServing(_ runtime: TestRuntime, failure: borrowing Mutex<String?>) async throws {
    let started = Set(runtime.topology.localHosts)
    let clock = ContinuousClock()
    let deadline = clock.now + runtime.timeout
    // One client, once the supervisor's socket is there (a client refuses a socket no supervisor made).
    var client: RuntimeClient?
    while true {
        if let why = failure.withLock({ $0 }) { throw TestRuntimeError.supervisorFailed(why) }
        if client == nil { client = try? runtime.client() }
        if let snapshot = try? await client?.snapshot(),
            started.isSubset(of: snapshot.hosts.filter(\.up).map(\.name))
        {
            return
        }
        guard clock.now < deadline else {
            throw TestRuntimeError.timedOut("the hosts \(started.sorted().joined(separator: ", ")) are up")
        }
        try await Task.sleep(for: .milliseconds(10))
    }
}

/// A fresh run directory: short, since an `ipc://` socket's path is limited to 107 bytes.
private func makeRunDirectory() throws -> String {
    var template = Array("/tmp/ctk-XXXXXX".utf8CString)
    guard let made = mkdtemp(&template) else {
        throw TestRuntimeError.invalid("cannot make a run directory in /tmp: \(String(cString: strerror(errno)))")
    }
    return String(cString: made)
}

/// SIGTERM to every host the supervisor started (their pid files), SIGKILL to those still running after 5 s; each is
/// reaped (they are this process's children).
private func stopHosts(of runtime: TestRuntime) {
    let pids = runtime.topology.hosts.compactMap(runtime.pid(ofHost:))
    for pid in pids { kill(pid, SIGTERM) }
    let clock = ContinuousClock()
    let deadline = clock.now + .seconds(5)
    var running = pids
    while !running.isEmpty {
        running = running.filter { pid in
            var status: Int32 = 0
            let reaped = waitpid(pid, &status, WNOHANG)
            return reaped == 0 || (reaped < 0 && errno != ECHILD && kill(pid, 0) == 0)
        }
        if running.isEmpty { break }
        if clock.now >= deadline {
            for pid in running {
                kill(pid, SIGKILL)
                var status: Int32 = 0
                waitpid(pid, &status, 0)
            }
            break
        }
        usleep(10_000)
    }
}
